package network

import (
	"math"
	"testing"
)

// machines builds n machines with the same NIC speed, rack = i / perRack.
func machines(n, perRack int, nic float64) []Machine {
	ms := make([]Machine, n)
	for i := range ms {
		ms[i] = Machine{Rack: i / perRack, NICUp: nic, NICDown: nic}
	}
	return ms
}

func mustNew(t testing.TB, cfg Config) *Network {
	t.Helper()
	if cfg.Monitor.Interval == 0 {
		cfg.Monitor.Interval = -1 // tests opt in to monitor events
	}
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func mustStart(t testing.TB, n *Network, now float64, f FlowSpec) FlowID {
	t.Helper()
	id, err := n.Start(now, f)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// runUntil advances event by event up to t and returns every completion.
func runUntil(n *Network, t float64) []Completion {
	var out []Completion
	for {
		te := n.NextEvent()
		if te > t {
			break
		}
		n.AdvanceTo(te, func(c Completion) { out = append(out, c) })
	}
	n.AdvanceTo(t, func(c Completion) { out = append(out, c) })
	return out
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b))
}

// wantDone checks completion times by flow id, in (time, id) order.
func wantDone(t *testing.T, got []Completion, want map[FlowID]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d completions %+v, want %d", len(got), got, len(want))
	}
	for i, c := range got {
		w, ok := want[c.ID]
		if !ok || !near(c.Time, w) {
			t.Errorf("flow %d finished at %v, want %v", c.ID, c.Time, w)
		}
		if i > 0 && (c.Time < got[i-1].Time || c.Time == got[i-1].Time && c.ID < got[i-1].ID) {
			t.Errorf("completions out of (time, id) order: %+v", got)
		}
	}
}

func wantRate(t *testing.T, n *Network, id FlowID, want float64) {
	t.Helper()
	if got := n.Rate(id); !near(got, want) {
		t.Errorf("rate of flow %d = %v, want %v", id, got, want)
	}
}

// Classes are kept in 32 bits: a larger one is refused by Start and
// ignored by SetClass, never wrapped into another class.
func TestClassBounds(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(3, 3, 100)})
	if _, err := n.Start(0, FlowSpec{Src: 0, Dst: 1, Size: 100, Class: MaxClass + 1}); err == nil {
		t.Fatal("Start took class MaxClass+1")
	}
	hi := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100, Class: MaxClass})
	lo := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 100, Class: 0})
	n.SetClass(0, hi, MaxClass+2) // would wrap to a class before lo's
	done := runUntil(n, 10)
	if len(done) != 2 || done[0].ID != lo || done[0].Time != 1 || done[1].ID != hi || done[1].Time != 2 {
		t.Fatalf("completions %+v: want class 0 first at 1 s, then class MaxClass at 2 s", done)
	}
}
