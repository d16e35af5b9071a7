package neat_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// BenchmarkBusy: neat's time per decision on the busy scenario
// (1,000 jobs on 200 one-slot machines, almost all waiting at once).
func BenchmarkBusy(b *testing.B) {
	sc := schedtest.Parse(b, schedtest.BusyJobs(1000, 200, "neat", ""))
	sc.Check = false
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
}
