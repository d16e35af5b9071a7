package queue

import "github.com/netsched/netsched/sim"

func init() {
	sim.Register(sim.Info{
		Name:        "fifo",
		Description: "Hadoop FIFO: jobs in arrival order; in a job reduce-like before map-like requests, node-local, then rack-local, then any",
		Params:      []sim.ParamInfo{networkParam},
		New: func(p *sim.Params) (sim.Scheduler, error) {
			return &FIFO{flows: newFlowPolicy(p)}, nil
		},
	})
}

// FIFO offers each free slot to the earliest-arrived job with a waiting task
// that may run there (YARN's FifoScheduler, §2: no delay scheduling).
type FIFO struct{ flows }

func (f *FIFO) Offer(v *sim.View, m int) *sim.Task {
	for _, j := range v.Jobs() {
		if j.Waiting == 0 {
			continue
		}
		for p := range priorities {
			if t, _ := pick(v, j, p, m, sim.OffSwitch); t != nil {
				return t
			}
		}
	}
	return nil
}
