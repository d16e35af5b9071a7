package costbench

import (
	"fmt"
	"testing"

	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
	_ "github.com/netsched/netsched/trace/register"
)

// shapes: the scenario each scheduler runs. All accept schedtest.BusyJobs
// unchanged (200 one-slot machines; 2,000 at 100,000 jobs); jobpacker and
// corral plan only recurring jobs, so these ad-hoc jobs take their Fair
// path.
var shapes = []struct{ name, sched, extra string }{
	{"pushbox", "pushbox", ""},
	{"nas", "nas", ""},
	{"sw-delay", "sw-delay", ""},
	{"jobpacker", "jobpacker", ""},
	{"corral", "corral", ""},
	{"dawn", "dawn", ""},
	{"css", "css", ""},
	{"stf", "stf", ""},
	{"neat", "neat", ""},
	// The queue schedulers have their own benchmark (sched/queue
	// BenchmarkDecision, old and new walks); these are the others.
	{"fifo", "fifo", ""},
	{"hadoop", "hadoop", ""},
	{"hadoop-fifo", "hadoop-fifo", ""},
}

// BenchmarkDecision reports each scheduler's own time per decision
// (res.Timing.SchedulerSeconds / res.Timing.Decisions, engine excluded)
// over whole simulations of the busy scenario at 1,000, 20,000 and 100,000
// jobs (250, 500 and 5,000 to measure the growth of the schedulers too slow
// at the larger sizes). Select with e.g. -bench 'Decision/nas/^20000$'.
func BenchmarkDecision(b *testing.B) {
	for _, s := range shapes {
		for _, n := range []int{250, 500, 1000, 5000, 20000, 100000} {
			b.Run(fmt.Sprintf("%s/%d", s.name, n), func(b *testing.B) {
				machines := 200
				if n >= 100000 {
					machines = 2000
				}
				doc := schedtest.BusyJobs(n, machines, s.sched, s.extra)
				sc, err := scenario.Parse("busy.yaml", []byte(doc), ".")
				if err != nil {
					b.Fatal(err)
				}
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
				b.ReportMetric(float64(decisions)/float64(b.N), "decisions/run")
			})
		}
	}
}
