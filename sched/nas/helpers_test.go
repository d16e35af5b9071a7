package nas_test

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/nas"
)

// placed wraps NAS with a data placement, so that a test decides where
// input replicas are (every file split of a job gets the same replicas).
// Each package wraps its own scheduler type: embedding the concrete type
// keeps its optional interfaces (Observer, Heartbeater, ...), which a shared
// wrapper around sched.Scheduler would hide from the engine.
type placed struct {
	*nas.Scheduler
	replicas map[string][]int // job id -> machines
}

func (p placed) PlaceInput(v sched.View, in sched.InputSplit) []int { return p.replicas[in.Job.ID] }

// config is the default configuration changed by fn.
func config(fn func(c *nas.Config)) nas.Config {
	c := nas.DefaultConfig()
	if fn != nil {
		fn(&c)
	}
	return c
}
