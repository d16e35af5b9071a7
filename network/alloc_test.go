package network

import (
	"fmt"
	"testing"
)

// Several bottlenecks on a non-blocking fabric. NICs are 100 B/s except
// m0.up = 60 and m1.down = 30.
//
//	f1 0->1 (30 B)   f2 0->2 (135 B)   f3 3->2 (220 B)   f4 3->1 (60 B)
//
// Phase 1, t in [0,2]: m1.down saturates first at 30/2 = 15 (f1, f4); then
// m0.up at (60-15)/1 = 45 (f2); then m2.down at (100-45)/1 = 55 (f3).
// At t=2 f1 is done (30 = 15*2); f2 has 135-90 = 45, f3 220-110 = 110 and
// f4 60-30 = 30 bytes left.
// Phase 2: m1.down gives f4 30; m2.down splits 100 into 50/50 (f2, f3); m3.up
// carries 30+50 < 100. f2 finishes at 2 + 45/50 = 2.9, when f3 has 65 and f4 3.
// Phase 3: f4 keeps 30 (m1.down), f3 gets m3.up's 100-30 = 70. f4 finishes
// at 2.9 + 3/30 = 3.0, when f3 has 65 - 7 = 58 left.
// Phase 4: f3 alone at 100: done at 3.0 + 0.58 = 3.58.
func TestMaxMinSeveralBottlenecks(t *testing.T) {
	ms := machines(4, 4, 100)
	ms[0].NICUp = 60
	ms[1].NICDown = 30
	n := mustNew(t, Config{Machines: ms})
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 30})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 135})
	f3 := mustStart(t, n, 0, FlowSpec{Src: 3, Dst: 2, Size: 220})
	f4 := mustStart(t, n, 0, FlowSpec{Src: 3, Dst: 1, Size: 60})
	wantRate(t, n, f1, 15)
	wantRate(t, n, f2, 45)
	wantRate(t, n, f3, 55)
	wantRate(t, n, f4, 15)
	got := runUntil(n, 2.5)
	wantRate(t, n, f2, 50)
	wantRate(t, n, f3, 50)
	wantRate(t, n, f4, 30)
	if r := n.Remaining(f3); !near(r, 110-25) {
		t.Errorf("f3 remaining at 2.5 = %v, want 85", r)
	}
	got = append(got, runUntil(n, 10)...)
	wantDone(t, got, map[FlowID]float64{f1: 2, f2: 2.9, f4: 3.0, f3: 3.58})
	if n.ActiveFlows() != 0 || n.NextEvent() != Inf {
		t.Errorf("network not idle: %d flows, next event %v", n.ActiveFlows(), n.NextEvent())
	}
}

// Strict priority: a class-0 flow preempts a class-1 flow on a shared link,
// which recovers its full rate when the class-0 flow ends.
//
//	L: 0->1 class 1, 300 B at t=0: alone at 100 B/s; 200 B left at t=1.
//	H: 2->1 class 0, 100 B at t=1: takes all of m1.down (100), L gets 0.
//	H finishes at t=2; L resumes at 100 and finishes at 2 + 200/100 = 4.
//	C: 0->2 class 1, 50 B at t=1.5: m0.up has 100 free (L is stalled at
//	m1.down) but m2.down is free too, so C runs at 100 and ends at 2.0.
//	From t=2 L and C would share m0.up, but C is done: L runs alone.
func TestStrictPriorityPreemptionAndRecovery(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	l := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 300, Class: 1})
	got := runUntil(n, 1)
	h := mustStart(t, n, 1, FlowSpec{Src: 2, Dst: 1, Size: 100, Class: 0})
	wantRate(t, n, h, 100)
	wantRate(t, n, l, 0)
	got = append(got, runUntil(n, 1.5)...)
	c := mustStart(t, n, 1.5, FlowSpec{Src: 0, Dst: 2, Size: 50, Class: 1})
	wantRate(t, n, c, 100)
	if r := n.Remaining(l); !near(r, 200) {
		t.Errorf("L remaining during preemption = %v, want 200", r)
	}
	got = append(got, runUntil(n, 10)...)
	wantDone(t, got, map[FlowID]float64{h: 2, c: 2, l: 4})
}

