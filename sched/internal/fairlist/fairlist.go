// Package fairlist is the fairness order nas and sw-delay share: fewest
// running tasks first, ties by a sequence number (lower first). Running
// counts move by one at each task start or finish, so the list stays
// sorted by moving one item a few places instead of sorting every offer.
//
// What is ordered differs on purpose: nas orders users ("users with less
// resource have higher priority", NAS §III-C), sw-delay orders jobs (delay
// scheduling's job-level fair order). Two orders are deliberately not this
// list: package queue's fairBefore is YARN's FairSharePolicy comparator
// (demand, min shares, weights), evaluated at each offer, and pushbox's
// jobOrder also counts the slots picked earlier in the same pass.
package fairlist

import "slices"

// Key is what the order compares. Embed it in the items: the list reads
// and keeps it through the pointer.
type Key struct {
	Running int // tasks running now: fewer goes first
	Seq     int // tie-break, lower first: order of first appearance or arrival
	pos     int // index in the list
}

func (k *Key) fairKey() *Key { return k }

// Item is a pointer to a struct that embeds Key.
type Item interface{ fairKey() *Key }

// Before reports whether a goes before b: fewer running tasks, then the
// lower Seq.
func Before(a, b *Key) bool {
	if a.Running != b.Running {
		return a.Running < b.Running
	}
	return a.Seq < b.Seq
}

// List keeps items in fair order. The zero value is an empty list.
type List[T Item] struct{ items []T }

// All is the items in fair order; valid until the list next changes.
func (l *List[T]) All() []T { return l.items }

// Len is the number of items.
func (l *List[T]) Len() int { return len(l.items) }

// Add puts x, whose Key is set, in its place.
func (l *List[T]) Add(x T) {
	x.fairKey().pos = len(l.items)
	l.items = append(l.items, x)
	l.Moved(x)
}

// Moved restores the order after x's Key changed (by one running task: x
// moves a few places).
func (l *List[T]) Moved(x T) {
	o := l.items
	k := x.fairKey()
	i := k.pos
	for i > 0 && Before(k, o[i-1].fairKey()) {
		o[i] = o[i-1]
		o[i].fairKey().pos = i
		i--
	}
	for i+1 < len(o) && Before(o[i+1].fairKey(), k) {
		o[i] = o[i+1]
		o[i].fairKey().pos = i
		i++
	}
	o[i] = x
	k.pos = i
}

// Remove takes x out of the list.
func (l *List[T]) Remove(x T) {
	i := x.fairKey().pos
	l.items = slices.Delete(l.items, i, i+1)
	for ; i < len(l.items); i++ {
		l.items[i].fairKey().pos = i
	}
}
