package network

import "testing"

// hybridPair: 2 racks x 1 machine, NICs 100 B/s, EPS rack links 10 B/s,
// OCS ports 100 B/s, reconfiguration every 1 s, elephants >= 500 B.
func hybridPair(t *testing.T, delay float64) *Network {
	return mustNew(t, Config{Kind: Hybrid, Machines: machines(2, 1, 100), RackUp: 10, RackDown: 10,
		OCS: OCSConfig{PortSpeed: 100, Interval: 1, Delay: delay, ElephantThreshold: 500}})
}

// An elephant m0->m1 of 500 B starts on the EPS at 10 B/s. The circuit
// r0->r1 is chosen at t=1.
//
// Delay 0.25 s: EPS until 1.25 (12.5 B), then the circuit at 100 B/s:
// 487.5/100 = 4.875 s, done at 6.125. Without delay: EPS until 1 (10 B),
// then 490/100 = 4.9 s, done at 5.9. The difference 0.225 s is the delay
// times the share of the circuit speed the EPS did not provide (0.25 x 0.9).
// A 100 B mouse on the same racks stays on the EPS: 10 s.
func TestOCSReconfigurationDelay(t *testing.T) {
	for _, c := range []struct {
		delay, done, eps float64
	}{{0.25, 6.125, 12.5}, {0, 5.9, 10}} {
		n := hybridPair(t, c.delay)
		e := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 500})
		wantRate(t, n, e, 10)
		got := runUntil(n, 1.1)
		if c.delay > 0 {
			wantRate(t, n, e, 10) // circuit chosen, not up yet
		} else {
			wantRate(t, n, e, 100)
		}
		got = append(got, runUntil(n, 20)...)
		wantDone(t, got, map[FlowID]float64{e: c.done})
		s := n.Stats()
		if !near(s.EPSBytes, c.eps) || !near(s.OCSBytes, 500-c.eps) || !near(s.CrossRackBytes, 500) {
			t.Errorf("delay %v: stats %+v, want EPS %v OCS %v", c.delay, s, c.eps, 500-c.eps)
		}
		// Later reconfigurations keep the idle circuit: one change in all.
		if s.Reconfigurations != 1 {
			t.Errorf("delay %v: %d reconfigurations, want 1", c.delay, s.Reconfigurations)
		}
	}

	n := hybridPair(t, 0.25)
	m := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100})
	got := runUntil(n, 20)
	wantDone(t, got, map[FlowID]float64{m: 10})
	if s := n.Stats(); s.Reconfigurations != 0 || s.OCSBytes != 0 {
		t.Errorf("mouse only: %+v, want no circuit and no OCS bytes", s)
	}
}

// Three racks with a cyclic demand whose best matching is obvious:
// 0->1, 1->2 and 2->0 carry 3000 B each, 0->2 and 1->0 carry 1000 B.
// The cycle weighs 9000; any matching using 0->2 or 1->0 at most 4000.
func TestOCSObviousMatching(t *testing.T) {
	n := mustNew(t, Config{Kind: Hybrid, Machines: machines(3, 1, 1000), RackUp: 10, RackDown: 10,
		OCS: OCSConfig{PortSpeed: 100, Interval: 1, Delay: 0.1, ElephantThreshold: 500}})
	for _, f := range []FlowSpec{
		{Src: 0, Dst: 1, Size: 3000}, {Src: 1, Dst: 2, Size: 3000}, {Src: 2, Dst: 0, Size: 3000},
		{Src: 0, Dst: 2, Size: 1000}, {Src: 1, Dst: 0, Size: 1000},
	} {
		mustStart(t, n, 0, f)
	}
	runUntil(n, 1)
	c, ready := n.Circuits()
	want := []int{1, 2, 0}
	for i := range want {
		if c[i] != want[i] || ready[i] != 1.1 {
			t.Fatalf("circuits %v ready %v, want %v ready at 1.1", c, ready, want)
		}
	}
	// While circuits come up, everything shares the EPS; after 1.1 the three
	// big flows each have a 100 B/s circuit.
	runUntil(n, 1.2)
	for id := FlowID(1); id <= 3; id++ {
		wantRate(t, n, id, 100)
	}
	load := n.LinkLoad()
	for i, li := range n.Links() {
		if load[i] > li.Capacity*(1+1e-12) {
			t.Errorf("link %s load %v above %v", li.Name, load[i], li.Capacity)
		}
	}
}

// A circuit that is torn down sends its elephants back to the EPS.
func TestOCSCircuitMovesAway(t *testing.T) {
	n := mustNew(t, Config{Kind: Hybrid, Machines: machines(3, 1, 1000), RackUp: 10, RackDown: 10,
		OCS: OCSConfig{PortSpeed: 100, Interval: 1, Delay: 0, ElephantThreshold: 500}})
	a := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1000})
	runUntil(n, 1.5) // circuit 0->1 from t=1: a runs at 100
	wantRate(t, n, a, 100)
	// A much bigger demand 0->2 takes transmit port 0 at t=2.
	b := mustStart(t, n, 1.5, FlowSpec{Src: 0, Dst: 2, Size: 100000})
	runUntil(n, 2.5)
	if c, _ := n.Circuits(); c[0] != 2 {
		t.Fatalf("circuit of rack 0 goes to %d, want 2", c[0])
	}
	wantRate(t, n, b, 100)
	// a shares r0.up (10 B/s) alone now: b is on the circuit.
	wantRate(t, n, a, 10)
}
