package dawn_test

import (
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/dawn"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// placed wraps Dawn with a data placement chosen by the test (embedding
// the concrete type keeps the optional interfaces the engine looks for).
type placed struct {
	*dawn.Scheduler
	replicas map[string][]int // job id -> machines of every split
	byTask   map[string][][]int
}

func (p placed) PlaceInput(v sched.View, in sched.InputSplit) []int {
	if t := p.byTask[in.Job.ID]; t != nil {
		return t[in.Task]
	}
	return p.replicas[in.Job.ID]
}

// A workflow whose four first jobs w1-w4 (four 10 s maps each, input on
// machine 0) all prefer rack 0 (P_0 = 4) and whose last job w5 reads them,
// next to job A, whose twenty maps read machine 2 and prefer rack 1 (P_1 =
// 1 while w1-w4 place: A needs 50 s of rack 1's four containers). With
// b = 0 rack 1 is never balanced (P_1 > 0) and w1-w4 stay in rack 0. With
// b = 0.5, 1 < 0.5 x 4: rack 1 joins w1's preferred racks, and while the
// network is not saturated Alg. 1 takes w1 (traffic > 0) before A (0) in
// rack 1: the workflow runs on both racks.
func TestBalancingSpreadsWorkflow(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
dfs: {replicas: 1}
engine: {heartbeat: 1s}
workload:
  jobs:
    - {id: A, stages: [{id: map, count: 20, input: 100MB, compute: 10s}]}
    - {id: w1, stages: [{id: map, count: 4, input: 100MB, compute: 10s, output: 1MB}]}
    - {id: w2, stages: [{id: map, count: 4, input: 100MB, compute: 10s, output: 1MB}]}
    - {id: w3, stages: [{id: map, count: 4, input: 100MB, compute: 10s, output: 1MB}]}
    - {id: w4, stages: [{id: map, count: 4, input: 100MB, compute: 10s, output: 1MB}]}
    - {id: w5, after: [w1, w2, w3, w4], stages: [{id: map, count: 1, compute: 1s}]}
`
	reps := map[string][]int{"A": {2}, "w1": {0}, "w2": {0}, "w3": {0}, "w4": {0}}
	for _, c := range []struct {
		b     float64
		racks int
	}{{0, 1}, {0.5, 2}} {
		cfg := dawn.DefaultConfig()
		cfg.Balance = c.b
		d := dawn.New(cfg)
		r := schedtest.Run(t, doc, placed{Scheduler: d, replicas: reps})
		used := map[int]bool{}
		for _, job := range []string{"w1", "w2", "w3", "w4"} {
			for _, tr := range schedtest.Tasks(r, job, "map") {
				used[tr.Machine/2] = true
			}
		}
		if len(used) != c.racks {
			t.Errorf("b = %g: the workflow ran on racks %v, want %d rack(s)", c.b, used, c.racks)
		}
		if c.b > 0 && d.Stats().Balances == 0 {
			t.Errorf("b = %g: no balancing", c.b)
		}
	}
}
