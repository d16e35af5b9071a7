package coflow

import (
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/trace/coflowbench"
)

// flowState is one network flow of a coflow.
type flowState struct {
	id       network.FlowID
	src, dst int
	size     float64
	rem      float64 // bytes left, refreshed before each allocation
	rate     float64 // explicit rate last applied; -1 = still max-min shared
	next     float64 // rate being computed by the current allocation
	done     bool
}

// coflowState is a coflow from its arrival to its last flow's completion.
type coflowState struct {
	idx      int // position in the trace: arrival order and tie-breaker
	arrival  float64
	flows    []flowState
	left     int     // flows not finished
	netBytes float64 // bytes that cross the network (size of all flows)
	longest  float64 // largest flow size
	width    int     // number of flows
	narrow   int     // min(distinct mapper ports, distinct reducer ports)
	queue    int     // aalo queue index
	key      float64 // order key of the current allocation
	// Aalo: bytes sent as of sentAt, and the rate they grow at.
	sent0, sentAt, sendRate float64
}

// buildFlows turns a trace coflow into network flows: each reducer's bytes
// are split evenly over the coflow's distinct mapper ports, and the share of
// a mapper on the reducer's own port is local (no flow). Zero-byte shares
// are no flow either. It returns the flows and the local bytes.
func buildFlows(c *coflowbench.Coflow) ([]flowState, float64) {
	mappers := c.DistinctMappers()
	var flows []flowState
	var local float64
	for _, r := range c.Reducers {
		share := r.Bytes / float64(len(mappers))
		if share <= 0 {
			continue
		}
		for _, m := range mappers {
			if m == r.Port {
				local += share
				continue
			}
			flows = append(flows, flowState{src: m, dst: r.Port, size: share, rem: share, rate: -1})
		}
	}
	return flows, local
}

// newCoflowState builds the state of trace coflow idx.
func newCoflowState(idx int, c *coflowbench.Coflow) *coflowState {
	flows, _ := buildFlows(c)
	cs := &coflowState{idx: idx, arrival: c.Arrival, flows: flows, left: len(flows), width: len(flows)}
	for _, f := range flows {
		cs.netBytes += f.size
		cs.longest = max(cs.longest, f.size)
	}
	cs.narrow = min(len(c.DistinctMappers()), len(c.DistinctReducers()))
	return cs
}

// tag packs (coflow, flow) into the network's opaque flow tag.
func tag(coflow, flow int) int64 { return int64(coflow)<<32 | int64(flow) }

func untag(t int64) (coflow, flow int) { return int(t >> 32), int(t & (1<<32 - 1)) }