// Oversubscribed rack uplinks: 2 racks x 2 machines, NICs 100 B/s,
// oversubscription 4, so r.up = r.down = 200/4 = 50 B/s.
//
//	f1 m0->m2 (50 B), f2 m1->m3 (100 B): both cross r0.up: 25 each.
//	f3 m0->m1 (300 B): intra-rack, NICs only: m0.up has 100-25 = 75 left.
//
// f1 ends at 50/25 = 2; f2 then has 50 left and r0.up alone: 50 B/s, ends at
// 3; f3 has 300-150 = 150 left at t=2 and m0.up alone: ends at 3.5.
func TestOversubscribedRackUplinks(t *testing.T) {
	n := mustNew(t, Config{Kind: TwoTier, Machines: machines(4, 2, 100), Oversubscription: 4})
	for _, li := range n.Links() {
		if li.Name == "r0.up" && li.Capacity != 50 {
			t.Fatalf("r0.up capacity %v, want 50", li.Capacity)
		}
	}
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 50})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 1, Dst: 3, Size: 100})
	f3 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 300})
	wantRate(t, n, f1, 25)
	wantRate(t, n, f2, 25)
	wantRate(t, n, f3, 75)
	got := runUntil(n, 10)
	wantDone(t, got, map[FlowID]float64{f1: 2, f2: 3, f3: 3.5})
	s := n.Stats()
	if !near(s.IntraRackBytes, 300) || !near(s.CrossRackBytes, 150) || !near(s.EPSBytes, 150) || s.OCSBytes != 0 {
		t.Errorf("stats %+v, want intra 300, cross = EPS = 150", s)
	}
}

// A flow from a rack leaves out the source NIC: two flows from machine 0
// (NIC 100) to the other rack share its NIC at 50 each, but marked FromRack
// they are held only by rack 0's uplink (400 over 4, shared) and their own
// destination NICs.
//
//	machines 0..3 in rack 0, 4..7 in rack 1, NICs 100, uplinks 200
//	f1 0->4, f2 0->5 FromRack: 100 each (uplink 200 full, NICs 4 and 5 full)
//	f3 1->6 FromRack joins: the uplink gives 200/3 each
func TestFromRackSkipsSourceNIC(t *testing.T) {
	n := mustNew(t, Config{Kind: TwoTier, Machines: machines(8, 4, 100), Oversubscription: 2})
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 4, Size: 1000, FromRack: true})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 5, Size: 1000, FromRack: true})
	wantRate(t, n, f1, 100)
	wantRate(t, n, f2, 100)
	f3 := mustStart(t, n, 0, FlowSpec{Src: 1, Dst: 6, Size: 1000, FromRack: true})
	wantRate(t, n, f3, 200.0/3)
	wantRate(t, n, f1, 200.0/3)
	if r := n.Route(f1, nil); len(r) != 3 || n.Links()[r[0]].Name != "r0.up" {
		t.Fatalf("route of a flow from a rack %v, want r0.up, r1.down, m4.down", r)
	}
	// The same two flows from machine 0 without FromRack share its NIC.
	m := mustNew(t, Config{Kind: TwoTier, Machines: machines(8, 4, 100), Oversubscription: 2})
	g1 := mustStart(t, m, 0, FlowSpec{Src: 0, Dst: 4, Size: 1000})
	mustStart(t, m, 0, FlowSpec{Src: 0, Dst: 5, Size: 1000})
	wantRate(t, m, g1, 50)
	// A flow from a rack needs rack links and another rack.
	if _, err := n.Start(0, FlowSpec{Src: 0, Dst: 1, Size: 1, FromRack: true}); err == nil {
		t.Error("a flow from a rack to the same rack was accepted")
	}
	flat := mustNew(t, Config{Machines: machines(8, 4, 100)})
	if _, err := flat.Start(0, FlowSpec{Src: 0, Dst: 4, Size: 1, FromRack: true}); err == nil {
		t.Error("a flow from a rack on a non-blocking network was accepted")
	}
}

// Explicit rate cap: f1 0->1 capped at 30, f2 0->2 uncapped, NICs 100.
//
//	[0,1]: f1 30, f2 70. At t=1 f1 has 60-30 = 30 left, f2 170-70 = 100.
//	t=1: the cap is removed: 50/50. f1 ends at 1 + 30/50 = 1.6, when f2 has
//	100-30 = 70 left; alone at 100 it ends at 2.3.
func TestRateCap(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 60, RateCap: 30})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 170})
	wantRate(t, n, f1, 30)
	wantRate(t, n, f2, 70)
	got := runUntil(n, 1)
	n.SetRateCap(1, f1, 0)
	wantRate(t, n, f1, 50)
	got = append(got, runUntil(n, 10)...)
	wantDone(t, got, map[FlowID]float64{f1: 1.6, f2: 2.3})
}

// A cap below the fair share freezes its flow early; a cap above changes
// nothing. f1 0->1 cap 20, f2 0->2, f3 3->2 cap 200; NICs 100.
// The level rises to 20: f1 frozen at its cap. m0.up then saturates at
// (100-20)/1 = 80 for f2, but m2.down saturates earlier at 100/2 = 50 for
// f2 and f3: rates 20, 50, 50 (f3's cap of 200 never binds).
func TestRateCapBelowShare(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(4, 4, 100)})
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100, RateCap: 20})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 100})
	f3 := mustStart(t, n, 0, FlowSpec{Src: 3, Dst: 2, Size: 100, RateCap: 200})
	wantRate(t, n, f1, 20)
	wantRate(t, n, f2, 50)
	wantRate(t, n, f3, 50)
}

