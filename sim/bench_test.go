package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// syntheticScenario: jobs x (maps + reducers) tasks of MapReduce on a
// 200-machine two-tier cluster, a job every second.
func syntheticScenario(b *testing.B, jobs, maps, reducers int) *scenario.Scenario {
	var w strings.Builder
	w.WriteString(`
cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 2}
scheduler: fifo
workload:
  jobs:
`)
	for i := 0; i < jobs; i++ {
		fmt.Fprintf(&w, `    - id: j%d
      arrival: %ds
      stages:
        - {id: map, count: %d, input: {dist: uniform, min: 16MB, max: 128MB}, compute: {dist: exponential, mean: 3s}, output: 8MB}
        - {id: reduce, after: [{stage: map, slowstart: 0.05}], count: %d, compute: 2s, share: {dist: zipf, exponent: 0.5}}
`, i, i, maps, reducers)
	}
	sc, err := scenario.Parse("bench.yaml", []byte(w.String()), ".")
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkEngine100kTasks reports simulated events per wall-clock second on
// 1,000 jobs x 100 tasks (100k tasks, ~500k flows).
func BenchmarkEngine10kTasks(b *testing.B) { benchEngine(b, 100) }

func BenchmarkEngine100kTasks(b *testing.B) { benchEngine(b, 1000) }

func benchEngine(b *testing.B, jobs int) {
	sc := syntheticScenario(b, jobs, 90, 10)
	events, tasks := 0, 0
	for b.Loop() {
		res, err := sim.Run(sc)
		if err != nil {
			b.Fatal(err)
		}
		events, tasks = res.Summary.Events, res.Summary.Tasks
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(tasks), "tasks")
}
