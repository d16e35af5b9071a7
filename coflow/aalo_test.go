package coflow

import (
	"math"
	"testing"
)

func TestAaloQueueFor(t *testing.T) {
	p := newAalo(Options{AaloQueues: 10, AaloFirstLimit: 10 * mib, AaloMultiplier: 10}, 1)
	cases := []struct {
		sent float64
		q    int
	}{
		{0, 0}, {10*mib - 1, 0}, {10 * mib, 1}, {99 * mib, 1}, {100 * mib, 2},
		{1e4 * mib, 4}, {0.99e9 * mib, 8}, {1e9 * mib, 9}, {1e15 * mib, 9},
	}
	for _, c := range cases {
		if got := p.queueFor(c.sent); got != c.q {
			t.Errorf("queueFor(%v MiB) = %d, want %d", c.sent/mib, got, c.q)
		}
	}
}

// nextCrossing accounts for flows that finish before the limit is reached.
// A coflow in Q0 (limit 10) has sent 4 (of 2 + 12 + 4 = 18) at t = 100 and
// sends with
//
//	f1: 2 left at rate 2 (ends after 1 s)
//	f2: 8 left at rate 1
//
// sent(t) rises at 3/s for 1 s (to 7), then at 1/s: it reaches 10 after
// 1 + 3 = 4 s, at t = 104.
func TestAaloNextCrossing(t *testing.T) {
	p := newAalo(Options{AaloQueues: 3, AaloFirstLimit: 10, AaloMultiplier: 10}, 4)
	c := &coflowState{netBytes: 18, flows: []flowState{
		{rem: 2, rate: 2},
		{rem: 8, rate: 1},
		{rem: 0, rate: 5, done: true},
		{rem: 4, rate: 0}, // stalled: adds nothing
	}}
	if s := sent(c); s != 4 {
		t.Fatalf("sent = %v, want 4", s)
	}
	if got := p.nextCrossing(100, []*coflowState{c}); got != 104 {
		t.Errorf("nextCrossing = %v, want 104", got)
	}
	// If the flows end before reaching the limit there is no crossing.
	c.flows[1].rem = 2
	c.netBytes = 12
	if got := p.nextCrossing(100, []*coflowState{c}); !math.IsInf(got, 1) {
		t.Errorf("nextCrossing = %v, want +Inf", got)
	}
	// The last queue has no limit.
	c.queue = 2
	if got := p.nextCrossing(100, []*coflowState{c}); !math.IsInf(got, 1) {
		t.Errorf("last queue: nextCrossing = %v, want +Inf", got)
	}
}

// Aalo on a hand case, 1 MiB/s ports, first limit 10 MiB:
//
//	A: 0->1 30 MiB, arrives at 0
//	B: 2->1  3 MiB, arrives at 5 s
//
// Strict priority: A is alone until 5 s (5 MiB sent). B joins Q0 behind A
// (FIFO), and A keeps down1. At 10 s A has sent 10 MiB and drops to Q1: B
// now has priority and takes down1 for 3 s, ending at 13 (CCT 8). A sends
// its last 20 MiB from 13 to 33 (CCT 33).
//
// Weighted (weight K-q: Q0 10, Q1 9): until 10 s as above; then down1 is
// split 10/19 to B and 9/19 to A. B's 3 MiB take 5.7 s: it ends at 15.7
// (CCT 10.7). down1 never idles, so A ends when all 33 MiB are through: 33.
//
// fifo keeps A first: A ends at 30, B at 33 (CCT 28).
func TestAaloHandCase(t *testing.T) {
	tr := parseTrace(t, 3,
		"A 0 1 0 1 1:30",
		"B 5000 1 2 1 1:3",
	)
	checkCCTs(t, replay(t, tr, Options{Policy: Aalo, PortSpeed: mib}), 33, 8)
	checkCCTs(t, replay(t, tr, Options{Policy: Aalo, PortSpeed: mib, AaloWeighted: true}), 33, 10.7)
	checkCCTs(t, replay(t, tr, Options{Policy: FIFO, PortSpeed: mib}), 30, 28)
	// A larger first limit keeps both in Q0 throughout: FIFO, like fifo.
	checkCCTs(t, replay(t, tr, Options{Policy: Aalo, PortSpeed: mib, AaloFirstLimit: 64 * mib}), 30, 28)
}

// CoflowSim's per-coflow rule splits a port evenly between a coflow's own
// flows, and the backfill hands out what the rule left. At 1 MiB/s:
//
//	A: mappers {0,1}, reducer 2:4 MiB -> 0->2 2, 1->2 2 (down2 split: 1/2 each)
//	B: mappers {0}, reducer 3:1 MiB   -> 0->3 1
//
// Both in Q0, A first: A's flows get min(up/1, down2/2) = 1/2 each; B gets
// min(up0 1/2, down3 1) = 1/2. Nothing is left to backfill. B ends at 2 s;
// A's flows at 4 s. Limits (10 MiB) are never reached.
func TestAaloSplitRule(t *testing.T) {
	tr := parseTrace(t, 4,
		"A 0 2 0 1 1 2:4",
		"B 0 1 0 1 3:1",
	)
	checkCCTs(t, replay(t, tr, Options{Policy: Aalo, PortSpeed: mib}), 4, 2)
}
