package sim_test

import (
	"fmt"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// oneToOne is a job of two stages of n tasks each joined by a one-to-one
// edge (under slow-start, so that reducers start while maps finish: every
// path that walks an edge is taken).
func oneToOne(n int) string {
	return fmt.Sprintf(`
cluster: {racks: 2, machines_per_rack: 4, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, count: %d, compute: 1ms, output: 1KB}
        - id: red
          after: [{stage: map, pattern: one-to-one, slowstart: 0.5}]
          count: %d
          compute: 1ms
scheduler: fifo
`, n, n)
}

// A one-to-one edge costs a visit per task, not one per pair of tasks: 100k
// to 100k tasks took 23 s and 1M to 1M about 40 minutes when sizes, shuffle
// queues and completions walked the whole parent (or child) stage for each
// task.
func TestOneToOneEdgeIsLinear(t *testing.T) {
	const n = 4000
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(oneToOne(n)), ".")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sched.NewScheduler("fifo", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, visits, err := sim.RunCountingEdgeVisits(sc, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Tasks != 2*n {
		t.Fatalf("%d tasks done, want %d", res.Summary.Tasks, 2*n)
	}
	// Each reducer is visited once for its size, once for its shuffle
	// queue and once when its map finishes.
	if visits > 3*n {
		t.Errorf("%d tasks visited along the edge for %d reducers, want at most %d (one per path and reducer)", visits, n, 3*n)
	}
}

func BenchmarkOneToOneEdge(b *testing.B) {
	sc, err := scenario.Parse("bench.yaml", []byte(oneToOne(100_000)), ".")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := sim.Run(sc); err != nil {
			b.Fatal(err)
		}
	}
}
