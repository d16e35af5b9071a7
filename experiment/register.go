package experiment

// Sweeps name schedulers by their registered names; comparing "every
// scheduler" needs all of them registered.
import _ "github.com/netsched/netsched/sched/all"
