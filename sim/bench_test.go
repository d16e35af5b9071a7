package sim_test

import (
	"fmt"
	"math/rand/v2"
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

// flowScenario is the flow set of shared/tools/simgrid-check's gen.py as a
// scenario: n one-flow jobs (a map pinned to one machine sends its output
// to a reducer pinned to another), starts uniform over span seconds, on
// 10 racks of 20 machines at 1 Gbps with 4:1 oversubscription and unbounded
// slots. With a short span nearly all jobs are active at once and almost
// none has a waiting task (their reducers fetch): the case where a
// scheduler that walks the active jobs on every offer pays for it.
func flowScenario(b *testing.B, n int, span float64) *scenario.Scenario {
	rng := rand.New(rand.NewPCG(8, 8))
	var w strings.Builder
	w.WriteString("cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: 100000, nic: 1Gbps}\n" +
		"network: {topology: two-tier, oversubscription: 4}\nscheduler: fifo\nworkload:\n  jobs:\n")
	for i := range n {
		src, dst := rng.IntN(200), rng.IntN(200)
		for dst == src {
			dst = rng.IntN(200)
		}
		fmt.Fprintf(&w, "    - {id: f%d, arrival: %.6fs, stages: [{id: map, tasks: [{compute: 0s, output: %d, pin: %d}]}, {id: reduce, after: map, tasks: [{compute: 0s, pin: %d}]}]}\n",
			i, rng.Float64()*span, 1e6+rng.Int64N(250e6), src, dst)
	}
	sc, err := scenario.Parse("flows.yaml", []byte(w.String()), ".")
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkFlows20kOver20s is the heavy case (20,000 flows starting over
// 20 s, most of them active at once); BenchmarkFlows20kOver300s the light
// one. Both report the scheduler's cost per decision.
func BenchmarkFlows20kOver20s(b *testing.B)  { benchFlows(b, 20_000, 20) }
func BenchmarkFlows20kOver300s(b *testing.B) { benchFlows(b, 20_000, 300) }

func benchFlows(b *testing.B, n int, span float64) {
	sc := flowScenario(b, n, span)
	var sched float64
	decisions := 0
	for b.Loop() {
		res, err := sim.Run(sc)
		if err != nil {
			b.Fatal(err)
		}
		sched, decisions = res.Timing.SchedulerSeconds, res.Timing.Decisions
	}
	b.ReportMetric(sched/float64(max(decisions, 1))*1e6, "us/decision")
}
