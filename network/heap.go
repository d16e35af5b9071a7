package network

// eventHeap orders bundles by their next completion time (ties: creation
// order). Bundles store their index, so a changed time is an O(log B) fix.
type eventHeap []*bundle

func eventLess(a, b *bundle) bool {
	if a.next != b.next {
		return a.next < b.next
	}
	return a.seq < b.seq
}

// set inserts, moves or (for next = Inf) removes b.
func (h *eventHeap) set(b *bundle) {
	switch {
	case b.hidx < 0 && b.next < Inf:
		b.hidx = len(*h)
		*h = append(*h, b)
		h.up(b.hidx)
	case b.hidx >= 0 && b.next == Inf:
		h.remove(b)
	case b.hidx >= 0:
		if !h.down(b.hidx) {
			h.up(b.hidx)
		}
	}
}

func (h *eventHeap) remove(b *bundle) {
	s := *h
	i, last := b.hidx, len(s)-1
	if i != last {
		s[i] = s[last]
		s[i].hidx = i
	}
	s[last] = nil
	*h = s[:last]
	if i != last {
		if !h.down(i) {
			h.up(i)
		}
	}
	b.hidx = -1
}

func (h eventHeap) top() *bundle {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}

func (h eventHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !eventLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		h[i].hidx, h[p].hidx = i, p
		i = p
	}
}

func (h eventHeap) down(i int) bool {
	start := i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && eventLess(h[c+1], h[c]) {
			c++
		}
		if !eventLess(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		h[i].hidx, h[c].hidx = i, c
		i = c
	}
	return i > start
}

// levelHeap orders the links of one water-filling pass by the per-flow level
// at which they saturate (ties: link index, for determinism).
type levelHeap struct {
	links []link
	h     []int32
}

func (q *levelHeap) less(a, b int32) bool {
	la, lb := q.links[a].level, q.links[b].level
	if la != lb {
		return la < lb
	}
	return a < b
}

func (q *levelHeap) swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.links[q.h[i]].hidx, q.links[q.h[j]].hidx = i, j
}

func (q *levelHeap) push(l int32) {
	q.links[l].hidx = len(q.h)
	q.h = append(q.h, l)
	q.up(len(q.h) - 1)
}

func (q *levelHeap) pop() int32 {
	l := q.h[0]
	q.removeAt(0)
	return l
}

func (q *levelHeap) removeAt(i int) {
	last := len(q.h) - 1
	l := q.h[i]
	if i != last {
		q.swap(i, last)
	}
	q.h = q.h[:last]
	q.links[l].hidx = -1
	if i != last {
		if !q.down(i) {
			q.up(i)
		}
	}
}

// fix restores order after links[l].level changed.
func (q *levelHeap) fix(l int32) {
	i := q.links[l].hidx
	if !q.down(i) {
		q.up(i)
	}
}

func (q *levelHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(q.h[i], q.h[p]) {
			break
		}
		q.swap(i, p)
		i = p
	}
}

func (q *levelHeap) down(i int) bool {
	start := i
	n := len(q.h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q.less(q.h[c+1], q.h[c]) {
			c++
		}
		if !q.less(q.h[c], q.h[i]) {
			break
		}
		q.swap(i, c)
		i = c
	}
	return i > start
}
