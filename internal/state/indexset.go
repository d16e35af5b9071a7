package state

import "math/bits"

// IndexSet is a set of small non-negative integers (a job's stage indexes,
// the engine's jobs with waiting tasks by arrival number) listed in
// increasing order; it grows as larger members are added. A bit per index and a summary bit per word of
// 64 find the next member past a run of absent ones in a few word reads,
// so a job of 200,000 stages with few of them waiting is not scanned whole
// on every slot offer.
type IndexSet struct {
	words   []uint64 // bit i%64 of words[i/64]: i is a member
	summary []uint64 // bit w%64 of summary[w/64]: words[w] != 0
}

// NewIndexSet is an empty set for indexes 0..n-1.
func NewIndexSet(n int) IndexSet {
	w := (n + 63) / 64
	return IndexSet{words: make([]uint64, w), summary: make([]uint64, (w+63)/64)}
}

// Add puts i in the set.
func (s *IndexSet) Add(i int) {
	w := i / 64
	for w >= len(s.words) {
		s.words = append(s.words, 0)
	}
	for w/64 >= len(s.summary) {
		s.summary = append(s.summary, 0)
	}
	s.words[w] |= 1 << (i % 64)
	s.summary[w/64] |= 1 << (w % 64)
}

// Remove takes i out of the set.
func (s *IndexSet) Remove(i int) {
	w := i / 64
	if w >= len(s.words) {
		return
	}
	s.words[w] &^= 1 << (i % 64)
	if s.words[w] == 0 {
		s.summary[w/64] &^= 1 << (w % 64)
	}
}

// Next is the smallest member >= i, or -1.
func (s *IndexSet) Next(i int) int {
	if i < 0 {
		i = 0
	}
	w := i / 64
	if w >= len(s.words) {
		return -1
	}
	if rest := s.words[w] >> (i % 64); rest != 0 {
		return i + bits.TrailingZeros64(rest)
	}
	w = s.nextWord(w + 1)
	if w < 0 {
		return -1
	}
	return w*64 + bits.TrailingZeros64(s.words[w])
}

// nextWord is the first non-empty word at or after w, or -1.
func (s *IndexSet) nextWord(w int) int {
	for sw := w / 64; sw < len(s.summary); sw++ {
		rest := s.summary[sw]
		if sw == w/64 {
			rest &^= 1<<(w%64) - 1 // words before w
		}
		if rest != 0 {
			return sw*64 + bits.TrailingZeros64(rest)
		}
	}
	return -1
}
