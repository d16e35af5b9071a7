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

// A coflow's sent bytes are tracked between reallocations; the crossing
// bound assumes the current sending rate, and a flow finishing pushes it
// back. Q0's limit is 10, Q1's 100. At t = 100 the coflow has sent 4 of 18
// and sends with
//
//	f1: 2 left at rate 2
//	f2: 8 left at rate 1
//
// so the bound is 100 + 6/3 = 102. f1 finishes at 101 (sent 7): the bound
// becomes 101 + 3/1 = 104, when it reaches 10 and moves to Q1; the next
// bound is 104 + 90/1 = 194.
func TestAaloCrossing(t *testing.T) {
	p := newAalo(Options{AaloQueues: 3, AaloFirstLimit: 10, AaloMultiplier: 10}, 4)
	c := &coflowState{netBytes: 18, flows: []flowState{
		{rem: 2, rate: 2},
		{rem: 8, rate: 1},
		{rem: 0, rate: 5, done: true},
		{rem: 4, rate: 0}, // stalled: adds nothing
	}}
	active := []*coflowState{c}
	p.resync(100, active)
	if c.sent0 != 4 || c.sendRate != 3 {
		t.Fatalf("sent %v rate %v, want 4 and 3", c.sent0, c.sendRate)
	}
	if got := p.nextCrossing(active); got != 102 {
		t.Errorf("bound = %v, want 102", got)
	}
	p.rateChanged(c, 2, 0, 101)
	if got := p.crossing(c); got != 104 {
		t.Errorf("bound after f1 = %v, want 104", got)
	}
	if p.requeue(103.9, active) || c.queue != 0 {
		t.Errorf("moved at 103.9 (sent %v)", c.sent0)
	}
	if !p.requeue(104, active) || c.queue != 1 {
		t.Errorf("not moved at 104 (sent %v)", c.sent0)
	}
	if got := p.crossing(c); got != 194 {
		t.Errorf("Q1 bound = %v, want 194", got)
	}
	// The last queue has no limit; a coflow that sends nothing never crosses.
	c.queue = 2
	if got := p.crossing(c); !math.IsInf(got, 1) {
		t.Errorf("last queue: bound = %v", got)
	}
	c.queue, c.sendRate = 0, 0
	if got := p.crossing(c); !math.IsInf(got, 1) {
		t.Errorf("no rate: bound = %v", got)
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
