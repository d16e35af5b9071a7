package coflow

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// parseTrace builds a trace from coflow-benchmark lines (arrivals in ms).
func parseTrace(t testing.TB, ports int, lines ...string) *coflowbench.Trace {
	t.Helper()
	text := fmt.Sprintf("%d %d\n%s\n", ports, len(lines), strings.Join(lines, "\n"))
	tr, err := coflowbench.Parse("test", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func replay(t testing.TB, tr *coflowbench.Trace, opt Options) *Result {
	t.Helper()
	res, err := Replay(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// near compares times to a relative 1e-9 (the network batches events that
// close and rates are floating point).
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))
}

func checkCCTs(t *testing.T, res *Result, want ...float64) {
	t.Helper()
	for i, w := range want {
		if got := res.Coflows[i].CCT; !near(got, w) {
			t.Errorf("%s: coflow %s CCT = %.12g, want %.12g", res.Summary.Policy, res.Coflows[i].ID, got, w)
		}
		if r := res.Coflows[i]; !near(r.Finish, r.Arrival+r.CCT) {
			t.Errorf("coflow %s: finish %v != arrival %v + CCT %v", r.ID, r.Finish, r.Arrival, r.CCT)
		}
	}
}

// Two coflows arriving together at 1 MiB/s ports (so MiB read as seconds):
//
//	A: 0->2 4 MiB                                   bottleneck 4 s
//	B: mappers {0,1}, reducers 3:2 MiB and 1:4 MiB
//	   flows 0->3 1, 1->3 1, 0->1 2 (1->1 is local)  up0 carries 3: bottleneck 3 s
//
// sebf puts B first. MADD B with Γ=3: 0->3 1/3, 1->3 1/3, 0->1 2/3; up0 is
// full, so A (which needs up0) is skipped. Backfill in arrival order: A gets
// nothing (up0 full), 1->3 adds min(up1 2/3, down3 1/3) = 1/3. 1->3 ends at
// 1.5 s (no reallocation on flow completion); 0->3 and 0->1 end at 3 =
// CCT_B. Then A alone at rate 1 with 4 MiB left: CCT_A = 7.
//
// fifo puts A first at rate 1 (Γ=4); B is skipped (up0 full) and the
// backfill gives 1->3 min(up1, down3) = 1: it ends at 1 s. A departs at 4;
// B's 0->3 (1 MiB) and 0->1 (2 MiB) then share up0 by MADD (Γ=3): CCT_B =
// 4+3 = 7, CCT_A = 4.
//
// fair (per-flow max-min): up0 carries 0->2, 0->3, 0->1 at 1/3 each; 1->3
// gets the 2/3 left on down3 and ends at 1.5. 0->3 ends at 3; then 0->2 and
// 0->1 get 1/2 each: 0->1 (1 MiB left) ends at 5 = CCT_B; 0->2 has 2 MiB
// left at 5 and ends at 7 = CCT_A.
func TestMADDTwoCoflows(t *testing.T) {
	tr := parseTrace(t, 4,
		"A 0 1 0 1 2:4",
		"B 0 2 0 1 2 3:2 1:4",
	)
	cases := []struct {
		policy string
		a, b   float64
	}{
		{SEBF, 7, 3},
		{SCF, 7, 3},  // longest flow: A 4 MiB, B 2 MiB
		{FIFO, 4, 7}, //
		{NCF, 4, 7},  // min(mapper ports, reducer ports): A 1, B 2
		{LCF, 4, 7},  // network bytes: A 4, B 4; the tie goes to arrival order
		{Fair, 7, 5},
	}
	for _, tc := range cases {
		res := replay(t, tr, Options{Policy: tc.policy, PortSpeed: mib})
		checkCCTs(t, res, tc.a, tc.b)
	}
	// Reallocating on flow completion changes nothing here: at 1.5 s (sebf)
	// B is still first and up0 still full; at 1 s (fifo) A still holds up0.
	for _, tc := range cases[:3] {
		res := replay(t, tr, Options{Policy: tc.policy, PortSpeed: mib, RescheduleOnFlowCompletion: true})
		checkCCTs(t, res, tc.a, tc.b)
	}
}

// MADD pacing of two coflows that share a port, at 1 MiB/s:
//
//	A: mappers {0,1}, reducers 2:2, 3:4 -> 0->2 1, 1->2 1, 0->3 2, 1->3 2 MiB
//	   up0 3, up1 3, down2 2, down3 4: Γ_A = 4
//	B: 0->4 1 MiB: Γ_B = 1
//
// fifo: MADD A gives 0->2 1/4, 1->2 1/4, 0->3 1/2, 1->3 1/2, leaving 1/4 on
// up0 and up1 and 1/2 on down2. MADD B against up0 = 1/4: Γ = 4, rate 1/4.
// Backfill: 1->2 adds min(up1 1/4, down2 1/2) = 1/4 and ends at 2 s; the
// rest ends at 4: CCT_A = CCT_B = 4. Reallocating at 2 s gives the same
// (A's Γ is then 2 against a full port, B's 2 against the 1/4 left).
//
// sebf: B first at rate 1; A is skipped (up0 full); the backfill gives 1->2
// min(up1, down2) = 1. At 1 s B and 1->2 end. A has 0->2 1, 0->3 2, 1->3 2
// left: Γ = 4 (down3), so A ends at 1+4 = 5 (0->2, backfilled to 1/2,
// earlier).
func TestMADDPacing(t *testing.T) {
	tr := parseTrace(t, 5,
		"A 0 2 0 1 2 2:2 3:4",
		"B 0 1 0 1 4:1",
	)
	for _, opt := range []Options{{Policy: FIFO}, {Policy: FIFO, RescheduleOnFlowCompletion: true}} {
		opt.PortSpeed = mib
		checkCCTs(t, replay(t, tr, opt), 4, 4)
	}
	checkCCTs(t, replay(t, tr, Options{Policy: SEBF, PortSpeed: mib}), 5, 1)
}

// The first coflows of FB2010 do not overlap, so every policy gives each
// the time it needs alone on 1 Gbps (1.25e8 bytes/s) ports:
//
//	1 (t=0):      22->65, 1 MiB                     1048576/1.25e8  = 0.008388608 s
//	2 (t=10.833): 104->140 and 132->140, 24 MiB each; down140 carries
//	              48 MiB                            50331648/1.25e8 = 0.402653184 s
//	3 (t=13.122): 66->38 and 138->38, 2 MiB each    4194304/1.25e8  = 0.033554432 s
func TestFB2010FirstCoflows(t *testing.T) {
	tr := loadFB2010(t)
	tr.Coflows = tr.Coflows[:3]
	for _, p := range Policies() {
		res := replay(t, tr, Options{Policy: p})
		checkCCTs(t, res, 0.008388608, 0.402653184, 0.033554432)
		if got := res.Coflows[1].Finish; !near(got, 10.833+0.402653184) {
			t.Errorf("%s: coflow 2 finish %v", p, got)
		}
		if w := res.Coflows[1].Width; w != 2 {
			t.Errorf("coflow 2 width %d, want 2", w)
		}
	}
}

// Coflow 4 of FB2010 (t=15.531 s) alone: 27 mappers, 116 reducers, 83,565
// MiB in all. Each mapper holds 83565/27 = 3095 MiB; mapper 16 has no
// reducer on its port, so its uplink must carry all 3095 MiB, more than any
// downlink (the largest reducer, port 138, receives 1944 MiB). MADD paces
// every flow to that bottleneck: CCT = 3095 * 2^20 / 1.25e8 = 25.96274176 s.
// Per-flow fair sharing cannot reach it: at the end the 27 flows into port
// 138 are limited by its downlink while the uplinks idle, so fair is slower.
func TestFB2010Coflow4(t *testing.T) {
	tr := loadFB2010(t)
	tr.Coflows = tr.Coflows[3:4]
	const gamma = 25.96274176
	for _, p := range []string{FIFO, SCF, NCF, LCF, SEBF} {
		res := replay(t, tr, Options{Policy: p})
		checkCCTs(t, res, gamma)
		if r := res.Coflows[0]; r.Width != 3111 || r.Bytes != 83565*mib {
			t.Errorf("width %d bytes %v, want 3111 flows and 83565 MiB (497 MiB local)", r.Width, r.Bytes)
		}
	}
	for _, p := range []string{Fair, Aalo} {
		if got := replay(t, tr, Options{Policy: p}).Coflows[0].CCT; got <= gamma*(1+1e-9) {
			t.Errorf("%s: CCT %v, want above the bottleneck bound %v", p, got, gamma)
		}
	}
}

// A coflow whose every byte is node-local has no flows and ends on arrival.
func TestLocalOnlyCoflow(t *testing.T) {
	tr := parseTrace(t, 3, "L 2500 1 1 1 1:7", "Z 3000 2 0 1 1 2:0")
	for _, p := range Policies() {
		res := replay(t, tr, Options{Policy: p})
		for _, r := range res.Coflows {
			if r.CCT != 0 || r.Finish != r.Arrival || r.Width != 0 {
				t.Errorf("%s: %+v", p, r)
			}
		}
		if res.Coflows[0].Bytes != 7*mib {
			t.Errorf("bytes %v, want 7 MiB", res.Coflows[0].Bytes)
		}
	}
}

func TestReplayBadOptions(t *testing.T) {
	tr := parseTrace(t, 2, "a 0 1 0 1 1:1")
	for _, opt := range []Options{
		{Policy: "srpt"},
		{Policy: Fair, PortSpeed: -1},
		{Policy: Fair, PortSpeed: math.Inf(1)},
		{Policy: Aalo, AaloMultiplier: 1},
		{Policy: Aalo, AaloQueues: -3},
		{Policy: Aalo, AaloFirstLimit: math.NaN()},
	} {
		if _, err := Replay(tr, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	if _, err := Replay(&coflowbench.Trace{}, Options{Policy: Fair}); err == nil {
		t.Error("empty trace without ports: no error")
	}
	// Policy names are case-insensitive.
	if _, err := Replay(tr, Options{Policy: " SEBF "}); err != nil {
		t.Error(err)
	}
}

// A flow that the backfill speeds up ends before its coflow; what happens to
// its bandwidth depends on the options. At 1 MiB/s, fifo:
//
//	Z: mappers {1,3}, reducers 1:2 and 3:8 -> 3->1 1 MiB, 1->3 4 MiB (the
//	   other halves are local). Γ = 4: 3->1 1/4, 1->3 1.
//	W: mappers {3,1}, reducer 4:2 -> 1->4 1 MiB, 3->4 1 MiB. up1 is full:
//	   W is skipped by MADD and the backfill gives 3->1 the 3/4 left on
//	   up3/down1 (rate 1) and W nothing.
//
// At 1 s 3->1 ends. By default its bandwidth goes at once to the flows at
// up3 and down1: 3->4 takes up3 and ends at 2; 1->4 waits for up1 until Z
// departs at 4 and ends at 5: CCT_W = 5. A full reallocation at 1 s gives
// the same. With IdleFreedBandwidth the bandwidth idles until 4; W then
// needs 2 s through down4: CCT_W = 6. CCT_Z = 4 throughout.
func TestFreedBandwidth(t *testing.T) {
	tr := parseTrace(t, 5,
		"Z 0 2 1 3 2 1:2 3:8",
		"W 0 2 3 1 1 4:2",
	)
	checkCCTs(t, replay(t, tr, Options{Policy: FIFO, PortSpeed: mib}), 4, 5)
	checkCCTs(t, replay(t, tr, Options{Policy: FIFO, PortSpeed: mib, RescheduleOnFlowCompletion: true}), 4, 5)
	checkCCTs(t, replay(t, tr, Options{Policy: FIFO, PortSpeed: mib, IdleFreedBandwidth: true}), 4, 6)
}
