package network

import (
	"math"
	"testing"
)

// One flow 0->1 of 150 B at 100 B/s (t in [0,1.5]), samples every 1 s,
// window 2 s: EMA weight w = 1 - exp(-1/2) = 0.3934693402873666.
//
//	t=1: m1.down moved 100 B -> utilisation 1.0; EMA = w
//	t=2: moved 50 B -> 0.5; EMA = w + w(0.5 - w)
//	t=3: moved 0 -> EMA = (w + w(0.5 - w)) (1 - w)
//
// The receive rate of m1 is the same EMA over 100, 50, 0 B/s.
func TestMonitorEMA(t *testing.T) {
	var samples []Sample
	n, err := New(Config{Machines: machines(2, 2, 100),
		Monitor: MonitorConfig{Interval: 1, Window: 2, OnSample: func(s Sample) {
			s.LinkUtilization = append([]float64(nil), s.LinkUtilization...)
			s.ReceiveRate = append([]float64(nil), s.ReceiveRate...)
			samples = append(samples, s)
		}}})
	if err != nil {
		t.Fatal(err)
	}
	if te := n.NextEvent(); te != 1 {
		t.Fatalf("idle network: next event %v, want the first sample at 1", te)
	}
	mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 150})
	runUntil(n, 3)
	w := 1 - math.Exp(-0.5)
	e1 := w
	e2 := e1 + w*(0.5-e1)
	e3 := e2 * (1 - w)
	if len(samples) != 3 {
		t.Fatalf("%d samples, want 3", len(samples))
	}
	const down1 = 3 // link index of m1.down
	for i, want := range []float64{e1, e2, e3} {
		s := samples[i]
		if s.Time != float64(i+1) || !near(s.LinkUtilization[down1], want) || !near(s.ReceiveRate[1], 100*want) {
			t.Errorf("sample %d: time %v util %v recv %v, want %v, %v, %v",
				i, s.Time, s.LinkUtilization[down1], s.ReceiveRate[1], i+1, want, 100*want)
		}
		if s.ReceiveRate[0] != 0 || s.CrossRackUtilization != 0 || s.Saturated {
			t.Errorf("sample %d: %+v, want nothing received by m0 and no cross-rack load", i, s)
		}
	}
	if got := n.Monitor(); got.Time != 3 {
		t.Errorf("Monitor() time %v, want 3", got.Time)
	}
}

// Cross-rack saturation: 2 racks x 1 machine, rack links 100 B/s, one flow
// r0 -> r1 at 100 B/s. r0.up and r1.down run at 1.0, r0.down and r1.up at 0:
// the raw cross-rack mean is 0.5. Window = interval = 1 s, w = 1 - 1/e:
//
//	t=1: 0.5 w           = 0.316 < 0.4  not saturated
//	t=2: 0.5 (1-(1-w)^2) = 0.432 >= 0.4 saturated
func TestMonitorSaturation(t *testing.T) {
	n, err := New(Config{Kind: TwoTier, Machines: machines(2, 1, 100), RackUp: 100, RackDown: 100,
		Monitor: MonitorConfig{Interval: 1, Window: 1, Threshold: 0.4}})
	if err != nil {
		t.Fatal(err)
	}
	mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1000})
	w := 1 - math.Exp(-1)
	runUntil(n, 1)
	if s := n.Monitor(); !near(s.CrossRackUtilization, 0.5*w) || s.Saturated {
		t.Errorf("t=1: %v saturated=%v, want %v false", s.CrossRackUtilization, s.Saturated, 0.5*w)
	}
	runUntil(n, 2)
	if s := n.Monitor(); !near(s.CrossRackUtilization, 0.5*(1-(1-w)*(1-w))) || !s.Saturated {
		t.Errorf("t=2: %v saturated=%v, want %v true", s.CrossRackUtilization, s.Saturated, 0.5*(1-(1-w)*(1-w)))
	}
}

func TestMonitorDisabled(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(2, 2, 100), Monitor: MonitorConfig{Interval: -1}})
	if te := n.NextEvent(); te != Inf {
		t.Fatalf("next event %v, want Inf with the monitor off and no flows", te)
	}
	if s := n.Monitor(); s.Time != 0 || s.LinkUtilization != nil {
		t.Fatalf("Monitor() = %+v, want zero", s)
	}
}
