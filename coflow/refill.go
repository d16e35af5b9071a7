package coflow

import (
	"cmp"
	"slices"
)

// refiller hands the bandwidth of a finished flow to the other flows at its
// two ports between reallocations (see Options.IdleFreedBandwidth). It is
// the backfill pass restricted to the ports a completion freed: flows are
// visited in backfill order (arrival order; for aalo queue, then arrival)
// and each adds min(free uplink, free downlink), while the rates the policy
// set stay as they are. Cost per completion: the flows listed at the two
// ports, not all active flows.
type refiller struct {
	up, down [][]flowRef // per port, the flows through it in arrival order
	freed    []flowRef   // flows finished since the last refill
	upHit    []bool      // scratch: ports with freed bandwidth
	downHit  []bool
	ports    []int
}

// flowRef names flow i of coflow c.
type flowRef struct {
	c *coflowState
	i int
}

func (r flowRef) flow() *flowState { return &r.c.flows[r.i] }

// gone reports whether the flow no longer needs bandwidth.
func (r flowRef) gone() bool { return r.c.left == 0 || r.c.flows[r.i].done }

func newRefiller(ports int) *refiller {
	return &refiller{up: make([][]flowRef, ports), down: make([][]flowRef, ports),
		upHit: make([]bool, ports), downHit: make([]bool, ports)}
}

// add lists a newly arrived coflow's flows at their ports.
func (rf *refiller) add(c *coflowState) {
	for i := range c.flows {
		f := &c.flows[i]
		rf.up[f.src] = append(rf.up[f.src], flowRef{c, i})
		rf.down[f.dst] = append(rf.down[f.dst], flowRef{c, i})
	}
}

// refill returns the rates of the freed flows to their ports and gives the
// freed bandwidth away; set applies one changed rate.
func (rf *refiller) refill(a *allocator, set func(ref flowRef)) {
	rf.ports = rf.ports[:0]
	for _, ref := range rf.freed {
		f := ref.flow()
		if f.rate > 0 {
			a.up[f.src] = min(a.speed, a.up[f.src]+f.rate)
			a.down[f.dst] = min(a.speed, a.down[f.dst]+f.rate)
		}
		if !rf.upHit[f.src] {
			rf.upHit[f.src] = true
			rf.ports = append(rf.ports, f.src)
		}
		if !rf.downHit[f.dst] {
			rf.downHit[f.dst] = true
			rf.ports = append(rf.ports, -1-f.dst) // downlinks encoded negative
		}
	}
	rf.freed = rf.freed[:0]
	for _, p := range rf.ports {
		if p >= 0 {
			rf.upHit[p] = false
			rf.up[p] = rf.give(a, rf.up[p], &a.up[p], set)
		} else {
			p = -1 - p
			rf.downHit[p] = false
			rf.down[p] = rf.give(a, rf.down[p], &a.down[p], set)
		}
	}
}

// give walks one port's list in order while the port has free bandwidth,
// raising each flow by what its other port allows. It drops finished flows
// from the part of the list it walked.
func (rf *refiller) give(a *allocator, list []flowRef, free *float64, set func(ref flowRef)) []flowRef {
	kept := list[:0]
	for k, ref := range list {
		if *free <= a.tiny {
			kept = append(kept, list[k:]...) // overlapping copy: kept trails k
			break
		}
		if ref.gone() {
			continue
		}
		kept = append(kept, ref)
		f := ref.flow()
		if add := min(a.up[f.src], a.down[f.dst]); add > a.tiny {
			f.next = max(f.rate, 0) + add
			a.up[f.src] -= add
			a.down[f.dst] -= add
			set(ref)
		}
	}
	clear(list[len(kept):])
	return kept
}

// sortByQueue puts every port's list in (queue, arrival, flow) order: the
// aalo backfill order. Called at each aalo reallocation, which is when
// queues change and arrivals join.
func (rf *refiller) sortByQueue() {
	less := func(x, y flowRef) int {
		return cmp.Or(cmp.Compare(x.c.queue, y.c.queue), cmp.Compare(x.c.idx, y.c.idx), cmp.Compare(x.i, y.i))
	}
	for _, lists := range [][][]flowRef{rf.up, rf.down} {
		for p, l := range lists {
			kept := l[:0]
			for _, ref := range l {
				if !ref.gone() {
					kept = append(kept, ref)
				}
			}
			clear(l[len(kept):])
			slices.SortFunc(kept, less)
			lists[p] = kept
		}
	}
}