// SetRate pins a flow ahead of every class: f1, f2 both 0->x, 100 B each.
//
//	f1 pinned at 80: f2 gets 20. f1 ends at 100/80 = 1.25 when f2 has
//	100-25 = 75 left; alone at 100 it ends at 2.0.
//
// A third flow f3 in class 0 pinned back to max-min shows SetRate(-1).
func TestSetRate(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	f1 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100, Class: 5})
	f2 := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 100})
	n.SetRate(0, f1, 80)
	wantRate(t, n, f1, 80)
	wantRate(t, n, f2, 20)
	got := runUntil(n, 10)
	wantDone(t, got, map[FlowID]float64{f1: 1.25, f2: 2})

	// Back to sharing: g1 pinned at 10 for [0,1] (10 B), then shares 50/50.
	// g2 had 90 B/s in [0,1]: 180-90 = 90 left; g1 100-10 = 90 left: both
	// finish at 1 + 90/50 = 2.8.
	n2 := mustNew(t, Config{Machines: machines(3, 3, 100)})
	g1 := mustStart(t, n2, 0, FlowSpec{Src: 0, Dst: 1, Size: 100})
	g2 := mustStart(t, n2, 0, FlowSpec{Src: 0, Dst: 2, Size: 180})
	n2.SetRate(0, g1, 10)
	wantRate(t, n2, g2, 90)
	got = runUntil(n2, 1)
	n2.SetRate(1, g1, -1)
	wantRate(t, n2, g1, 50)
	got = append(got, runUntil(n2, 10)...)
	wantDone(t, got, map[FlowID]float64{g1: 2.8, g2: 2.8})
}

// Cancel frees bandwidth at once and drops the flow silently.
func TestCancelAndSetClass(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	a := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100})
	b := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 2, Size: 100})
	runUntil(n, 1) // 50 B each
	n.Cancel(1, a)
	wantRate(t, n, b, 100)
	// b has 50 left; demoting it changes nothing while it is alone.
	n.SetClass(1, b, 3)
	got := runUntil(n, 10)
	wantDone(t, got, map[FlowID]float64{b: 1.5})
	if s := n.Stats(); !near(s.CrossRackBytes+s.IntraRackBytes, 150) {
		t.Errorf("bytes moved %+v, want 150 (50 of the cancelled flow)", s)
	}
}

// Flows of one bundle (same route and class) finish one by one in size
// order, and equal flows finish together, reported in id order.
func TestBundleCompletionOrder(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(2, 2, 100)})
	// Three flows 0->1 of 100, 50, 100 B. Shares 100/3 each until the 50 B
	// flow ends at 1.5; the two others have 50 left and share 50/50: they
	// end at 1.5 + 1 = 2.5, together.
	a := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100, Tag: 7})
	b := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 50})
	c := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100})
	if n.ActiveBundles() != 1 {
		t.Fatalf("%d bundles, want 1", n.ActiveBundles())
	}
	got := runUntil(n, 10)
	wantDone(t, got, map[FlowID]float64{b: 1.5, a: 2.5, c: 2.5})
	if got[1].ID != a || got[1].Tag != 7 || got[1].Size != 100 {
		t.Errorf("second completion %+v, want flow %d tag 7 size 100", got[1], a)
	}
}

func TestStartErrors(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(2, 2, 100)})
	bad := []FlowSpec{
		{Src: 0, Dst: 0, Size: 1},
		{Src: 0, Dst: 2, Size: 1},
		{Src: -1, Dst: 1, Size: 1},
		{Src: 0, Dst: 1, Size: 0},
		{Src: 0, Dst: 1, Size: -3},
		{Src: 0, Dst: 1, Size: 1, Class: -1},
		{Src: 0, Dst: 1, Size: 1, RateCap: -1},
	}
	for _, f := range bad {
		if _, err := n.Start(0, f); err == nil {
			t.Errorf("Start(%+v) accepted", f)
		}
	}
	runUntil(n, 5)
	if _, err := n.Start(1, FlowSpec{Src: 0, Dst: 1, Size: 1}); err == nil {
		t.Error("Start in the past accepted")
	}
}

