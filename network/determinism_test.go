package network

import (
	"math/rand/v2"
	"testing"
)

// randomRun drives a two-tier network with a seeded random mix of starts,
// class changes and cancels and returns every completion.
func randomRun(t *testing.T, seed uint64) []Completion {
	n := mustNew(t, Config{Kind: TwoTier, Machines: machines(40, 8, 100), Oversubscription: 3})
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Completion
	var ids []FlowID
	now := 0.0
	for range 400 {
		now += rng.ExpFloat64() * 0.05
		n.AdvanceTo(now, func(c Completion) { out = append(out, c) })
		s, d := rng.IntN(40), rng.IntN(39)
		if d >= s {
			d++
		}
		id := mustStart(t, n, now, FlowSpec{Src: s, Dst: d, Size: 1 + rng.Float64()*50, Class: rng.IntN(3)})
		ids = append(ids, id)
		switch rng.IntN(6) {
		case 0:
			n.Cancel(now, ids[rng.IntN(len(ids))])
		case 1:
			n.SetClass(now, ids[rng.IntN(len(ids))], rng.IntN(3))
		}
	}
	return append(out, runUntil(n, 1e9)...)
}

func TestDeterministic(t *testing.T) {
	a, b := randomRun(t, 42), randomRun(t, 42)
	if len(a) != len(b) || len(a) < 300 {
		t.Fatalf("runs differ in length: %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("completion %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

// A mutation at a later time than the network's clock processes the events
// in between first; their completions come with the next AdvanceTo, before
// later ones.
func TestMutationMovesTime(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	a := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100}) // ends at 1
	b := mustStart(t, n, 2, FlowSpec{Src: 0, Dst: 2, Size: 100}) // starts at 2, ends at 3
	if n.Now() != 2 || n.ActiveFlows() != 1 {
		t.Fatalf("now %v, %d active flows; want 2 and 1", n.Now(), n.ActiveFlows())
	}
	got := runUntil(n, 10)
	wantDone(t, got, map[FlowID]float64{a: 1, b: 3})
}
