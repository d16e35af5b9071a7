package queue

import "math"

// share is what the YARN policy comparators (§1.5) look at, in slots.
type share struct {
	usage, demand float64
	minShare      float64
	weight        float64
	start         float64
	name          string // queues: their path
	seq           int    // apps: submission order, YARN's application id
}

// fairBefore is FairSharePolicy's comparator: demand before no demand, needy
// (below min share) first, then least usage per weight, then earlier start,
// then name. Each step decides only when the previous ones tie, as in YARN.
// (nas and sw-delay use fairlist instead: fewest running only, no weights.)
func fairBefore(a, b share) bool {
	if (a.demand > 0) != (b.demand > 0) {
		return a.demand > 0
	}
	minA, minB := math.Min(a.minShare, a.demand), math.Min(b.minShare, b.demand)
	needyA, needyB := a.usage < minA, b.usage < minB
	if needyA != needyB {
		return needyA
	}
	if needyA {
		ra, rb := a.usage/math.Max(minA, 1), b.usage/math.Max(minB, 1)
		if ra != rb {
			return ra < rb
		}
	}
	switch {
	case a.weight == 0 && b.weight == 0:
		if a.usage != b.usage {
			return a.usage < b.usage
		}
	case a.weight == 0 || b.weight == 0:
		return b.weight == 0
	default:
		ra, rb := a.usage/a.weight, b.usage/b.weight
		if ra != rb {
			return ra < rb
		}
	}
	return fifoBefore(a, b)
}

// fifoBefore is FifoPolicy's comparator (all priorities equal): earlier
// start, then name, then submission order.
func fifoBefore(a, b share) bool {
	if a.start != b.start {
		return a.start < b.start
	}
	if a.name != b.name {
		return a.name < b.name
	}
	return a.seq < b.seq
}

// bestFirst calls fn on items best first (by less) until fn returns true.
// Items form a heap that is popped lazily, so an offer taken by the first
// candidate costs O(n) rather than a sort. items is reordered.
func bestFirst[T any](items []T, less func(a, b T) bool, fn func(T) bool) {
	n := len(items)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(items, i, n, less)
	}
	for n > 0 {
		top := items[0]
		n--
		items[0] = items[n]
		siftDown(items, 0, n, less)
		if fn(top) {
			return
		}
	}
}

func siftDown[T any](h []T, i, n int, less func(a, b T) bool) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && less(h[c+1], h[c]) {
			c++
		}
		if !less(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
