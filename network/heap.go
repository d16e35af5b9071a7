package network

// eventHeap orders groups by their next completion time (ties: creation
// order). It is 4-ary and keeps the keys inline, so a fix touches few cache
// lines; groups store their index.
//
// Keys are lower bounds: a completion that moves later (the group slowed
// down) leaves its key alone and is corrected only if it reaches the top,
// so half of all rate changes cost no heap work. A completion that moves
// earlier sifts up at once.
type eventHeap []eventEntry

type eventEntry struct {
	next float64
	seq  uint64
	b    *group
}

func (e *eventEntry) less(o *eventEntry) bool {
	if e.next != o.next {
		return e.next < o.next
	}
	return e.seq < o.seq
}

// set records that g.next changed.
func (h *eventHeap) set(b *group) {
	switch {
	case b.hidx < 0 && b.next < Inf:
		b.hidx, b.hkey = len(*h), b.next
		*h = append(*h, eventEntry{b.next, b.seq, b})
		h.up(b.hidx)
	case b.hidx >= 0 && b.next < b.hkey: // (a later one keeps its key)
		(*h)[b.hidx].next, b.hkey = b.next, b.next
		h.up(b.hidx)
	}
}

func (h *eventHeap) remove(b *group) {
	s := *h
	i, last := b.hidx, len(s)-1
	if i != last {
		s[i] = s[last]
		s[i].b.hidx = i
	}
	s[last] = eventEntry{}
	*h = s[:last]
	if i != last {
		if !h.down(i) {
			h.up(i)
		}
	}
	b.hidx = -1
}

// top returns the group with the earliest completion, after correcting
// stale keys that reached the top.
func (h *eventHeap) top() *group {
	for len(*h) > 0 {
		e := &(*h)[0]
		if e.b.next == e.next {
			return e.b
		}
		if e.b.next == Inf {
			h.remove(e.b)
			continue
		}
		e.next, e.b.hkey = e.b.next, e.b.next
		h.down(0)
	}
	return nil
}

func (h eventHeap) up(i int) {
	e := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		h[i].b.hidx = i
		i = p
	}
	h[i] = e
	e.b.hidx = i
}

func (h eventHeap) down(i int) bool {
	start := i
	e := h[i]
	n := len(h)
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < n; k++ {
			if h[k].less(&h[m]) {
				m = k
			}
		}
		if !h[m].less(&e) {
			break
		}
		h[i] = h[m]
		h[i].b.hidx = i
		i = m
	}
	h[i] = e
	e.b.hidx = i
	return i > start
}

// levelHeap orders the links of one water-filling pass by the per-flow level
// at which they saturate (ties: link index, for determinism). Keys live
// inline and the heap is 4-ary: scanning it touches few cache lines. Only
// the top is ever read or changed, so links need not know their position.
type levelHeap []levelEntry

type levelEntry struct {
	level float64
	l     int32
}

func (e levelEntry) less(o levelEntry) bool {
	if e.level != o.level {
		return e.level < o.level
	}
	return e.l < o.l
}

// heapify orders entries appended in any order: O(len).
func (q levelHeap) heapify() {
	if len(q) < 2 {
		return
	}
	for i := (len(q) - 2) / 4; i >= 0; i-- {
		q.down(i)
	}
}

// pop removes the top.
func (q *levelHeap) pop() {
	h := *q
	last := len(h) - 1
	h[0] = h[last]
	*q = h[:last]
	if last > 0 {
		q.down(0)
	}
}

func (q levelHeap) down(i int) {
	e := q[i]
	n := len(q)
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < n; k++ {
			if q[k].less(q[m]) {
				m = k
			}
		}
		if !q[m].less(e) {
			break
		}
		q[i] = q[m]
		i = m
	}
	q[i] = e
}

func (q levelHeap) up(i int) {
	e := q[i]
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(q[p]) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
}
