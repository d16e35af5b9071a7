package rate

import (
	"cmp"
	"math"
	"slices"
)

// Refiller hands the bandwidth of a finished flow to the other flows on its
// resources between allocations. It is the backfill pass restricted to the
// resources a completion freed: flows are visited in backfill order
// (arrival order; for Aalo queue, then arrival) and each adds the least
// free bandwidth on its path, while the rates the policy set stay as they
// are. Cost per completion: the flows listed at the freed resources, not
// all active flows. A listed flow's path must not change, nor a coflow's
// Queue once its Flows are nil.
type Refiller struct {
	lists [][]entry // per resource, the flows through it in backfill order
	dead  []int     // per resource: listed flows reported Finished since its last compaction
	freed []Ref     // flows finished since the last refill
	hit   []bool    // scratch: resources with freed bandwidth
	res   []int32

	// For SortByQueue: the listed coflows with their queue at the last
	// sort, and the lists whose order may be off since (arrivals, queue
	// changes).
	coflows  []*Coflow
	queues   []int
	unsorted []bool
	toSort   []int32
	moved    []*Coflow // coflows whose entries a sort places anew (Coflow.moved)
	scratch  []entry
	pruneAt  int // len(coflows) at which Add drops the gone ones
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

// entry is a listed flow with a copy of its path, so that a walk can see
// that a flow has no room without loading the flow itself: most listed
// flows are blocked at another resource, and reading each through its
// coflow was most of a refill's cost.
type entry struct {
	c   *Coflow
	i   int32
	n   uint8
	res [MaxHops]int32
}

func (e *entry) ref() Ref { return Ref{e.c, int(e.i)} }

// NewRefiller makes a refiller over the given number of resources.
func NewRefiller(resources int) *Refiller {
	return &Refiller{lists: make([][]entry, resources), dead: make([]int, resources), hit: make([]bool, resources),
		unsorted: make([]bool, resources)}
}

// Add lists a newly arrived coflow's flows at their resources.
func (rf *Refiller) Add(c *Coflow) {
	for i := range c.Flows {
		f := &c.Flows[i]
		e := entry{c: c, i: int32(i), n: f.N, res: f.Res}
		for _, x := range f.Resources() {
			rf.lists[x] = append(rf.lists[x], e)
			rf.markUnsorted(x)
		}
	}
	rf.coflows, rf.queues = append(rf.coflows, c), append(rf.queues, c.Queue)
	rf.move(c)
	if len(rf.coflows) >= rf.pruneAt {
		// Without sorts (Varys) nothing else drops them.
		rf.pruneGone()
		rf.pruneAt = 2*len(rf.coflows) + 8
	}
}

// pruneGone forgets the gone coflows' queues and moves. A gone coflow's
// entries stay marked moved, so a sort still places them by their key.
func (rf *Refiller) pruneGone() {
	kept := 0
	for j, c := range rf.coflows {
		if len(c.Flows) > 0 {
			rf.coflows[kept], rf.queues[kept] = c, rf.queues[j]
			kept++
		}
	}
	clear(rf.coflows[kept:])
	rf.coflows, rf.queues = rf.coflows[:kept], rf.queues[:kept]
	moved := rf.moved[:0]
	for _, c := range rf.moved {
		if len(c.Flows) > 0 {
			moved = append(moved, c)
		}
	}
	clear(rf.moved[len(moved):])
	rf.moved = moved
}

// move marks c's entries for placing anew at the next sort.
func (rf *Refiller) move(c *Coflow) {
	if !c.moved {
		c.moved = true
		rf.moved = append(rf.moved, c)
	}
}

func (rf *Refiller) markUnsorted(x int32) {
	if !rf.unsorted[x] {
		rf.unsorted[x] = true
		rf.toSort = append(rf.toSort, x)
	}
}

// Finished records that flow i of c finished (Done set, Rate still the rate
// it ran at), for the next Refill.
func (rf *Refiller) Finished(c *Coflow, i int) {
	rf.freed = append(rf.freed, Ref{c, i})
	for _, x := range c.Flows[i].Resources() {
		rf.dead[x]++
	}
}

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
		if 2*rf.dead[x] > len(rf.lists[x]) {
			rf.compact(x)
		}
		rf.give(a, rf.lists[x], &a.free[x], set)
	}
}

