package queue

import (
	"github.com/netsched/netsched/sched/internal/locate"
	"github.com/netsched/netsched/sim"
)

func init() {
	sim.Register(sim.Info{
		Name:        "fifo",
		Description: "Hadoop FIFO: jobs in arrival order; in a job, tasks in stage and index order (or YARN's request order)",
		Params: []sim.ParamInfo{networkParam,
			{Name: "order", Default: "stage", Help: "within a job: stage (stage then index order) or yarn (reduce-like before map-like requests; node-local, rack-local, then any)"}},
		New: func(p *sim.Params) (sim.Scheduler, error) {
			return &FIFO{flows: newFlowPolicy(p), yarn: p.String("order", "stage", "stage", "yarn") == "yarn"}, nil
		},
	})
}

// FIFO offers each free slot to the earliest-arrived job with a waiting task
// that may run there (YARN's FifoScheduler, §2: no delay scheduling).
type FIFO struct {
	flows
	yarn bool
}

func (f *FIFO) Offer(v *sim.View, m int) *sim.Task {
	for _, j := range v.Jobs() {
		if j.Waiting == 0 {
			continue
		}
		if !f.yarn {
			// stage then index order (the definition of fifo)
			if t := locate.First(j.Stages, m); t != nil {
				return t
			}
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
