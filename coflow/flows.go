package coflow

import (
	"math"

	"github.com/netsched/netsched/coflow/rate"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/trace/coflowbench"
)

// flowSpec is one network flow of a trace coflow, from mapper port src to
// reducer port dst (src == dst only with Options.SamePortFlows).
type flowSpec struct {
	src, dst int
	size     float64
}

// coflowState is a coflow from its arrival to its last flow's completion:
// the rate package's coflow (flow i crosses the uplink of its mapper port
// and the downlink of its reducer port, see resources) plus what the replay
// keeps about it.
type coflowState struct {
	rate.Coflow
	arrival float64
	ids     []network.FlowID // network id of flow i
	// still[i]: flow i's Rem was read while it ran at rate 0, as it still
	// does, so the network would give the same bytes (see refresh).
	still    []bool
	finished bool // a flow finished since the last refresh
	left     int  // flows not finished
	width    int  // number of flows
}

// resources are the rate resources of a flow from port src to port dst on a
// fabric of the given ports: uplinks are 0..ports-1, downlinks follow.
func resources(ports, src, dst int) (uint8, [rate.MaxHops]int32) {
	return 2, [rate.MaxHops]int32{int32(src), int32(ports + dst)}
}

// flowModel is how trace coflows become flows: the exact model (zero value)
// or CoflowSim's approximations (Options.MergeRackFlows, MinFlow, RoundFlows,
// SamePortFlows).
type flowModel struct {
	merge      bool    // one flow per (mapper port, reducer port): reducers on one port merged
	minFlow    float64 // every flow at least this many bytes (0: none)
	roundFlows float64 // every flow rounded up to a multiple of this (0: none)
	samePort   bool    // a mapper on the reducer's port sends its share as a flow
}

// size applies the model's rounding to a share of b bytes.
func (m flowModel) size(b float64) float64 {
	if m.roundFlows > 0 {
		b = math.Ceil(b/m.roundFlows) * m.roundFlows
	}
	return max(b, m.minFlow)
}

// buildFlows turns a trace coflow into network flows: each reducer's bytes
// are split evenly over the coflow's distinct mapper ports, and the share of
// a mapper on the reducer's own port is local (no flow). Zero-byte shares
// are no flow either. It returns the flows and the local bytes. The model m
// changes this as its fields say (the zero flowModel is the exact model).
func buildFlows(c *coflowbench.Coflow, m flowModel) ([]flowSpec, float64) {
	mappers := c.DistinctMappers()
	reducers := c.Reducers
	if m.merge {
		reducers = mergeReducers(c)
	}
	var flows []flowSpec
	var local float64
	for _, r := range reducers {
		share := r.Bytes / float64(len(mappers))
		if share <= 0 && m.minFlow <= 0 {
			continue
		}
		for _, p := range mappers {
			if p == r.Port && !m.samePort {
				local += share
				continue
			}
			flows = append(flows, flowSpec{src: p, dst: r.Port, size: m.size(share)})
		}
	}
	return flows, local
}

// mergeReducers returns one reducer per distinct reducer port of c, in the
// order of the port's first reducer, holding the bytes of all of c's
// reducers there (CoflowSim merges a coflow's reducers per rack; mappers
// are merged per port in every model, by splitting over distinct ports).
func mergeReducers(c *coflowbench.Coflow) []coflowbench.Reducer {
	var out []coflowbench.Reducer
	at := make(map[int]int, len(c.Reducers))
	for _, r := range c.Reducers {
		if i, ok := at[r.Port]; ok {
			out[i].Bytes += r.Bytes
			continue
		}
		at[r.Port] = len(out)
		out = append(out, r)
	}
	return out
}

// newCoflowState builds the state of trace coflow idx on a fabric of the
// given ports, and returns its flows.
func newCoflowState(idx, ports int, c *coflowbench.Coflow, m flowModel) (*coflowState, []flowSpec) {
	specs, _ := buildFlows(c, m)
	cs := &coflowState{Coflow: rate.Coflow{Index: idx, Flows: make([]rate.Flow, len(specs))},
		arrival: c.Arrival, ids: make([]network.FlowID, len(specs)), still: make([]bool, len(specs)), left: len(specs), width: len(specs)}
	for i, s := range specs {
		f := &cs.Flows[i]
		f.Rem, f.Rate = s.size, -1 // -1: still max-min shared
		f.N, f.Res = resources(ports, s.src, s.dst)
		cs.Bytes += s.size
		cs.Longest = max(cs.Longest, s.size)
	}
	cs.Narrow = min(len(c.DistinctMappers()), len(c.DistinctReducers()))
	return cs, specs
}

// tag packs (coflow, flow) into the network's opaque flow tag.
func tag(coflow, flow int) int64 { return int64(coflow)<<32 | int64(flow) }

func untag(t int64) (coflow, flow int) { return int(t >> 32), int(t & (1<<32 - 1)) }
