package network

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// A flow started between grid points waits for the next one even when
// flows of its route are already running (a bundle with a rate): it must
// not be served, nor load the link, before that grid point. Found while
// documenting Granularity: such a flow joined the running bundle and was
// served at its rate at once, so the link carried more than its capacity
// until the next grid point.
func TestGranularityJoinWaits(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100), Granularity: 1})
	a := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1000})
	wantRate(t, n, a, 100)
	n.AdvanceTo(0.5, nil)
	b := mustStart(t, n, 0.5, FlowSpec{Src: 0, Dst: 1, Size: 1000}) // same route as a
	wantRate(t, n, b, 0)
	wantRate(t, n, a, 100)
	n.AdvanceTo(0.9, nil)
	if r := n.Remaining(b); r != 1000 {
		t.Errorf("b served before its grid point: %v bytes left at 0.9, want 1000", r)
	}
	if s := n.Stats(); !near(s.IntraRackBytes, 90) {
		t.Errorf("bytes at 0.9 = %v, want 90 (a link of 100 B/s for 0.9 s)", s.IntraRackBytes)
	}
	n.AdvanceTo(1, nil)
	wantRate(t, n, a, 50)
	wantRate(t, n, b, 50)
	if r := n.Remaining(b); !near(r, 1000) {
		t.Errorf("b: %v bytes left at 1, want 1000", r)
	}
	// From 1 both at 50: a's 900 bytes end at 19, then b's last 100 at 100 B/s.
	got := runUntil(n, 30)
	wantDone(t, got, map[FlowID]float64{a: 19, b: 20})
	if s := n.Stats(); !near(s.IntraRackBytes, 2000) {
		t.Errorf("bytes %v, want 2000", s.IntraRackBytes)
	}
	// The same through SetClass: a flow moved between grid points to a class
	// whose bundle on its route is running waits too.
	c := mustStart(t, n, 30, FlowSpec{Src: 0, Dst: 2, Size: 1000, Class: 1})
	d := mustStart(t, n, 30, FlowSpec{Src: 0, Dst: 2, Size: 1000})
	n.AdvanceTo(30.5, nil)
	wantRate(t, n, d, 100) // class 0 first
	n.SetClass(30.5, c, 0)
	wantRate(t, n, c, 0)
	wantRate(t, n, d, 100)
	n.AdvanceTo(31, nil)
	wantRate(t, n, c, 50)
	wantRate(t, n, d, 50)
}

// trueLoads is what the groups actually serve on every link now: the rate
// of each bundle's group times its flows, over its route.
func trueLoads(n *Network) []float64 {
	out := make([]float64, len(n.links))
	for _, b := range n.all {
		if b.g == nil {
			continue
		}
		for _, l := range b.links() {
			out[l] += b.g.rate * b.nf
		}
	}
	return out
}

// With a Granularity, random starts, cancels and class changes at random
// times, on and off the grid, never make a link carry more than its
// capacity between grid points, and every flow's bytes are served once.
func TestGranularityFeasible(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := mustNew(t, Config{Kind: TwoTier, Machines: machines(8, 4, 100), Oversubscription: 2, Granularity: 0.5})
		var ids []FlowID
		now := 0.0
		var sizes float64
		done := 0.0
		cb := func(c Completion) { done += c.Size }
		for op := 0; op < 300; op++ {
			now += rng.ExpFloat64() * 0.3
			n.AdvanceTo(now, cb)
			switch k := rng.IntN(10); {
			case k < 7 || len(ids) == 0:
				src, dst := rng.IntN(8), rng.IntN(8)
				if src == dst {
					continue
				}
				size := 1 + rng.Float64()*200
				ids = append(ids, mustStart(t, n, now, FlowSpec{Src: src, Dst: dst, Size: size, Class: rng.IntN(2)}))
				sizes += size
			case k < 8:
				i := rng.IntN(len(ids))
				sizes -= n.Remaining(ids[i])
				n.Cancel(now, ids[i])
			default:
				n.SetClass(now, ids[rng.IntN(len(ids))], rng.IntN(2))
			}
			n.NextEvent() // (allocates if on the grid)
			for l, v := range trueLoads(n) {
				if c := n.links[l].cap; v > c*(1+1e-9) {
					t.Fatalf("seed %d op %d t=%v: link %s carries %v > capacity %v", seed, op, now, n.links[l].name, v, c)
				}
			}
		}
		for n.ActiveFlows() > 0 {
			n.AdvanceTo(n.NextEvent(), cb)
		}
		_ = done
		s := n.Stats()
		if got := s.IntraRackBytes + s.CrossRackBytes; math.Abs(got-sizes) > 1e-6*sizes {
			t.Errorf("seed %d: %v bytes carried, want %v (sizes less the cancelled remainders)", seed, got, sizes)
		}
	}
}

// A caller's time within the tolerance before a grid point, and a flow
// whose exact end is within the tolerance after it (so it is due at the
// grid point) but past the caller's time's horizon: the flow completes at
// the caller's time (advance used to return to the grid point forever,
// with nothing due at the caller's time).
func TestGranularityCompletionJustBeforeGridPoint(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(2, 2, 100), Granularity: 1})
	mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100 * (1 + 0.8*timeTol(1))}) // exact end 1 + 0.8e-11 s
	if te := n.NextEvent(); te != 1 {
		t.Fatalf("next event %v, want the grid point 1", te)
	}
	at := 1 - 0.5*timeTol(1) // within the tolerance before 1; its horizon ends before the flow
	done := make(chan []Completion, 1)
	go func() {
		var got []Completion
		n.AdvanceTo(at, func(c Completion) { got = append(got, c) })
		done <- got
	}()
	select {
	case got := <-done:
		if len(got) != 1 || got[0].Time != at {
			t.Errorf("completions %v, want the flow at %v", got, at)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("AdvanceTo does not return: it loops at the grid point")
	}
}
