package sim

import (
	"iter"
	"math/bits"
)

// freeSet is the set of machines with a free slot, kept as slots are
// reserved and freed, so that a scheduler looking for free slots visits
// those machines instead of every machine (View.FreeMachines).
type freeSet struct{ words []uint64 }

func (s *freeSet) set(m int, free bool) {
	for m>>6 >= len(s.words) {
		s.words = append(s.words, 0)
	}
	if free {
		s.words[m>>6] |= 1 << (m & 63)
	} else {
		s.words[m>>6] &^= 1 << (m & 63)
	}
}

func (s *freeSet) has(m int) bool {
	return m>>6 < len(s.words) && s.words[m>>6]&(1<<(m&63)) != 0
}

// all is the members in increasing order. Changes made during the
// iteration are seen for the machines not yet reached.
func (s *freeSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w := range s.words {
			above := ^uint64(0) // the bits not yet visited in this word
			for {
				x := s.words[w] & above
				if x == 0 {
					break
				}
				b := bits.TrailingZeros64(x)
				if !yield(w<<6 + b) {
					return
				}
				above = ^uint64(0) << b << 1
			}
		}
	}
}
