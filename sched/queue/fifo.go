// Package queue holds the classic Hadoop schedulers: fifo, fair (the YARN
// Fair Scheduler), capacity and delay scheduling, specified in
// shared/design/baselines.md §1-3.
package queue

import "github.com/netsched/netsched/sim"

func init() {
	sim.Register(sim.Info{
		Name:        "fifo",
		Description: "Hadoop FIFO: jobs in arrival order, tasks in stage and index order",
		Params:      []sim.ParamInfo{networkParam},
		New: func(p *sim.Params) (sim.Scheduler, error) {
			return &FIFO{flows: newFlowPolicy(p)}, nil
		},
	})
}

// FIFO offers each free slot to the earliest-arrived job with a waiting task
// that may run there.
type FIFO struct{ flows }

func (f *FIFO) Offer(v *sim.View, m int) *sim.Task {
	for _, j := range v.Jobs() {
		if t := firstWaiting(j, m); t != nil {
			return t
		}
	}
	return nil
}

// firstWaiting is a job's first waiting task (stage, then index order) that
// may run on m.
func firstWaiting(j *sim.Job, m int) *sim.Task {
	if j.Waiting == 0 {
		return nil
	}
	for _, st := range j.Stages {
		if st.WaitingCount() > 0 {
			if t := st.NextWaiting(m); t != nil {
				return t
			}
		}
	}
	return nil
}