// give walks one resource's list in order while the resource has free
// bandwidth, raising each flow by what the rest of its path allows.
// Finished flows stay listed until a compaction: they are skipped, and only
// once their path has room (the usual case is a blocked path, which the
// entry's copy shows without loading the flow).
func (rf *Refiller) give(a *Allocator, list []entry, free *float64, set func(ref Ref)) {
	for k := range list {
		if *free <= a.tiny {
			return
		}
		e := &list[k]
		// Two resources (a port's uplink and downlink) is the common path.
		add := min(a.free[e.res[0]], a.free[e.res[1]])
		if e.n != 2 {
			add = math.Inf(1)
			for _, x := range e.res[:e.n] {
				add = min(add, a.free[x])
			}
		}
		if add <= a.tiny {
			continue
		}
		ref := e.ref()
		if ref.gone() {
			continue
		}
		f := ref.Flow()
		f.Next = max(f.Rate, 0) + add
		for _, x := range e.res[:e.n] {
			a.free[x] -= add
		}
		set(ref)
	}
}

// compact drops the finished flows from resource x's list, keeping the
// order.
func (rf *Refiller) compact(x int32) {
	l := rf.lists[x]
	kept := l[:0]
	for _, e := range l {
		if !e.ref().gone() {
			kept = append(kept, e)
		}
	}
	clear(l[len(kept):])
	rf.lists[x], rf.dead[x] = kept, 0
}

// SortByQueue puts every resource's list in (queue, arrival, flow) order:
// Aalo's backfill order. Call at each Aalo allocation, which is when queues
// change and arrivals join. Every list is kept in that order, finished
// flows included, so only the lists of arrivals and of coflows whose queue
// changed need work: their entries are taken out, sorted and merged back
// into the rest, which is still in order.
func (rf *Refiller) SortByQueue() {
	kept, all := 0, false
	for j, c := range rf.coflows {
		if c.Queue != rf.queues[j] {
			rf.move(c)
			for i := range c.Flows {
				for _, x := range c.Flows[i].Resources() {
					rf.markUnsorted(x)
				}
			}
			// A coflow gone before its move was sorted no longer shows its
			// resources: place it anew in every list.
			all = all || len(c.Flows) == 0
		}
		if len(c.Flows) == 0 {
			continue
		}
		rf.coflows[kept], rf.queues[kept] = c, c.Queue
		kept++
	}
	clear(rf.coflows[kept:])
	rf.coflows, rf.queues = rf.coflows[:kept], rf.queues[:kept]
	if all {
		for x := range rf.lists {
			rf.markUnsorted(int32(x))
		}
	}
	less := func(x, y entry) int {
		return cmp.Or(cmp.Compare(x.c.Queue, y.c.Queue), cmp.Compare(x.c.Index, y.c.Index), cmp.Compare(x.i, y.i))
	}
	for _, x := range rf.toSort {
		rf.unsorted[x] = false
		if 2*rf.dead[x] > len(rf.lists[x]) {
			rf.compact(x)
		}
		l := rf.lists[x]
		stay, mov := l[:0], rf.scratch[:0]
		for _, e := range l {
			if e.c.moved {
				mov = append(mov, e)
			} else {
				stay = append(stay, e)
			}
		}
		slices.SortFunc(mov, less)
		// Merge from the back: stay is l's prefix.
		i, k := len(stay)-1, len(l)-1
		for j := len(mov) - 1; j >= 0; k-- {
			if i >= 0 && less(l[i], mov[j]) > 0 {
				l[k], i = l[i], i-1
			} else {
				l[k], j = mov[j], j-1
			}
		}
		clear(mov)
		rf.scratch = mov[:0]
	}
	rf.toSort = rf.toSort[:0]
	for _, c := range rf.moved {
		c.moved = false
	}
	clear(rf.moved)
	rf.moved = rf.moved[:0]
}
