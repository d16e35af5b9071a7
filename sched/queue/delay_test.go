package queue_test

import (
	"fmt"
	"strings"
	"testing"
)

// smallJobs is the delay scheduling paper's setting: many small jobs
// reading DFS blocks on a multi-rack cluster, arriving while it is busy.
// Under fair, the job at the head of the order takes whatever slot frees,
// so few of its maps run where their data is.
func smallJobs(sched string) string {
	var b strings.Builder
	b.WriteString(`
cluster: {racks: 4, machines_per_rack: 5, slots_per_machine: 2, nic: 1GB/s}
network: {topology: two-tier, oversubscription: 4}
workload:
  jobs:
`)
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "    - {id: j%03d, arrival: %gs, stages: [{id: map, count: %d, input: 64MB, compute: 4s}]}\n", i, 0.25*float64(i), 1+i%3)
	}
	b.WriteString("scheduler: " + sched + "\n")
	return b.String()
}

// Delay scheduling raises node locality where fair does not; so do fair's
// own locality thresholds (§1.4), and capacity's default node delay barely
// does, since with few outstanding containers its off-switch delay
// (containers x locations / machines) is below one opportunity.
func TestDelayLocality(t *testing.T) {
	locality := func(sched string) float64 {
		r := run(t, smallJobs(sched))
		if r.Summary.Jobs != 120 {
			t.Fatalf("%s: %d jobs finished, want 120", sched, r.Summary.Jobs)
		}
		return r.Summary.NodeLocality
	}
	fair := locality("fair")
	if fair > 0.4 {
		t.Fatalf("fair alone reaches node locality %.3f; the scenario should keep it low", fair)
	}
	for _, c := range []struct {
		sched string
		min   float64
	}{
		{"delay", 0.65},
		{"{name: delay, params: {variant: skip, skips: 10}}", 0.85},
		{"{name: delay, params: {variant: wait}}", 0.9},
		{"{name: fair, params: {locality_node: 1, locality_rack: 1}}", 0.85},
	} {
		if got := locality(c.sched); got < c.min {
			t.Errorf("%s: node locality %.3f, want at least %.2f (fair: %.3f)", c.sched, got, c.min, fair)
		}
	}
	if got := locality("{name: delay, params: {skips: 0}}"); got != fair {
		t.Errorf("delay with D = 0 has node locality %.3f, want fair's %.3f", got, fair)
	}
}

// With delays that never run out every map waits for a machine holding its
// block: all run node-local, while fair takes the first free slot.
func TestDelayUnbounded(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 3, slots_per_machine: 1, nic: 1GB/s}
dfs: {replicas: 1}
workload:
  jobs:
    - {id: A, stages: [{id: map, count: 30, input: 64MB, compute: 1s}]}
    - {id: B, arrival: 2s, stages: [{id: map, count: 30, input: 64MB, compute: 1s}]}
scheduler: SCHED
`
	for _, sched := range []string{
		"{name: delay, params: {skips: 1000000}}",
		"{name: delay, params: {variant: wait, w1: 1000000s, w2: 1s}}",
	} {
		if got := run(t, replace(doc, "SCHED", sched)).Summary.NodeLocality; got != 1 {
			t.Errorf("%s: node locality %v, want 1", sched, got)
		}
	}
	if got := run(t, replace(doc, "SCHED", "fair")).Summary.NodeLocality; got == 1 {
		t.Errorf("fair: node locality 1; the scenario should make it miss")
	}
}
