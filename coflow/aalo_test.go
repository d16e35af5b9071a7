package coflow

import "testing"

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
