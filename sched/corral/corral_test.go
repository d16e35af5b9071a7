package corral

import (
	"math"
	"slices"
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
)

// The LRF by hand on 4 racks of 10 slots and 2 machines (10 B/s NICs, 2
// B/s rack uplinks), for 30 maps of 2 s, 5 reduces of 3 s, 1200 B of
// shuffle:
//
//	r=1: 3 map waves (6 s) + max(0, 1200/(1x2x10) = 60) + 3 = 69
//	r=2: 2 waves (4 s) + max(1200x1/(4x2) = 150, 1200/(2x2x10) = 30) + 3 = 157
//	r=4: 1 wave (2 s) + max(1200x3/(16x2) = 112.5, 15) + 3 = 117.5
func TestLRF(t *testing.T) {
	c := cluster{racks: 4, slots: 10, machines: 2, nic: 10, up: 2}
	j := job{maps: 30, reds: 5, tMap: 2, tRed: 3, shuffle: 1200}
	for r, want := range map[int]float64{1: 69, 2: 157, 4: 117.5} {
		if got := c.lrf(j, r); math.Abs(got-want) > 1e-9 {
			t.Errorf("L(%d) = %g, want %g", r, got, want)
		}
	}
}

// Provisioning by hand on 2 racks: A (40 maps of 1 s) and B (10 maps),
// no shuffle: L_A(1) = 4, L_A(2) = 2, L_B = 1 either way. One rack each:
// A (longest) on rack 0 until 4, B on rack 1 until 1: makespan 4. Widen
// the job ending last, A: A first (widest) on both racks until 2, then B
// until 3: makespan 3, kept. Widen B (now last): both on both racks, still
// 3: no gain. No job can grow: the best is A on 2 racks, B on 1.
func TestProvisionBatch(t *testing.T) {
	c := cluster{racks: 2, slots: 10, machines: 1, nic: 1, up: 1}
	jobs := []job{{id: "A", maps: 40, tMap: 1}, {id: "B", seq: 1, maps: 10, tMap: 1}}
	r, s := c.provision(jobs, true, 100)
	if !slices.Equal(r, []int{2, 1}) || objective(jobs, s, true) != 3 {
		t.Errorf("racks %v, makespan %g; want [2 1] and 3", r, objective(jobs, s, true))
	}
	if s.start[1] != 2 || !slices.Equal(s.racks[0], []int{0, 1}) {
		t.Errorf("B starts at %g, A on racks %v", s.start[1], s.racks[0])
	}
}

// Online: jobs by arrival; each waits for its racks.
func TestListOnline(t *testing.T) {
	c := cluster{racks: 2, slots: 10, machines: 1, nic: 1, up: 1}
	jobs := []job{{id: "late", arrival: 5, maps: 10, tMap: 1}, {id: "early", seq: 1, maps: 30, tMap: 1}}
	s := c.list(jobs, []int{1, 1}, false)
	if s.start[1] != 0 || s.end[1] != 3 || s.start[0] != 5 || !slices.Equal(s.racks[0], []int{1}) {
		t.Errorf("early %g-%g, late from %g on %v; want 0-3, 5 on rack 1 (free first)", s.start[1], s.end[1], s.start[0], s.racks[0])
	}
}

// A planned job runs only on its planned racks, its input is uploaded
// there, and each rack runs its jobs in plan order.
func TestCorralPinsJobsToRacks(t *testing.T) {
	doc := `
cluster: {racks: 3, machines_per_rack: 2, slots_per_machine: 2, nic: 1GB/s}
network: {topology: two-tier, rack_uplink: 100MB/s, rack_downlink: 100MB/s}
workload:
  jobs:
    - {id: a, recurring: true, stages: [{id: map, count: 8, input: 100MB, compute: 2s, output: 50MB}, {id: reduce, after: [{stage: map, slowstart: 0.05}], count: 2, compute: 1s}]}
    - {id: b, recurring: true, stages: [{id: map, count: 4, input: 100MB, compute: 1s, output: 10MB}, {id: reduce, after: [{stage: map, slowstart: 0.05}], count: 1, compute: 1s}]}
    - {id: c, recurring: true, stages: [{id: map, count: 2, input: 100MB, compute: 1s}]}
`
	c := DefaultConfig()
	c.EPS = 100e6
	s := New(c)
	res := schedtest.Run(t, doc, s)
	for _, tr := range res.Tasks {
		racks := s.plan.Input[tr.Job].Racks
		if !slices.Contains(racks, tr.Machine/2) {
			t.Errorf("%s/%s[%d] ran on rack %d, planned %v", tr.Job, tr.Stage, tr.Index, tr.Machine/2, racks)
		}
		if tr.Stage == "map" && tr.Locality == "off-switch" {
			t.Errorf("%s map %d read across racks", tr.Job, tr.Index)
		}
	}
	if len(res.Jobs) != 3 {
		t.Errorf("%d jobs finished", len(res.Jobs))
	}
}
