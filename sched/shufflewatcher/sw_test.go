package shufflewatcher_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/shufflewatcher"
)

// placed wraps sw-delay with a data placement chosen by the test (nas's
// tests have their own: embedding the concrete type keeps the optional
// interfaces the engine looks for).
type placed struct {
	*shufflewatcher.Scheduler
	replicas map[string][]int
}

func (p placed) PlaceInput(v sched.View, in sched.InputSplit) []int { return p.replicas[in.Job.ID] }

func config(fn func(c *shufflewatcher.Config)) shufflewatcher.Config {
	c := shufflewatcher.DefaultConfig()
	fn(&c)
	return c
}

// Idea 1, deferral. B's reducers fill every rack link over [0, 10] s; the
// smoothed utilisation (1 s samples, 1 s window) is above 0.8 from 2 s and
// falls to 0.37 (< 0.5) at the 11 s sample. At 5 s H (10 MB in, 200 MB
// shuffle: ratio 20, heavy) and L (10 MB in, 0.5 MB: light) finish their
// maps on machine 0. L's reducer starts at once; H's is deferred until the
// 11 s sample when the fairness guard is off (fair_slack 1). With the
// default guard H runs no container, below 90% of its fair share (8/3), so
// it is not deferred.
func TestDeferHeavyShuffleWhileCongested(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 100MB/s}
network: {topology: two-tier, rack_uplink: 10MB/s, rack_downlink: 10MB/s, monitor: {interval: 1s, window: 1s}}
dfs: {replicas: 1}
workload:
  jobs:
    - id: B
      stages:
        - {id: map, tasks: [{compute: 0s, output: 200MB, pin: 0}, {compute: 0s, output: 200MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 1}]}
    - id: H
      arrival: 5s
      stages:
        - {id: map, tasks: [{input: 10MB, compute: 0s, output: 200MB, pin: 0}]}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
    - id: L
      arrival: 5s
      stages:
        - {id: map, tasks: [{input: 10MB, compute: 0s, output: 0.5MB, pin: 0}]}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
scheduler: sw-delay
`
	reps := map[string][]int{"H": {0}, "L": {0}}
	r := schedtest.Run(t, doc, placed{shufflewatcher.New(config(func(c *shufflewatcher.Config) { c.FairSlack = 1 })), reps})
	h, l := schedtest.Tasks(r, "H", "reduce")[0].Start, schedtest.Tasks(r, "L", "reduce")[0].Start
	if !schedtest.Near(l, 5) || h < 10 || h > 12 {
		t.Fatalf("no fairness guard: reducers of L at %v (want 5) and H at %v (want 10-12, after the congestion)", l, h)
	}
	r = schedtest.Run(t, doc, placed{shufflewatcher.New(shufflewatcher.DefaultConfig()), reps})
	if h := schedtest.Tasks(r, "H", "reduce")[0].Start; !schedtest.Near(h, 5) {
		t.Fatalf("fairness guard: H's reducer started at %v, want 5 (H is under its fair share)", h)
	}
}

// Idea 3: reducers in proportion to map output per rack (same layout as
// NAS's CA-RTS test): J1's output is 3:1 on racks 0:1, J2's 1:3; each rack
// takes ceil(4 x share) of a job's reducers, so J1 gets 3 and 1, J2 1 and 3.
func TestReducersFollowMapOutput(t *testing.T) {
	pins := func(a, b, c, d int) string {
		return fmt.Sprintf(`[{compute: 1s, output: 10MB, pin: %d}, {compute: 1s, output: 10MB, pin: %d}, {compute: 1s, output: 10MB, pin: %d}, {compute: 1s, output: 10MB, pin: %d}]`, a, b, c, d)
	}
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: J1
      stages:
        - {id: map, tasks: ` + pins(0, 0, 0, 1) + `}
        - {id: reduce, after: map, count: 4, compute: 1s}
    - id: J2
      stages:
        - {id: map, tasks: ` + pins(0, 1, 1, 1) + `}
        - {id: reduce, after: map, count: 4, compute: 1s}
scheduler: sw-delay
`
	r := schedtest.Run(t, doc, shufflewatcher.New(config(func(c *shufflewatcher.Config) { c.Skips = 100 })))
	if n := schedtest.PerMachine(r, "J1", "reduce", 2); n[0] != 3 || n[1] != 1 {
		t.Fatalf("J1 reducers per rack %v, want [3 1]", n)
	}
	if n := schedtest.PerMachine(r, "J2", "reduce", 2); n[0] != 1 || n[1] != 3 {
		t.Fatalf("J2 reducers per rack %v, want [1 3]", n)
	}
}

// Idea 2: a shuffle-heavy job's maps stay in its preferred rack set. Two
// racks of two 1-container machines; both splits have replicas on machine
// 0 (rack 0) and machine 2 (rack 1): a tie, so the set is rack 0 (one rack
// holds the job's 2 maps). The heavy job runs one map node-local on machine
// 0 and the other rack-local on machine 1, never in rack 1. A light job
// with the same splits runs node-local on machines 0 and 2.
func TestHeavyMapsStayInRackSet(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
dfs: {replicas: 2}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 2, input: 10MB, compute: 5s, output_ratio: RATIO}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
scheduler: sw-delay
`
	reps := map[string][]int{"A": {0, 2}}
	sw := func() placed {
		return placed{shufflewatcher.New(config(func(c *shufflewatcher.Config) { c.Skips = 100 })), reps}
	}
	r := schedtest.Run(t, strings.Replace(doc, "RATIO", "2", 1), sw())
	if n := schedtest.PerMachine(r, "A", "map", 4); n[0] != 1 || n[1] != 1 {
		t.Fatalf("heavy job: maps per machine %v, want [1 1 0 0] (rack 0 only)", n)
	}
	r = schedtest.Run(t, strings.Replace(doc, "RATIO", "0.01", 1), sw())
	if n := schedtest.PerMachine(r, "A", "map", 4); n[0] != 1 || n[2] != 1 {
		t.Fatalf("light job: maps per machine %v, want [1 0 1 0] (node-local)", n)
	}
}

func TestRegisteredAsReconstruction(t *testing.T) {
	info, ok := sched.Lookup("sw-delay")
	if !ok {
		t.Fatal("sw-delay is not registered")
	}
	if !strings.Contains(info.Description, "reconstruction") {
		t.Fatalf("description %q does not say it is a reconstruction", info.Description)
	}
	for _, bad := range []map[string]any{{"defer_above": 2}, {"resume_below": 0.9}, {"fair_slack": -1}, {"skip": 3}} {
		if _, err := sched.NewScheduler("sw-delay", bad); err == nil {
			t.Errorf("params %v accepted", bad)
		}
	}
}
