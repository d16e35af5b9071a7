package state

import (
	"math/rand/v2"
	"testing"
)

// IndexSet lists exactly the members a plain []bool holds, in order,
// through adds and removes across word and summary boundaries.
func TestIndexSetMatchesBools(t *testing.T) {
	const n = 64*64*2 + 77
	rng := rand.New(rand.NewPCG(1, 2))
	s := NewIndexSet(n)
	in := make([]bool, n)
	for step := range 20000 {
		i := rng.IntN(n)
		if rng.IntN(3) == 0 {
			s.Remove(i)
			in[i] = false
		} else {
			s.Add(i)
			in[i] = true
		}
		if step%1000 != 0 {
			continue
		}
		var want, got []int
		for k, b := range in {
			if b {
				want = append(want, k)
			}
		}
		for k := s.Next(0); k >= 0; k = s.Next(k + 1) {
			got = append(got, k)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d members listed, want %d", step, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("step %d: member %d is %d, want %d", step, k, got[k], want[k])
			}
		}
	}
	if s.Next(n) != -1 || s.Next(n+1000) != -1 {
		t.Error("Next past the end found a member")
	}
}
