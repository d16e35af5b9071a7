package nas_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/nas"
)

// The counters nasstats prints, on the mechanism tests' scenarios:
// each mechanism's counter moves where the mechanism changed a
// decision, and stays at zero when it is switched off.

// MTS (TestMTSSpreadsHeavyMaps' scenario): budget 100 MB per machine. The
// first machine offered takes H's first map (100 MB, exactly the budget),
// then has 0 B left: H's second map is refused by the budget and L's map
// launches instead, a pick the budget changed. Without TrafficThreshold
// nothing is refused.
func TestStatsMTS(t *testing.T) {
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
	s := placed{perJob(nas.New(config(func(c *nas.Config) { c.KnownShuffle = true }))), both}
	schedtest.Run(t, doc, s)
	st := s.Stats()
	if st.BudgetChanged < 1 || st.Jobs["H"] == nil || st.Jobs["H"].BudgetRefused < 1 {
		t.Fatalf("NAS: BudgetChanged %d, H's refusals %+v; want the budget to change at least one pick, refusing H", st.BudgetChanged, st.Jobs["H"])
	}
	s = placed{nas.New(config(func(c *nas.Config) { c.KnownShuffle = true; c.TrafficThreshold = false })), both}
	schedtest.Run(t, doc, s)
	if st := s.Stats(); st.BudgetChanged != 0 || st.BudgetSkipped != 0 {
		t.Fatalf("w/o TT: BudgetChanged %d, BudgetSkipped %d, want 0", st.BudgetChanged, st.BudgetSkipped)
	}
}

// CR-RTS (crrtsDoc): while the core is congested u1's request serves L's
// light reducer at 5 s (one light launch), then skips u1 on H's heavy
// reducer (marked delayed) at every request until the congestion clears;
// the map hold is on from 5 s. With cr_rts: false nothing of this counts.
func TestStatsCRRTS(t *testing.T) {
	s := perJob(nas.New(nas.DefaultConfig()))
	schedtest.Run(t, crrtsDoc, s)
	st := s.Stats()
	if st.CRRTSLight != 1 || st.CRRTSSkipped < 1 || st.Activations < 2 || st.Jobs["H"] == nil || st.Jobs["H"].CRDelayed < 1 {
		t.Fatalf("NAS: light %d, skipped %d, activations %d, H %+v; want 1 light reducer, H delayed", st.CRRTSLight, st.CRRTSSkipped, st.Activations, st.Jobs["H"])
	}
	if mean := st.CongestionSum / float64(st.Activations); mean < 0.8 || mean > 1 {
		t.Fatalf("NAS: mean utilisation at CR-RTS activations %v, want in [0.8, 1]", mean)
	}
	s = nas.New(config(func(c *nas.Config) { c.CRRTS = false }))
	schedtest.Run(t, crrtsDoc, s)
	if st := s.Stats(); st.Activations != 0 || st.CRRTSLight+st.CRRTSSkipped+st.CRRTSForced != 0 || st.HoldTicks != 0 {
		t.Fatalf("MTS+CA-RTS: CR-RTS counters %+v, want 0", st)
	}
}

