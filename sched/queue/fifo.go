package queue

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
)

// FIFOConfig is fifo's parameters.
type FIFOConfig struct {
	NetworkConfig
	Order string `param:"order" choices:"stage|yarn" help:"within a job: stage (stage then index order) or yarn (reduce-like before map-like requests; node-local, rack-local, then any)"`
}

func init() {
	sched.Register(sched.Define("fifo",
		"Hadoop FIFO: jobs in arrival order; in a job, tasks in stage and index order (or YARN's request order)",
		FIFOConfig{NetworkConfig: NetworkConfig{"fair"}, Order: "stage"},
		func(c FIFOConfig) (sched.Scheduler, error) {
			return &FIFO{flows: c.flows(), yarn: c.Order == "yarn"}, nil
		}))
}

// FIFO offers each free slot to the earliest-arrived job with a waiting task
// that may run there (YARN's FifoScheduler, §2: no delay scheduling).
type FIFO struct {
	flows
	yarn bool
}

func (f *FIFO) Offer(v sched.View, m int, pl *sched.Plan) {
	if t := f.find(v, m); !t.IsZero() {
		pl.Place(t, m)
	}
}

// find is the task FIFO places on m, if any.
func (f *FIFO) find(v sched.View, m int) sched.Task {
	for j := range v.WaitingJobs() {
		if !f.yarn {
			// order: stage — stage then index order
			if t := locate.FirstOf(j.WaitingStages(), m); !t.IsZero() {
				return t
			}
			continue
		}
		for p := range priorities {
			if t, _ := pick(v, j, p, m, sched.OffSwitch); !t.IsZero() {
				return t
			}
		}
	}
	return sched.Task{}
}