func TestConfigErrorsAndDefaults(t *testing.T) {
	bad := []Config{
		{},
		{Kind: "mesh", Machines: machines(2, 1, 1)},
		{Machines: []Machine{{Rack: 0, NICUp: 0, NICDown: 1}}},
		{Machines: []Machine{{Rack: -1, NICUp: 1, NICDown: 1}}},
		{Racks: 1, Machines: []Machine{{Rack: 1, NICUp: 1, NICDown: 1}}},
		{Kind: TwoTier, Machines: machines(2, 1, 1), Oversubscription: -2},
		{Kind: Hybrid, Machines: machines(2, 1, 1), OCS: OCSConfig{PortSpeed: -1}},
		{Machines: machines(2, 1, 1), Monitor: MonitorConfig{Interval: 1, Window: -1}},
		{Machines: machines(2, 1, 1), Monitor: MonitorConfig{}}, // Interval 0: a zero is not "absent"
		{Machines: machines(2, 1, 1), Monitor: MonitorConfig{Interval: 1, Threshold: 1.5}},
		{Kind: TwoTier, Machines: machines(2, 1, 1)},                     // Oversubscription 0 derives no rack link
		{Kind: Hybrid, Machines: machines(2, 1, 1), Oversubscription: 1}, // OCS PortSpeed and Interval 0
		{Kind: Hybrid, Machines: machines(2, 1, 1), Oversubscription: 1, OCS: OCSConfig{PortSpeed: 1, Interval: 1, Delay: -1}},
	}
	for _, c := range bad {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
	// Zeros that mean something are kept: instant circuits, every flow an
	// elephant, no smoothing, always saturated.
	zeros := Config{Kind: Hybrid, Machines: machines(4, 2, 100), Oversubscription: 1,
		OCS: OCSConfig{PortSpeed: 1, Interval: 1}, Monitor: MonitorConfig{Interval: 1}}
	n, err := New(zeros)
	if err != nil {
		t.Fatal(err)
	}
	if c := n.Config(); c.Racks != 2 || c.OCS != zeros.OCS || c.Monitor.Window != 0 || c.Monitor.Threshold != 0 {
		t.Errorf("zeros not kept: %+v", c)
	}
	n, err = New(Config{Kind: Hybrid, Machines: machines(4, 2, 100), Oversubscription: 1, OCS: DefaultOCS(), Monitor: DefaultMonitor()})
	if err != nil {
		t.Fatal(err)
	}
	if c := n.Config(); c.OCS.PortSpeed != 1.25e9 || c.OCS.Interval != 1 || c.OCS.Delay != 0.01 || c.OCS.ElephantThreshold != 1.125e9 ||
		c.Monitor.Interval != 1 || c.Monitor.Window != 5 || c.Monitor.Threshold != 0.8 {
		t.Errorf("defaults: %+v", c)
	}
	if len(n.Links()) != 2*4+2*2+2*2 {
		t.Errorf("%d links, want 16", len(n.Links()))
	}
}

// With Granularity, rates change only on the grid: a flow starting between
// grid points waits for the next one, and one whose bytes run out between
// grid points completes at the next one.
func TestGranularity(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100), Granularity: 1})
	a := mustStart(t, n, 0.5, FlowSpec{Src: 0, Dst: 1, Size: 100}) // waits for t=1, alone: done at 2
	if r := n.Rate(a); r != 0 {
		t.Fatalf("rate before the first grid point %v, want 0", r)
	}
	b := mustStart(t, n, 1.2, FlowSpec{Src: 0, Dst: 2, Size: 75}) // waits for t=2 (a holds m0.up until then)
	if r := n.Rate(a); r != 100 {
		t.Fatalf("rate of a between grid points %v, want 100", r)
	}
	got := runUntil(n, 10)
	// At t=2 a is done and b gets 100 B/s: 75 bytes end at 2.75, reported at 3.
	wantDone(t, got, map[FlowID]float64{a: 2, b: 3})
	if s := n.Stats(); s.IntraRackBytes != 175 {
		t.Errorf("bytes %v, want 175 (a flow's bytes are its size, not what its group served past its end)", s.IntraRackBytes)
	}
	for _, c := range got {
		if k := c.Time; k != float64(int(k)) {
			t.Errorf("completion at %v, not on the grid", k)
		}
	}
}

// Links names every link's kind, owner and direction, matching its name.
func TestLinkInfo(t *testing.T) {
	n, err := New(Config{Kind: Hybrid, Machines: machines(4, 2, 100), Oversubscription: 1, OCS: DefaultOCS(), Monitor: DefaultMonitor()})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[LinkKind]string{LinkNIC: "m%d.%s", LinkRack: "r%d.%s", LinkOCSPort: "ocs.r%d.%s"}
	for _, li := range n.Links() {
		dir := map[bool]string{true: "up", false: "down"}[li.Up]
		if li.Kind == LinkOCSPort {
			dir = map[bool]string{true: "tx", false: "rx"}[li.Up]
		}
		if want := fmt.Sprintf(kinds[li.Kind], li.Index, dir); li.Name != want {
			t.Errorf("link %q described as %q", li.Name, want)
		}
	}
}
