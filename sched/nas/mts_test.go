package nas_test

import (
	"math"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/nas"
)

// Eq. 3 on hand-made job lists: TrafficThreshold = m·ΣS_i/ΣK_i.
func TestTrafficThresholdEq3(t *testing.T) {
	cases := []struct {
		m       int
		shuffle []float64
		maps    []int
		want    float64
	}{
		// 6 containers; 900 MB over 60 maps: 15 MB per map, 90 MB per node.
		{6, []float64{600e6, 0, 300e6}, []int{10, 20, 30}, 90e6},
		// One job: a node's budget is its containers' share of one wave.
		{4, []float64{40e6}, []int{8}, 20e6},
		// Map-only jobs lower the budget: they take waves without shuffle.
		{2, []float64{0}, []int{5}, 0},
		// No map in the cluster: nothing to balance.
		{6, nil, nil, math.Inf(1)},
	}
	for _, c := range cases {
		if got := nas.TrafficThreshold(c.m, c.shuffle, c.maps); got != c.want {
			t.Errorf("TrafficThreshold(%d, %v, %v) = %g, want %g", c.m, c.shuffle, c.maps, got, c.want)
		}
	}
}

// thresholdProbe records machine 0's TrafficThreshold at every tick.
type thresholdProbe struct {
	*nas.Scheduler
	at  []float64
	got []float64
}

func (p *thresholdProbe) Tick(v sched.View) { p.Ticks(v, 1) }

// Ticks records n equal readings: the engine passes ticks with nothing in
// between in one call (at the first's time).
func (p *thresholdProbe) Ticks(v sched.View, n int) {
	p.Scheduler.Ticks(v, n)
	for range n {
		p.at = append(p.at, v.Now())
		p.got = append(p.got, p.Threshold(v, 0))
	}
}

// The periodic recomputation follows the predictor. One machine with 4
// containers; A has 2 maps of 10 MB whose output is 2x their input (1.5 s
// each, run together) and a 5 s reducer; B is map-only, 3 maps of 10 s.
// Tick at 1 s: A is unpredicted (ratio 1, S_A = 20 MB), S_B = 0, ΣK = 5:
// 4·20/5 = 16 MB. Tick at 2 s: A's maps finished at 1.5 s, ratio 2,
// S_A = 40 MB: 4·40/5 = 32 MB. Ticks at 3-6 s: B still runs, A's reducer
// runs until 6.5 s: still 32 MB.
func TestThresholdRecomputedFromPredictions(t *testing.T) {
	p := &thresholdProbe{Scheduler: nas.New(nas.DefaultConfig())}
	schedtest.Run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 4, nic: 1Gbps}
dfs: {replicas: 1}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 2, input: 10MB, compute: 1.5s, output_ratio: 2}
        - {id: reduce, after: map, tasks: [{compute: 5s}]}
    - id: B
      stages:
        - {id: map, count: 3, input: 10MB, compute: 10s, output_ratio: 1}
scheduler: nas
`, p)
	want := []float64{16e6, 32e6, 32e6, 32e6, 32e6, 32e6}
	for i, w := range want {
		if i >= len(p.got) || !schedtest.Near(p.got[i], w) {
			t.Fatalf("thresholds at ticks %v = %v, want %v first", p.at, p.got, want)
		}
	}
}

// Skip counting: machine 0 is free, A's only map has its single replica on
// machine 1, which B's 100 s task holds. A arrives at 0.5 s; the arrival is
// one opportunity, then machine 0 heartbeats every second from some φ >
// 0.5. With D^m = 0 the map launches non-local at once; with D^m = k it is
// skipped k times and launches at the k-th heartbeat, φ + k - 1: one
// heartbeat later for each extra skip.
func TestMapSkipCount(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
dfs: {replicas: 1}
engine: {heartbeat: 1s}
workload:
  jobs:
    - {id: B, user: b, stages: [{id: s, tasks: [{compute: 100s, pin: 1}]}]}
    - {id: A, user: a, arrival: 0.5s, stages: [{id: map, tasks: [{input: 1MB, compute: 1s}]}]}
scheduler: nas
`
	start := func(skips int) float64 {
		s := placed{nas.New(config(func(c *nas.Config) { c.MapSkips = skips })), map[string][]int{"A": {1}}}
		r := schedtest.Run(t, doc, s)
		tr := schedtest.Tasks(r, "A", "map")[0]
		if tr.Machine != 0 {
			t.Fatalf("D^m=%d: A's map ran on machine %d, want 0", skips, tr.Machine)
		}
		return tr.Start
	}
	if got := start(0); !schedtest.Near(got, 0.5) {
		t.Fatalf("D^m=0: map started at %v, want 0.5 (no skip)", got)
	}
	s1, s3, s4 := start(1), start(3), start(4)
	if s1 <= 0.5 || s1 > 2.5 {
		t.Fatalf("D^m=1: map started at %v, want a heartbeat after 0.5", s1)
	}
	if !schedtest.Near(s3, s1+2) || !schedtest.Near(s4, s1+3) {
		t.Fatalf("D^m=1,3,4: starts %v, %v, %v; want one heartbeat (1 s) per extra skip", s1, s3, s4)
	}
}

// MTS spreads heavy-output maps. Two machines with 2 containers each; H's
// two maps will write 100 MB each, L is map-only (no shuffle); every split
// has replicas on both machines, and sizes are known. TrafficThreshold =
// 2·200 MB/4 maps = 100 MB per node: the first machine offered takes a heavy
// map (closest to the budget), then has 0 left and takes a light one, so
// the heavy maps land on different machines. Without TrafficThreshold
// every map qualifies and the earlier job's maps fill the first machine.
func TestMTSSpreadsHeavyMaps(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
dfs: {replicas: 2}
workload:
  jobs:
    - id: H
      stages:
        - {id: map, count: 2, input: 10MB, compute: 5s, output_ratio: 10}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
    - id: L
      stages:
        - {id: map, count: 2, input: 10MB, compute: 5s}
scheduler: nas
`
	both := map[string][]int{"H": {0, 1}, "L": {0, 1}}
	r := schedtest.Run(t, doc, placed{nas.New(config(func(c *nas.Config) { c.KnownShuffle = true })), both})
	if n := schedtest.PerMachine(r, "H", "map", 2); n[0] != 1 || n[1] != 1 {
		t.Fatalf("NAS: heavy maps per machine %v, want [1 1]", n)
	}
	r = schedtest.Run(t, doc, placed{nas.New(config(func(c *nas.Config) { c.KnownShuffle = true; c.TrafficThreshold = false })), both})
	if n := schedtest.PerMachine(r, "H", "map", 2); n[0] != 2 && n[1] != 2 {
		t.Fatalf("w/o TT: heavy maps per machine %v, want both on one machine", n)
	}
}
