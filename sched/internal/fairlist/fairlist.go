// Package fairlist is the fairness order nas and sw-delay share: fewest
// running tasks first, ties by a sequence number (lower first). The list is
// kept sorted as running counts change, instead of sorting every offer.
//
// It is a list of short sorted blocks: finding an item's place is a binary
// search over the blocks and then within one, and moving an item shifts
// one block, so a move costs O(log n + block) however many items share a
// running count (thousands of waiting jobs with none running, where moving
// an item past its equals one place at a time cost O(n)).
//
// What is ordered differs on purpose: nas orders users ("users with less
// resource have higher priority", NAS §III-C), sw-delay orders jobs (delay
// scheduling's job-level fair order). Two orders are deliberately not this
// list: package queue's fairBefore is YARN's FairSharePolicy comparator
// (demand, min shares, weights), evaluated at each offer, and pushbox's
// jobOrder also counts the slots picked earlier in the same pass.
package fairlist

import (
	"iter"
	"slices"
	"sort"
)

// Key is what the order compares. Embed it in the items: the list reads
// and keeps it through the pointer. Seq must be unique within a list.
type Key struct {
	Running int // tasks running now: fewer goes first
	Seq     int // tie-break, lower first: order of first appearance or arrival
	filed   int // Running when the item was last put in its place
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

// filedBefore is Before on the running counts the items were filed under:
// the order the blocks are sorted by, whatever changed since.
func filedBefore(a, b *Key) bool {
	if a.filed != b.filed {
		return a.filed < b.filed
	}
	return a.Seq < b.Seq
}

// maxBlock is the longest block; a longer one is split in two (tests
// lower it to split often).
var maxBlock = 256

// List keeps items in fair order. The zero value is an empty list.
type List[T Item] struct {
	blocks [][]T // each sorted and non-empty, all of one before the next
	n      int
}

// All is the items in fair order. The list must not change during the
// iteration.
func (l *List[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, b := range l.blocks {
			for _, x := range b {
				if !yield(x) {
					return
				}
			}
		}
	}
}

// Len is the number of items.
func (l *List[T]) Len() int { return l.n }

// Add puts x, whose Key is set, in its place.
func (l *List[T]) Add(x T) {
	k := x.fairKey()
	k.filed = k.Running
	l.insert(x)
}

// Moved restores the order after x's Running changed.
func (l *List[T]) Moved(x T) {
	k := x.fairKey()
	if k.filed == k.Running {
		return
	}
	l.Remove(x)
	k.filed = k.Running
	l.insert(x)
}

// Remove takes x out of the list.
func (l *List[T]) Remove(x T) {
	b, i := l.search(x.fairKey())
	if b == len(l.blocks) || l.blocks[b][i].fairKey() != x.fairKey() {
		panic("fairlist: Remove of an item not in the list")
	}
	l.blocks[b] = slices.Delete(l.blocks[b], i, i+1)
	if len(l.blocks[b]) == 0 {
		l.blocks = slices.Delete(l.blocks, b, b+1)
	}
	l.n--
}

// search finds the first filed item not before k: block b (len(blocks)
// when every item is before k) and index i in it.
func (l *List[T]) search(k *Key) (b, i int) {
	b = sort.Search(len(l.blocks), func(b int) bool {
		blk := l.blocks[b]
		return !filedBefore(blk[len(blk)-1].fairKey(), k)
	})
	if b == len(l.blocks) {
		return b, 0
	}
	blk := l.blocks[b]
	return b, sort.Search(len(blk), func(i int) bool { return !filedBefore(blk[i].fairKey(), k) })
}

func (l *List[T]) insert(x T) {
	l.n++
	if len(l.blocks) == 0 {
		l.blocks = append(l.blocks, []T{x})
		return
	}
	b, i := l.search(x.fairKey())
	if b == len(l.blocks) { // after every item: at the end of the last block
		b = len(l.blocks) - 1
		i = len(l.blocks[b])
	}
	blk := slices.Insert(l.blocks[b], i, x)
	if len(blk) <= maxBlock {
		l.blocks[b] = blk
		return
	}
	h := len(blk) / 2
	second := slices.Clone(blk[h:])
	clear(blk[h:])
	l.blocks[b] = blk[:h]
	l.blocks = slices.Insert(l.blocks, b+1, second)
}
