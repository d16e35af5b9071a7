package experiment

// Sweeps name schedulers, trace formats and generators by their registered
// names; a library user who runs scenarios through this package gets them
// all registered without importing anything else.
import (
	_ "github.com/netsched/netsched/sched/all"
	_ "github.com/netsched/netsched/trace/register"
)
