package all_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// activeJobs is n two-task jobs (a map whose output one reducer fetches
// across the cluster), all arriving within the first second on 10 racks
// of 20 machines. placed: slots without bound, so every task is placed at
// once and the jobs stay active while their reducers fetch, with nothing
// waiting; waiting: one slot per machine and 1 s maps, so most tasks wait.
func activeJobs(b *testing.B, n int, placed bool) *scenario.Scenario {
	rng := rand.New(rand.NewPCG(34, 34))
	slots, compute := 100000, "0s"
	if !placed {
		slots, compute = 1, "1s"
	}
	var w strings.Builder
	fmt.Fprintf(&w, "cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: %d, nic: 1Gbps}\n"+
		"network: {topology: two-tier, oversubscription: 4}\nworkload:\n  jobs:\n", slots)
	for i := range n {
		fmt.Fprintf(&w, "    - {id: j%d, arrival: %.6fs, stages: [{id: map, tasks: [{compute: %s, output: %d, input: 64MB}]}, {id: reduce, after: map, tasks: [{compute: %s}]}]}\n",
			i, rng.Float64(), compute, 1e6+rng.Int64N(250e6), compute)
	}
	sc, err := scenario.Parse("active.yaml", []byte(w.String()), ".")
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkActiveJobs reports each registered scheduler's cost per
// decision with 20,000 and 100,000 jobs active at once, most of their
// tasks placed or most waiting: a scheduler that walks the active jobs on
// every decision shows it here.
func BenchmarkActiveJobs(b *testing.B) {
	for _, n := range []int{20_000, 100_000} {
		for _, placed := range []bool{true, false} {
			kind := "waiting"
			if placed {
				kind = "placed"
			}
			sc := activeJobs(b, n, placed)
			for _, info := range sched.Schedulers() {
				b.Run(fmt.Sprintf("%s-%dk/%s", kind, n/1000, info.Name), func(b *testing.B) {
					var schedSeconds float64
					decisions := 0
					for b.Loop() {
						s, err := sched.NewScheduler(info.Name, nil)
						if err != nil {
							b.Skipf("%s without parameters: %v", info.Name, err)
						}
						res, err := sim.RunWith(sc, s)
						if err != nil {
							b.Fatal(err)
						}
						schedSeconds, decisions = res.Timing.SchedulerSeconds, res.Timing.Decisions
					}
					b.ReportMetric(schedSeconds/float64(max(decisions, 1))*1e6, "us/decision")
				})
			}
		}
	}
}
