package shufflewatcher_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/shufflewatcher"
)

// Idea 2 for a job of a workflow (Dawn's workloads): C's maps read only
// its parent P's output, which P's maps wrote in rack 1. C is
// shuffle-heavy (it maps all it reads), its fair share (8 containers / 2
// jobs) fits in one rack of four: its rack set is rack 1, where the bytes
// are, and its eight maps run there, four at a time, although rack 0
// offers containers all along (without the rack set, the four that do not
// fit in rack 1 would start there at once).
func TestDependentMapsFollowParentOutput(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: P
      stages:
        - {id: map, tasks: [{compute: 1s, output: 100MB, pin: 2}, {compute: 1s, output: 100MB, pin: 3}]}
    - id: C
      after: [P]
      stages:
        - {id: map, count: 8, compute: 5s, output_ratio: 1}
        - {id: reduce, after: map, count: 1, compute: 1s}
    - id: B
      stages:
        - {id: map, count: 1, compute: 30s}
scheduler: sw-delay
`
	r := schedtest.Run(t, doc, shufflewatcher.New(config(func(c *shufflewatcher.Config) { c.Skips = 100 })))
	if n := schedtest.PerMachine(r, "C", "map", 4); n[2]+n[3] != 8 {
		t.Fatalf("C's maps per machine %v, want all eight in rack 1 (machines 2, 3)", n)
	}
}

// Idea 3 for each shuffle of a Tez job: the scan writes 3:1 on racks 0:1,
// the join's four tasks are pinned 1:3, and the final stage, which reads
// the join, takes its racks from the join's output (1:3), not from the
// scan's (3:1).
func TestTezStagesFollowTheirParents(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 8, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: q
      stages:
        - {id: scan, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}]}
        - id: join
          after: scan
          tasks: [{compute: 1s, output_ratio: 1, pin: 0}, {compute: 1s, output_ratio: 1, pin: 1}, {compute: 1s, output_ratio: 1, pin: 1}, {compute: 1s, output_ratio: 1, pin: 1}]
        - {id: final, after: join, count: 4, compute: 1s}
scheduler: sw-delay
`
	r := schedtest.Run(t, doc, shufflewatcher.New(config(func(c *shufflewatcher.Config) { c.Skips = 100 })))
	if n := schedtest.PerMachine(r, "q", "final", 2); n[0] != 1 || n[1] != 3 {
		t.Fatalf("final stage per rack %v, want [1 3] like the join's output", n)
	}
}
