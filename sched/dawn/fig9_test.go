package dawn_test

import (
	"testing"

	"github.com/netsched/netsched/sched/dawn"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// Fig. 9 on two racks (racks 0 and 1 are the paper's racks 1 and 2). Four
// level-1 jobs have their maps pinned so that their intermediate data sits
// as the figure's level-1 profile: job 1 6 GB on rack 0 and 4 GB on rack 1,
// job 2 4 and 6, job 3 4 and 6, job 4 6 and 4. Each has one reducer that
// writes what it reads (the figure's 1:1 ratio). Job 5 reads jobs 1 and 2,
// job 6 jobs 3 and 4; their maps and reducers also keep sizes 1:1. Jobs 2
// and 4 compute their maps for 100 s, so jobs 1 and 3 have finished when
// their reducers are placed (the greedy dep_reduce knows their output).
//
// Per-job placement (dependency: false, ShuffleWatcher's choice in Fig.
// 9(b)): every reducer goes where its job's map output is larger, 4 GB
// crosses racks per job (16 GB); the level-2 inputs are then split 10/10
// and each level-2 job reads 10 GB across racks wherever its maps run
// (each map reads its share of both parents): 16 + 20 = 36 GB.
//
// Dawn (Fig. 9(c)): jobs 1 and 3 have no finished Prev, so dep_reduce =
// max_reduce: racks 0 and 1, 4 GB each. Job 2's dep_reduce is rack 0
// (next to job 1's output; max_reduce is rack 1), job 4's rack 1: 6 GB
// each. While the network is not saturated Alg. 1 takes the rack of most
// traffic, the dep_reduce one. Level 2 then reads 20 GB in one rack, runs
// its maps there (max_map, no traffic) and its reducer next to the maps:
// 4 + 6 + 4 + 6 = 20 GB, 44% less. Held as if always saturated, job 2 and
// 4's reducers take the least-traffic rack, max_reduce: 36 GB again.
//
// Balancing is off: the figure shows the plan alone, in a cluster with no
// idle rack (here every rack would otherwise pull the reducers of the lone
// jobs toward it). Selected racks: with any preferred rack, the first rack
// heartbeat after the maps end would decide.
const fig9 = `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 10Gbps}
network: {topology: two-tier, oversubscription: 1}
engine: {heartbeat: 1s}
workload:
  jobs:
    - id: j1
      stages:
        - {id: map, tasks: [{compute: 1s, output: 6GB, pin: 0}, {compute: 1s, output: 4GB, pin: 2}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, output_ratio: 1}]}
    - id: j2
      stages:
        - {id: map, tasks: [{compute: 100s, output: 4GB, pin: 0}, {compute: 100s, output: 6GB, pin: 2}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, output_ratio: 1}]}
    - id: j3
      stages:
        - {id: map, tasks: [{compute: 1s, output: 4GB, pin: 1}, {compute: 1s, output: 6GB, pin: 3}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, output_ratio: 1}]}
    - id: j4
      stages:
        - {id: map, tasks: [{compute: 100s, output: 6GB, pin: 1}, {compute: 100s, output: 4GB, pin: 3}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, output_ratio: 1}]}
    - id: j5
      after: [j1, j2]
      stages:
        - {id: map, count: 2, compute: 1s, output_ratio: 1}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
    - id: j6
      after: [j3, j4]
      stages:
        - {id: map, count: 2, compute: 1s, output_ratio: 1}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
`

func fig9Config(fn func(c *dawn.Config)) dawn.Config {
	c := dawn.DefaultConfig()
	c.Balancing = false
	c.RackChoice = "selected"
	if fn != nil {
		fn(&c)
	}
	return c
}

func TestFig9CrossRack(t *testing.T) {
	for _, c := range []struct {
		name                    string
		cfg                     dawn.Config
		shuffle, dep, wantTotal float64 // GB across racks
		reducerRack             [4]int  // of jobs 1-4
	}{
		{"per-job", fig9Config(func(c *dawn.Config) { c.Dependency = false }), 16, 20, 36, [4]int{0, 1, 1, 0}},
		{"dawn", fig9Config(nil), 20, 0, 20, [4]int{0, 0, 1, 1}},
		{"dawn-saturated", fig9Config(func(c *dawn.Config) { c.Order = "least-traffic" }), 16, 20, 36, [4]int{0, 1, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := schedtest.Run(t, fig9, dawn.New(c.cfg))
			b := r.Summary.Bytes
			if !schedtest.Near(b.Total.CrossRack, c.wantTotal*1e9) || !schedtest.Near(b.Shuffle.CrossRack, c.shuffle*1e9) ||
				!schedtest.Near(b.Dependent.CrossRack, c.dep*1e9) {
				t.Errorf("cross-rack bytes: total %g, shuffle %g, dependent %g; want %g GB, %g GB, %g GB",
					b.Total.CrossRack, b.Shuffle.CrossRack, b.Dependent.CrossRack, c.wantTotal, c.shuffle, c.dep)
			}
			for i, job := range []string{"j1", "j2", "j3", "j4"} {
				if got := schedtest.Tasks(r, job, "reduce")[0].Machine / 2; got != c.reducerRack[i] {
					t.Errorf("%s's reducer ran in rack %d, want %d", job, got, c.reducerRack[i])
				}
			}
		})
	}
}
