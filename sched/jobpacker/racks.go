package jobpacker

import (
	"slices"
	"sort"
)

// racks is the offline scheduler's picture of the cluster (§4.3.2): for
// every rack, the time T_ik at which each container k finishes its current
// planned task, kept sorted ascending (a sorted slice is also a valid
// min-heap, which the simulations below use).
type racks struct{ free [][]float64 }

func newRacks(containers []int) *racks {
	rs := &racks{free: make([][]float64, len(containers))}
	for r, c := range containers {
		rs.free[r] = make([]float64, c)
	}
	return rs
}

// readyAt is when n containers of rack r are free, not before t: the n-th
// earliest free time (every container's, when n exceeds the rack).
// Racks without containers are never ready.
func (rs *racks) readyAt(free []float64, n int, t float64) float64 {
	if len(free) == 0 {
		return inf
	}
	return max(t, free[min(n, len(free))-1])
}

// earliest picks k racks in order of readyAt for n containers (ties by
// rack index), reading each rack's free times from get.
func (rs *racks) earliest(k, n int, t float64, get func(r int) []float64) []int {
	idx := make([]int, len(rs.free))
	at := make([]float64, len(rs.free))
	for r := range idx {
		idx[r] = r
		at[r] = rs.readyAt(get(r), n, t)
	}
	sort.SliceStable(idx, func(a, b int) bool { return at[idx[a]] < at[idx[b]] })
	out := idx[:min(k, len(idx))]
	for len(out) > 0 && at[out[len(out)-1]] == inf {
		out = out[:len(out)-1]
	}
	return out
}

// run list-schedules n tasks of d seconds, ready at t, on a rack whose
// container free times are the heap free (each task on the container that
// frees first), updating free in place and leaving it sorted. It returns
// the first start and the last finish.
func run(free []float64, n int, d, t float64) (first, last float64) {
	first, last = inf, t
	if len(free) == 0 || n == 0 {
		return t, t
	}
	for range n {
		start := max(t, free[0])
		first = min(first, start)
		free[0] = start + d
		siftDown(free, 0)
		last = max(last, start+d)
	}
	slices.Sort(free)
	return first, last
}

// runPool list-schedules n tasks of d seconds, ready at t, on the
// containers of every rack at once (a task takes whichever container in
// the cluster frees first; ties go to the lower rack): a non-shuffle-heavy
// job's tasks go to "the first available containers" (§4.3.2). It updates
// the racks and returns how many tasks each rack got, the first start per
// rack and the last finish overall.
func (rs *racks) runPool(n int, d, t float64) (count []int, first []float64, last float64) {
	count = make([]int, len(rs.free))
	first = make([]float64, len(rs.free))
	for r := range first {
		first[r] = inf
	}
	last = t
	var h rackHeap
	for r, f := range rs.free {
		if len(f) > 0 {
			h = append(h, rackMin{max(t, f[0]), r})
		}
	}
	if len(h) == 0 {
		return count, first, t
	}
	sort.Slice(h, func(a, b int) bool { return h.less(a, b) })
	for range n {
		r := h[0].rack
		f := rs.free[r]
		start := max(t, f[0])
		f[0] = start + d
		siftDown(f, 0)
		count[r]++
		first[r] = min(first[r], start)
		last = max(last, start+d)
		h[0].at = max(t, f[0])
		h.down(0)
	}
	for r, f := range rs.free {
		if count[r] > 0 {
			slices.Sort(f)
		}
	}
	return count, first, last
}

// siftDown restores the min-heap property of h below i.
func siftDown(h []float64, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			c = r
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// rackMin is a rack's earliest free container in runPool's heap.
type rackMin struct {
	at   float64
	rack int
}

type rackHeap []rackMin

func (h rackHeap) less(a, b int) bool {
	return h[a].at < h[b].at || h[a].at == h[b].at && h[a].rack < h[b].rack
}

func (h rackHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
