package queue

import "github.com/netsched/netsched/sched"

// flows implements sched.FlowClasser when network is fifo.
type flows struct{ byArrival bool }

// FlowClass gives every flow of a job the job's arrival rank, so an earlier
// job's flows are served first; with network: fair all flows share class 0.
func (f flows) FlowClass(v sched.View, t sched.Task, src int) int {
	if f.byArrival {
		return t.Job().Seq()
	}
	return 0
}
