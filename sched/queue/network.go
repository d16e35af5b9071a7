package queue

import "github.com/netsched/netsched/sched"

// networkParam lets any queue scheduler choose how flows share the network:
// "fair" (one class, max-min) or "fifo" (strict priority by job arrival,
// PushBox's Hadoop(FIFO) baseline).
var networkParam = sched.ParamInfo{Name: "network", Default: "fair", Help: "flow sharing: fair (max-min) or fifo (priority by job arrival)"}

// flows implements sched.FlowClasser when network is fifo.
type flows struct{ byArrival bool }

func newFlowPolicy(p *sched.Params) flows {
	return flows{byArrival: p.String("network", "fair", "fair", "fifo") == "fifo"}
}

// FlowClass gives every flow of a job the job's arrival rank, so an earlier
// job's flows are served first; with network: fair all flows share class 0.
func (f flows) FlowClass(v sched.View, t sched.Task, src int) int {
	if f.byArrival {
		return t.Job().Seq()
	}
	return 0
}
