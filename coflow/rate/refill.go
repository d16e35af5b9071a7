package rate

import (
	"cmp"
	"slices"
)

// Refiller hands the bandwidth of a finished flow to the other flows on its
// resources between allocations. It is the backfill pass restricted to the
// resources a completion freed: flows are visited in backfill order
// (arrival order; for Aalo queue, then arrival) and each adds the least
// free bandwidth on its path, while the rates the policy set stay as they
// are. Cost per completion: the flows listed at the freed resources, not
// all active flows.
type Refiller struct {
	lists [][]Ref // per resource, the flows through it in backfill order
	freed []Ref   // flows finished since the last refill
	hit   []bool  // scratch: resources with freed bandwidth
	res   []int32
}

// Ref names flow I of coflow C.
type Ref struct {
	C *Coflow
	I int
}

// Flow is the flow named.
func (r Ref) Flow() *Flow { return &r.C.Flows[r.I] }

// gone reports whether the flow no longer needs bandwidth.
func (r Ref) gone() bool { return len(r.C.Flows) == 0 || r.C.Flows[r.I].Done }

// NewRefiller makes a refiller over the given number of resources.
func NewRefiller(resources int) *Refiller {
	return &Refiller{lists: make([][]Ref, resources), hit: make([]bool, resources)}
}

// Add lists a newly arrived coflow's flows at their resources.
func (rf *Refiller) Add(c *Coflow) {
	for i := range c.Flows {
		for _, x := range c.Flows[i].Resources() {
			rf.lists[x] = append(rf.lists[x], Ref{c, i})
		}
	}
}

// Finished records that flow i of c finished (Done set, Rate still the rate
// it ran at), for the next Refill.
func (rf *Refiller) Finished(c *Coflow, i int) { rf.freed = append(rf.freed, Ref{c, i}) }

// Pending reports whether finished flows wait for a Refill.
func (rf *Refiller) Pending() bool { return len(rf.freed) > 0 }

// Forget drops the finished flows recorded: a full allocation covers them.
func (rf *Refiller) Forget() { rf.freed = rf.freed[:0] }

// Refill returns the rates of the finished flows to their resources and
// gives the freed bandwidth away; set applies one raised rate (the flow's
// Next) and should make it the flow's Rate.
func (rf *Refiller) Refill(a *Allocator, set func(ref Ref)) {
	rf.res = rf.res[:0]
	for _, ref := range rf.freed {
		f := ref.Flow()
		if f.Rate > 0 {
			for _, x := range f.Resources() {
				a.free[x] = min(a.cap[x], a.free[x]+f.Rate)
			}
		}
		for _, x := range f.Resources() {
			if !rf.hit[x] {
				rf.hit[x] = true
				rf.res = append(rf.res, x)
			}
		}
	}
	rf.freed = rf.freed[:0]
	for _, x := range rf.res {
		rf.hit[x] = false
		rf.lists[x] = rf.give(a, rf.lists[x], &a.free[x], set)
	}
}

// give walks one resource's list in order while the resource has free
// bandwidth, raising each flow by what the rest of its path allows. It drops
// finished flows from the part of the list it walked.
func (rf *Refiller) give(a *Allocator, list []Ref, free *float64, set func(ref Ref)) []Ref {
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
		f := ref.Flow()
		if add := a.room(f); add > a.tiny {
			f.Next = max(f.Rate, 0) + add
			for _, x := range f.Resources() {
				a.free[x] -= add
			}
			set(ref)
		}
	}
	clear(list[len(kept):])
	return kept
}

// SortByQueue puts every resource's list in (queue, arrival, flow) order:
// Aalo's backfill order. Call at each Aalo allocation, which is when queues
// change and arrivals join.
func (rf *Refiller) SortByQueue() {
	less := func(x, y Ref) int {
		return cmp.Or(cmp.Compare(x.C.Queue, y.C.Queue), cmp.Compare(x.C.Index, y.C.Index), cmp.Compare(x.I, y.I))
	}
	for x, l := range rf.lists {
		kept := l[:0]
		for _, ref := range l {
			if !ref.gone() {
				kept = append(kept, ref)
			}
		}
		clear(l[len(kept):])
		slices.SortFunc(kept, less)
		rf.lists[x] = kept
	}
}