// CA-RTS (TestCARTSProportionalReducers' scenario, one user): once J1 holds
// its ReduceNum on a rack (3 on rack 0, 1 on rack 1) while its other
// reducers still wait, the rack's next reducer is J2's, where the MTS-only
// order (arrival) would take J1's: at least one reducer moved on each rack.
// Without CA-RTS no reducer is counted.
func TestStatsCARTS(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: J1
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
    - id: J2
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
scheduler: nas
`
	s := perJob(nas.New(nas.DefaultConfig()))
	schedtest.Run(t, doc, s)
	st := s.Stats()
	if st.CARTS != 8 || st.CARTSMoved < 2 || st.Jobs["J2"] == nil || st.Jobs["J2"].CARTSMoved < 2 || st.Jobs["J1"].CARTSDisplaced < 2 {
		t.Fatalf("CA-RTS: placed %d, moved %d, J1 %+v, J2 %+v; want 8 placed, J2 ahead of J1 at least once per rack", st.CARTS, st.CARTSMoved, st.Jobs["J1"], st.Jobs["J2"])
	}
	s = nas.New(config(func(c *nas.Config) { c.CARTS, c.CRRTS = false, false }))
	schedtest.Run(t, doc, s)
	if st := s.Stats(); st.CARTS != 0 || st.CARTSMoved != 0 {
		t.Fatalf("MTS only: CA-RTS counters %d, %d, want 0", st.CARTS, st.CARTSMoved)
	}
}

// CA-RTS's bytes, by hand, on TestCARTSProportionalReducers' scenario: each
// map's 10 MB output is fetched evenly by its job's 4 reducers, 2.5 MB per
// map and reducer. With J1's reducers 3 on rack 0 and 1 on rack 1 (its maps
// 3:1), J1 crosses racks 3 × 2.5 MB (rack-0 reducers from the rack-1 map)
// + 3 × 2.5 MB (the rack-1 reducer from the rack-0 maps) = 15 MB; J2 the
// same by symmetry: 30 MB. Without CA-RTS each job's 4 reducers share one
// machine: 4 × 2.5 = 10 MB per job (20 MB) when J1 gets rack 0, or
// 4 × 3 × 2.5 = 30 MB per job (60 MB) when it gets rack 1. So CA-RTS is
// recognised by its 30 MB; note that it is not the minimum (20 MB): the
// proportional rule splits a job's reducers even when one rack holds most
// of its output.
func TestCARTSCrossRackBytes(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: J1
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
    - id: J2
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
scheduler: nas
`
	cross := func(c nas.Config) float64 {
		r := schedtest.Run(t, doc, nas.New(c))
		sum := 0.0
		for _, j := range r.Jobs {
			sum += j.CrossRack
		}
		return sum
	}
	if got := cross(nas.DefaultConfig()); !schedtest.Near(got, 30e6) {
		t.Fatalf("CA-RTS: cross-rack bytes %v, want 30 MB", got)
	}
	got := cross(config(func(c *nas.Config) { c.CARTS, c.CRRTS = false, false }))
	if !schedtest.Near(got, 20e6) && !schedtest.Near(got, 60e6) {
		t.Fatalf("MTS only: cross-rack bytes %v, want 20 MB or 60 MB", got)
	}
}

// MTS's effect on time, by hand. Two racks of one 2-container machine with
// 10 MB/s rack links; H's two maps (10 MB input, 5 s) will write 100 MB each
// (known sizes), its reducer is pinned to machine 0 and computes 1 s; L is
// map-only. Every split has replicas on both machines. TrafficThreshold is
// 2 · 200 MB / 4 maps = 100 MB per machine, so MTS puts one heavy map on
// each machine (TestMTSSpreadsHeavyMaps). The maps end at 5 s; the reducer
// reads 100 MB locally and 100 MB across the core at 10 MB/s (10 s), then
// computes 1 s: H ends at 16 s. Without TrafficThreshold both heavy maps
// share the first machine offered: H ends at 6 s (machine 0, nothing
// crosses) or 26 s (machine 1, 200 MB cross), never 16 s.
func TestMTSJobTime(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 2, nic: 1Gbps}
network: {topology: two-tier, rack_uplink: 10MB/s, rack_downlink: 10MB/s}
dfs: {replicas: 2}
workload:
  jobs:
    - id: H
      stages:
        - {id: map, count: 2, input: 10MB, compute: 5s, output_ratio: 10}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: L
      stages:
        - {id: map, count: 2, input: 10MB, compute: 5s}
scheduler: nas
`
	both := map[string][]int{"H": {0, 1}, "L": {0, 1}}
	jct := func(c nas.Config) float64 {
		r := schedtest.Run(t, doc, placed{nas.New(c), both})
		for _, j := range r.Jobs {
			if j.ID == "H" {
				return j.JCT
			}
		}
		t.Fatal("H did not finish")
		return 0
	}
	if got := jct(config(func(c *nas.Config) { c.KnownShuffle = true })); !schedtest.Near(got, 16) {
		t.Fatalf("NAS: H's JCT %v, want 16 s (one heavy map per machine)", got)
	}
	got := jct(config(func(c *nas.Config) { c.KnownShuffle = true; c.TrafficThreshold = false }))
	if !schedtest.Near(got, 6) && !schedtest.Near(got, 26) {
		t.Fatalf("w/o TT: H's JCT %v, want 6 s or 26 s (both heavy maps on one machine)", got)
	}
}

// perJob turns on s's per-job counters.
func perJob(s *nas.Scheduler) *nas.Scheduler {
	s.CountPerJob()
	return s
}
