package coflow

import (
	"reflect"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// The CoflowSim approximations on hand cases at 1 MiB/s ports (MiB read as
// seconds); each option changes a CCT by the amount computed in the comment.

// MergeRackFlows. A: mapper 0, two reducers on port 1 with 2 MiB each; B:
// 0->2 4 MiB. Exact (fair): up0 carries 0->1, 0->1, 0->2 at 1/3 each; A's
// two 2 MiB flows end at 6 = CCT_A; B has 2 MiB left and ends at 8. Merged,
// A is one 4 MiB flow 0->1: up0 is split in two and both end at 8.
func TestMergeRackFlows(t *testing.T) {
	tr := parseTrace(t, 3, "A 0 1 0 2 1:2 1:2", "B 0 1 0 1 2:4")
	exact := replay(t, tr, Options{Policy: Fair, PortSpeed: mib})
	checkCCTs(t, exact, 6, 8)
	merged := replay(t, tr, Options{Policy: Fair, PortSpeed: mib, MergeRackFlows: true})
	checkCCTs(t, merged, 8, 8)
	if exact.Coflows[0].Width != 2 || merged.Coflows[0].Width != 1 || !merged.Summary.MergeRackFlows {
		t.Errorf("widths %d, %d (want 2, 1); summary %+v", exact.Coflows[0].Width, merged.Coflows[0].Width, merged.Summary)
	}
}

// MinFlow and RoundFlows. A: mapper 0, reducers 1:0.5 and 2:0: one flow 0->1
// of 0.5 MiB (the zero share is no flow): CCT 0.5. With a 1 MiB minimum the
// flows 0->1 and 0->2 are 1 MiB each and share up0: CCT 2. B: mappers {0,1},
// reducer 2:3: flows 0->2 and 1->2 of 1.5 MiB share down2: CCT 3; the 1 MiB
// minimum leaves them, rounding up to whole MiB makes them 2 MiB: CCT 4.
func TestMinAndRoundFlows(t *testing.T) {
	a := parseTrace(t, 3, "A 0 1 0 2 1:0.5 2:0")
	b := parseTrace(t, 3, "B 0 2 0 1 1 2:3")
	for _, p := range []string{Fair, SEBF, Aalo} {
		checkCCTs(t, replay(t, a, Options{Policy: p, PortSpeed: mib}), 0.5)
		checkCCTs(t, replay(t, a, Options{Policy: p, PortSpeed: mib, MinFlow: mib}), 2)
		checkCCTs(t, replay(t, a, Options{Policy: p, PortSpeed: mib, RoundFlows: mib}), 1) // 0.5 -> 1; the zero share stays no flow
		checkCCTs(t, replay(t, b, Options{Policy: p, PortSpeed: mib}), 3)
		checkCCTs(t, replay(t, b, Options{Policy: p, PortSpeed: mib, MinFlow: mib}), 3)
		checkCCTs(t, replay(t, b, Options{Policy: p, PortSpeed: mib, RoundFlows: mib}), 4)
	}
	res := replay(t, a, Options{Policy: Fair, PortSpeed: mib, MinFlow: mib})
	if s := res.Summary; s.NetworkBytes != 2*mib || s.MinFlow != mib || res.Coflows[0].Bytes != 0.5*mib {
		t.Errorf("network bytes %v (want 2 MiB), min_flow %v, coflow bytes %v (the trace's 0.5 MiB)", s.NetworkBytes, s.MinFlow, res.Coflows[0].Bytes)
	}
}

// SamePortFlows. A: mappers {0,1}, reducer 1:4: 0->1 2 MiB, and 1->1 local:
// CCT 2. As CoflowSim, 1->1 is a flow through up1 and down1: down1 carries
// 4 MiB, CCT 4 (MADD's bottleneck for sebf, 1/2 each for fair and aalo). B:
// 1->2 2 MiB at the same time, alone on up1 in the exact model (CCT 2),
// shares up1 with 1->1: fair gives every flow 1/2 (up1 and down1 each carry
// two), so all three end at 4: CCT_B = 4.
func TestSamePortFlows(t *testing.T) {
	tr := parseTrace(t, 3, "A 0 2 0 1 1 1:4", "B 0 1 1 1 2:2")
	checkCCTs(t, replay(t, tr, Options{Policy: Fair, PortSpeed: mib}), 2, 2)
	checkCCTs(t, replay(t, tr, Options{Policy: Fair, PortSpeed: mib, SamePortFlows: true}), 4, 4)
	for _, p := range []string{SEBF, Aalo} {
		res := replay(t, tr, Options{Policy: p, PortSpeed: mib, SamePortFlows: true})
		if got := res.Coflows[0].CCT; !near(got, 4) {
			t.Errorf("%s: CCT_A = %v, want 4", p, got)
		}
		if w := res.Coflows[0].Width; w != 2 {
			t.Errorf("%s: width %d, want 2", p, w)
		}
	}
	flows, local := buildFlows(&tr.Coflows[0], flowModel{samePort: true})
	if want := []flowSpec{{0, 1, 2 * mib}, {1, 1, 2 * mib}}; !reflect.DeepEqual(flows, want) || local != 0 {
		t.Errorf("flows %+v local %v, want %+v and 0", flows, local, want)
	}
}

// TimeStep 0.25 s. A: 0->1 0.9 MiB at 0; B: 0->2 0.5 MiB at 100 ms.
//
// Exact, fair: A alone until 0.1 (0.8 left), then 1/2 each: B ends at 1.1
// (CCT 1.0), A has 0.3 left and ends at 1.4. Stepped: B starts at 0.25 (A
// has 0.65 left); 1/2 each until B runs out at 1.25, a step: CCT_B = 1.15;
// A has 0.15 left, runs out at 1.4 and finishes at the step 1.5.
//
// Exact, sebf: B (0.5 left) before A (0.8): B alone on up0 from 0.1 to 0.6
// (CCT 0.5), A from 0.6 to 1.4. Stepped: B from 0.25 to 0.75 (CCT 0.65), A
// runs out at 1.4 and finishes at 1.5.
func TestTimeStep(t *testing.T) {
	tr := parseTrace(t, 3, "A 0 1 0 1 1:0.9", "B 100 1 0 1 2:0.5")
	checkCCTs(t, replay(t, tr, Options{Policy: Fair, PortSpeed: mib}), 1.4, 1.0)
	checkCCTs(t, replay(t, tr, Options{Policy: Fair, PortSpeed: mib, TimeStep: 0.25}), 1.5, 1.15)
	checkCCTs(t, replay(t, tr, Options{Policy: SEBF, PortSpeed: mib}), 1.4, 0.5)
	checkCCTs(t, replay(t, tr, Options{Policy: SEBF, PortSpeed: mib, TimeStep: 0.25}), 1.5, 0.65)
	res := replay(t, tr, Options{Policy: Aalo, PortSpeed: mib, TimeStep: 0.25})
	for _, r := range res.Coflows {
		if k := r.Finish / 0.25; !near(k, float64(int(k+0.5))) {
			t.Errorf("aalo: coflow %s finished at %v, not on a step", r.ID, r.Finish)
		}
	}
	if res.Summary.TimeStep != 0.25 {
		t.Errorf("summary time_step %v", res.Summary.TimeStep)
	}
}

// Aalo's queue changes wait for the next step. A: 0->1 3 MiB at 0; B: 0->2
// 3 MiB at 0; first limit 1 MiB. FIFO in Q0: A takes up0 and reaches 1 MiB
// at 1 (Q1); then B runs and reaches it at 2 (Q1); FIFO in Q1: A (2 MiB
// left) ends at 4, then B at 6. With a 1.5 s step A's crossing is seen at
// 1.5 (1.5 MiB sent), B runs from 1.5 and its crossing at 2.5 is seen at 3
// (1.5 MiB sent); then A runs from 3 to 4.5 and B from 4.5 to 6.
func TestTimeStepAaloQueues(t *testing.T) {
	tr := parseTrace(t, 3, "A 0 1 0 1 1:3", "B 0 1 0 1 2:3")
	opt := Options{Policy: Aalo, PortSpeed: mib, AaloFirstLimit: mib}
	checkCCTs(t, replay(t, tr, opt), 4, 6)
	opt.TimeStep = 1.5
	checkCCTs(t, replay(t, tr, opt), 4.5, 6)
}

func TestApproximationsBadOptions(t *testing.T) {
	tr := &coflowbench.Trace{Ports: 2, Coflows: []coflowbench.Coflow{{ID: "a", Mappers: []int{0}, Reducers: []coflowbench.Reducer{{Port: 1, Bytes: mib}}}}}
	for _, opt := range []Options{
		{Policy: Fair, MinFlow: -1}, {Policy: Fair, RoundFlows: -1}, {Policy: Fair, TimeStep: -0.1},
	} {
		if _, err := Replay(tr, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

// AaloNoBackfill. A: 1->3 and 1->4, 0.5 MiB each; B (after A in Q0):
// 0->2 and 1->2, 1 MiB each. The split gives A 1/2 and 1/2 (up1 full) and
// B's 0->2 min(up0 1, down2 1/2) = 1/2, 1->2 nothing (up1 full).
//
// Default: the backfill raises 0->2 to 1; it ends at 1 with A, and 1->2
// runs alone from 1 to 2: CCT_B = 2.
//
// AaloNoBackfill: 0->2 stays at 1/2. At 1 A departs: the split gives 0->2
// (0.5 left) and 1->2 1/2 each; 0->2 ends at 2 and its bandwidth goes to
// 1->2 (0.5 left) at its ports: 1->2 ends at 2.5. With IdleFreedBandwidth as
// well it stays at 1/2 and ends at 3.
func TestAaloNoBackfill(t *testing.T) {
	tr := parseTrace(t, 5, "A 0 1 1 2 3:0.5 4:0.5", "B 0 2 0 1 1 2:2")
	opt := Options{Policy: Aalo, PortSpeed: mib}
	checkCCTs(t, replay(t, tr, opt), 1, 2)
	opt.AaloNoBackfill = true
	checkCCTs(t, replay(t, tr, opt), 1, 2.5)
	opt.IdleFreedBandwidth = true
	checkCCTs(t, replay(t, tr, opt), 1, 3)
	opt.AaloNoBackfill = false
	checkCCTs(t, replay(t, tr, opt), 1, 2)
}

// AaloRequeueAtEvents. A: 0->1 3 MiB and B: 0->2 3 MiB at 0, first limit
// 1 MiB; C: 3->4 1 MiB at 3 s on other ports. Exact (as in
// TestTimeStepAaloQueues): A is demoted at 1, B at 2, A ends at 4 and B at
// 6. At events only: nothing demotes A before the next arrival or
// departure, so it keeps up0 and ends at 3 (when C arrives); B then runs
// from 3 to 6.
func TestAaloRequeueAtEvents(t *testing.T) {
	tr := parseTrace(t, 5, "A 0 1 0 1 1:3", "B 0 1 0 1 2:3", "C 3000 1 3 1 4:1")
	opt := Options{Policy: Aalo, PortSpeed: mib, AaloFirstLimit: mib}
	checkCCTs(t, replay(t, tr, opt), 4, 6, 1)
	opt.AaloRequeueAtEvents = true
	checkCCTs(t, replay(t, tr, opt), 3, 6, 1)
	if _, err := Replay(tr, Options{Policy: SEBF, AaloNoBackfill: true}); err == nil {
		t.Error("AaloNoBackfill with sebf: no error")
	}
	if _, err := Replay(tr, Options{Policy: Fair, AaloRequeueAtEvents: true}); err == nil {
		t.Error("AaloRequeueAtEvents with fair: no error")
	}
}
