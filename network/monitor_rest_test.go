package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// reading is one sample's values, copied.
type reading struct {
	time, cross float64
	saturated   bool
	util, recv  []float64
}

func (r reading) same(o reading) bool {
	return r.cross == o.cross && r.saturated == o.saturated && slices.Equal(r.util, o.util) && slices.Equal(r.recv, o.recv)
}

// restRun drives a network through a random sequence of flow starts,
// cancels, class changes and long idle or constant-load stretches, and
// returns every OnSample call, every completion and the number of steps.
func restRun(t *testing.T, seed uint64, noRest bool, granularity float64) (calls []Sample, reads []reading, done []Completion) {
	rng := rand.New(rand.NewPCG(seed, 7))
	cfg := Config{Kind: TwoTier, Machines: machines(6, 3, 100), RackUp: 150, RackDown: 120, Granularity: granularity,
		Monitor: MonitorConfig{Interval: []float64{1, 0.1, 0.3}[seed%3], Window: 2, Threshold: 0.5}}
	cfg.Monitor.OnSample = func(s Sample) {
		calls = append(calls, s)
		reads = append(reads, reading{s.Time, s.CrossRackUtilization, s.Saturated,
			slices.Clone(s.LinkUtilization), slices.Clone(s.ReceiveRate)})
	}
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.mon.noRest = noRest
	now := 0.0
	var live []FlowID
	for step := 0; step < 60; step++ {
		switch rng.IntN(4) {
		case 0: // a long stretch: idle or one constant load
			now += math.Ldexp(1, rng.IntN(11))
		default:
			now += rng.Float64() * 3
		}
		for te := n.NextEvent(); te <= now; te = n.NextEvent() {
			n.AdvanceTo(te, func(c Completion) { done = append(done, c) })
		}
		n.AdvanceTo(now, func(c Completion) { done = append(done, c) })
		switch r := rng.IntN(10); {
		case r < 6:
			src := rng.IntN(6)
			dst := (src + 1 + rng.IntN(5)) % 6
			id, err := n.Start(now, FlowSpec{Src: src, Dst: dst, Size: float64(1 + rng.IntN(400000)), Class: rng.IntN(2)})
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, id)
		case r < 8 && len(live) > 0:
			i := rng.IntN(len(live))
			n.Cancel(now, live[i])
			live = slices.Delete(live, i, i+1)
		case len(live) > 0:
			n.SetClass(now, live[rng.IntN(len(live))], rng.IntN(2))
		}
	}
	for te := n.NextEvent(); te < now+1e5 && n.ActiveFlows() > 0; te = n.NextEvent() {
		n.AdvanceTo(te, func(c Completion) { done = append(done, c) })
	}
	return calls, reads, done
}

// TestMonitorRestIsExact: skipping the samples of a resting monitor gives
// the same readings, sample for sample, and the same completions, bit for
// bit, as taking every sample; and it does skip.
func TestMonitorRestIsExact(t *testing.T) {
	skipped := 0
	for seed := range uint64(30) {
		for _, q := range []float64{0, 0.1} {
			t.Run(fmt.Sprintf("seed%d/granularity%g", seed, q), func(t *testing.T) {
				_, every, doneEvery := restRun(t, seed, true, q)
				calls, reads, doneRest := restRun(t, seed, false, q)
				if !slices.Equal(doneEvery, doneRest) {
					t.Fatalf("completions differ:\n every sample %v\n resting     %v", doneEvery, doneRest)
				}
				i := 0
				for c, s := range calls {
					if i+s.Count > len(every) {
						t.Fatalf("call %d stands for %d samples from %d, only %d taken one by one", c, s.Count, i, len(every))
					}
					if s.Since != every[i].time || s.Time != every[i+s.Count-1].time {
						t.Fatalf("call %d: samples %v..%v, taken one by one at %v..%v", c, s.Since, s.Time, every[i].time, every[i+s.Count-1].time)
					}
					for j := i; j < i+s.Count; j++ {
						if !every[j].same(reads[c]) {
							t.Fatalf("sample %d (t=%v) differs from the skipped stretch's reading at %v", j, every[j].time, s.Time)
						}
					}
					i += s.Count
					skipped += s.Count - 1
				}
				if i != len(every) {
					t.Fatalf("%d samples with skipping, %d one by one", i, len(every))
				}
			})
		}
	}
	if skipped == 0 {
		t.Error("no sample was ever skipped")
	}
}

// A flow across a 1 B/s link for 10^9 s costs a bounded number of samples.
func TestMonitorIdleTimeIsFree(t *testing.T) {
	calls := 0
	n, err := New(Config{Machines: machines(2, 2, 1),
		Monitor: MonitorConfig{Interval: 1, Window: 5, OnSample: func(Sample) { calls++ }}})
	if err != nil {
		t.Fatal(err)
	}
	mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1e9})
	got := runUntil(n, 2e9)
	if len(got) != 1 || got[0].Time != 1e9 {
		t.Fatalf("completions %v, want one at 1e9 s", got)
	}
	if calls > 10000 {
		t.Errorf("%d sample calls for 2e9 s: idle time is not free", calls)
	}
	if s := n.Monitor(); s.Time != 2e9 || s.LinkUtilization[1] != 0 {
		t.Errorf("last sample %v util %v, want t=2e9 and an idle link", s.Time, s.LinkUtilization)
	}
}

// The flow index holds the ids from the oldest active flow to the newest,
// not one slot per flow ever started.
func TestFlowIndexTrimmed(t *testing.T) {
	n := mustNew(t, Config{Machines: machines(4, 4, 100)})
	long := mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1e9})
	now := 0.0
	for i := range 10000 {
		mustStart(t, n, now, FlowSpec{Src: 2, Dst: 3, Size: 1})
		now += 1
		runUntil(n, now)
		if i == 5000 {
			n.Cancel(now, long)
		}
	}
	if n.ActiveFlows() != 0 || len(n.flows) > 2 {
		t.Errorf("%d active flows, index of %d entries after 10,001 flows, want 0 and at most 2", n.ActiveFlows(), len(n.flows))
	}
	id := mustStart(t, n, now, FlowSpec{Src: 2, Dst: 3, Size: 100})
	if id != 10002 || n.Rate(id) != 100 || n.Rate(long) != 0 || n.Rate(5) != 0 {
		t.Errorf("after trimming: new id %d rate %v, cancelled flow rate %v", id, n.Rate(id), n.Rate(long))
	}
}
