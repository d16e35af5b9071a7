package rate

import (
	"fmt"
	"math"
)

// Allocator holds the free bandwidth of every resource during an
// allocation. Policies give flows rates through it; it never lets a
// resource go below zero.
type Allocator struct {
	cap  []float64 // capacity per resource
	free []float64 // free bandwidth per resource
	tiny float64   // free bandwidth below this counts as none

	// Per-resource scratch for one coflow, reset through touched.
	bytes   []float64
	n       []int
	touched []int32
	gen     uint64 // allocations begun; loads computed in the current one carry it
}

// loadCache is a coflow's per-resource loads as loads computed them, in
// the order it first touched each resource: sebf's key and MADD need the
// same loads, and a coflow waiting at rate 0 has the same ones at every
// allocation.
type loadCache struct {
	gen   uint64 // Allocator.gen of the allocation they are valid in; 0: none
	res   []int32
	bytes []float64
	n     []int
}

// reuseLoads is off only in tests, for the reference that sums every
// coflow's loads at every use.
var reuseLoads = true

// begin starts an allocation of the active coflows: loads computed during
// it are reused within it, and a Still coflow keeps those of the previous
// allocation.
func (a *Allocator) begin(active []*Coflow) {
	a.gen++
	for _, c := range active {
		if c.Still && c.ld.gen != 0 && c.ld.gen == a.gen-1 {
			c.ld.gen = a.gen
		}
	}
}

// NewAllocator makes an allocator for resources of the given capacities
// (bytes/s, each positive and finite).
func NewAllocator(caps []float64) (*Allocator, error) {
	a := &Allocator{cap: append([]float64(nil), caps...), free: make([]float64, len(caps)),
		bytes: make([]float64, len(caps)), n: make([]int, len(caps))}
	top := 0.0
	for i, c := range caps {
		if !(c > 0) || math.IsInf(c, 0) {
			return nil, fmt.Errorf("rate: resource %d: capacity %v bytes/s must be positive and finite", i, c)
		}
		top = max(top, c)
	}
	a.tiny = top * 1e-12
	return a, nil
}

// Resources is the number of resources.
func (a *Allocator) Resources() int { return len(a.cap) }

// Reset frees every resource and zeroes every active flow's Next.
func (a *Allocator) Reset(active []*Coflow) {
	copy(a.free, a.cap)
	for _, c := range active {
		for i := range c.Flows {
			c.Flows[i].Next = 0
		}
	}
}

// room is the most f can still add: the least free bandwidth on its path.
func (a *Allocator) room(f *Flow) float64 {
	r := math.Inf(1)
	for _, x := range f.Res[:f.N] {
		r = min(r, a.free[x])
	}
	return r
}

// give adds r to f, capped by its path's free bandwidth, and takes it from
// every resource of the path, so free bandwidth never goes negative.
func (a *Allocator) give(f *Flow, r float64) {
	r = min(r, a.room(f))
	if r <= 0 {
		return
	}
	f.Next += r
	for _, x := range f.Res[:f.N] {
		a.free[x] -= r
	}
}

// loads accumulates c's remaining bytes and unfinished flow counts per
// resource into the scratch arrays, or restores them from c's cache when
// they are valid in this allocation (the same sums, in the same order).
func (a *Allocator) loads(c *Coflow) {
	for _, x := range a.touched {
		a.bytes[x], a.n[x] = 0, 0
	}
	a.touched = a.touched[:0]
	ld := &c.ld
	if reuseLoads && a.gen != 0 && ld.gen == a.gen {
		for k, x := range ld.res {
			a.bytes[x], a.n[x] = ld.bytes[k], ld.n[k]
		}
		a.touched = append(a.touched, ld.res...)
		return
	}
	for i := range c.Flows {
		f := &c.Flows[i]
		if f.Done {
			continue
		}
		for _, x := range f.Res[:f.N] {
			if a.n[x] == 0 {
				a.touched = append(a.touched, x)
			}
			a.n[x]++
			a.bytes[x] += f.Rem
		}
	}
	ld.gen = a.gen
	ld.res = append(ld.res[:0], a.touched...)
	ld.bytes, ld.n = ld.bytes[:0], ld.n[:0]
	for _, x := range a.touched {
		ld.bytes = append(ld.bytes, a.bytes[x])
		ld.n = append(ld.n, a.n[x])
	}
}

// bottleneck is Γ: the time c needs to finish its remaining bytes through
// its busiest resource against the free bandwidth. ok is false when c needs
// a resource with no free bandwidth left (CoflowSim then skips c). Call
// after loads.
func (a *Allocator) bottleneck() (gamma float64, ok bool) {
	for _, x := range a.touched {
		if a.bytes[x] <= 0 {
			continue
		}
		if a.free[x] <= a.tiny {
			return 0, false
		}
		gamma = max(gamma, a.bytes[x]/a.free[x])
	}
	return gamma, gamma > 0
}

// effectiveBottleneck is the time c would need alone on idle resources: the
// most remaining bytes through one resource over its capacity (Varys).
func (a *Allocator) effectiveBottleneck(c *Coflow) float64 {
	a.loads(c)
	var worst float64
	for _, x := range a.touched {
		worst = max(worst, a.bytes[x]/a.cap[x])
	}
	return worst
}

// MADD is Varys's Minimum Allocation for Desired Duration: every unfinished
// flow of c gets Rem/Γ, so that all of them finish together at Γ, where Γ is
// c's bottleneck against the bandwidth earlier coflows left.
func (a *Allocator) MADD(c *Coflow) {
	a.loads(c)
	gamma, ok := a.bottleneck()
	if !ok {
		return
	}
	for i := range c.Flows {
		if f := &c.Flows[i]; !f.Done {
			a.give(f, f.Rem/gamma)
		}
	}
}

// Backfill is the work-conserving pass: in the given order, every
// unfinished flow adds whatever its path still has free.
func (a *Allocator) Backfill(order []*Coflow) {
	for _, c := range order {
		for i := range c.Flows {
			f := &c.Flows[i]
			if f.Done {
				continue
			}
			if r := a.room(f); r > a.tiny {
				a.give(f, r)
			}
		}
	}
}

// split is CoflowSim's per-coflow rule for Aalo: every unfinished flow gets
// the least over its resources of budget/n, n counting c's own unfinished
// flows there. The budget is the free bandwidth, or in weighted mode the
// share of c's queue (budget, nil otherwise). The allocation is then taken
// from the free bandwidth and from the budget.
func (a *Allocator) split(c *Coflow, budget []float64) {
	bud := a.free
	if budget != nil {
		bud = budget
	}
	a.loads(c)
	for i := range c.Flows {
		f := &c.Flows[i]
		if f.Done {
			continue
		}
		r := math.Inf(1)
		for _, x := range f.Res[:f.N] {
			r = min(r, bud[x]/float64(a.n[x]))
		}
		if r > a.tiny {
			f.Next = r
		}
	}
	for i := range c.Flows {
		f := &c.Flows[i]
		if f.Done || f.Next <= 0 {
			continue
		}
		// max(0, ...) absorbs the rounding of n shares of x/n.
		for _, x := range f.Res[:f.N] {
			a.free[x] = max(0, a.free[x]-f.Next)
			if budget != nil {
				budget[x] = max(0, budget[x]-f.Next)
			}
		}
	}
}
