package queue

import "github.com/netsched/netsched/sim"

// networkParam lets any queue scheduler choose how flows share the network:
// "fair" (one class, max-min) or "fifo" (strict priority by job arrival,
// PushBox's Hadoop(FIFO) baseline).
var networkParam = sim.ParamInfo{Name: "network", Default: "fair", Help: "flow sharing: fair (max-min) or fifo (priority by job arrival)"}

// flows implements sim.FlowClasser when network is fifo.
type flows struct{ byArrival bool }

func newFlowPolicy(p *sim.Params) flows {
	return flows{byArrival: p.String("network", "fair", "fair", "fifo") == "fifo"}
}

// FlowClass gives every flow of a job the job's arrival rank, so an earlier
// job's flows are served first; with network: fair all flows share class 0.
func (f flows) FlowClass(v *sim.View, t *sim.Task, src int) int {
	if f.byArrival {
		return t.Job().Seq
	}
	return 0
}
