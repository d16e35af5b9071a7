package queue

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// busyJobs: n two-stage jobs (one 1 s map, one 1 s reduce) arriving within
// the first second on 200 one-slot machines, so that almost all of them
// wait at once (the busy.yaml, compressed).
func busyJobs(n int, sched string) string {
	rng := rand.New(rand.NewPCG(1, 21))
	var b strings.Builder
	b.WriteString("cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: 1, nic: 1Gbps}\n")
	b.WriteString("network: {topology: two-tier, oversubscription: 4}\nworkload:\n  jobs:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - {id: j%d, arrival: %.6fs, stages: [{id: m, tasks: [{compute: 1s, output: 10MB}]}, {id: r, after: m, tasks: [{compute: 1s}]}]}\n", i, rng.Float64())
	}
	b.WriteString("scheduler: " + sched + "\n")
	return b.String()
}

// BenchmarkDecision reports the scheduler's time per decision (us/decision,
// from the run's timing, engine excluded) with the leaf ready heaps (new)
// and with the original walk over every app (old), alternating in one
// binary. Select sizes with -bench 'Decision/.*/^20000$'.
func BenchmarkDecision(b *testing.B) {
	for _, n := range []int{1000, 20000, 100000} {
		for _, s := range []string{"fair", "delay", "capacity"} {
			for _, walk := range []string{"old", "new"} {
				b.Run(fmt.Sprintf("%s/%d/%s", s, n, walk), func(b *testing.B) {
					sc, err := scenario.Parse("busy.yaml", []byte(busyJobs(n, s)), ".")
					if err != nil {
						b.Fatal(err)
					}
					sc.Check = false
					if walk == "old" {
						referenceWalk = oldVisit
						defer func() { referenceWalk = nil }()
					}
					var secs float64
					decisions := 0
					for b.Loop() {
						res, err := sim.Run(sc)
						if err != nil {
							b.Fatal(err)
						}
						secs += res.Timing.SchedulerSeconds
						decisions += res.Timing.Decisions
					}
					b.ReportMetric(secs*1e6/float64(decisions), "us/decision")
				})
			}
		}
	}
}
