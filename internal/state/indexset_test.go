package state

import (
	"fmt"
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

// An IndexSet grows as larger members are added (the engine's waiting jobs
// are numbered by arrival, without a bound known in advance), and removing
// a member it never had is a no-op.
func TestIndexSetGrows(t *testing.T) {
	var s IndexSet
	s.Remove(5000)
	for _, i := range []int{3, 70, 4100, 300_000} {
		s.Add(i)
	}
	s.Remove(70)
	var got []int
	for i := s.Next(0); i >= 0; i = s.Next(i + 1) {
		got = append(got, i)
	}
	if fmt.Sprint(got) != "[3 4100 300000]" {
		t.Errorf("members %v, want [3 4100 300000]", got)
	}
}
