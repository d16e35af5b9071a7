package css

import (
	"fmt"
	"testing"
	"time"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// timedSTF times STF's Observe calls, which the engine's timing leaves
// out of the scheduler's time: keeping the index costs there.
type timedSTF struct {
	*STF
	observe time.Duration
}

func (s *timedSTF) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	start := time.Now()
	s.STF.Observe(v, e, p)
	s.observe += time.Since(start)
}

// BenchmarkSTFDecision is the decision-cost benchmark for stf alone with
// the original scan (old) and the index (new) in one binary, on
// schedtest.BusyJobs with 200 one-slot machines (the costbench scenario):
// us/decision is the scheduler's own time per decision as the engine
// times it (Offer), observe-us/decision the time spent keeping the index
// (Observe) per decision, wall-s/run the whole simulation. Select e.g.
// -bench 'STFDecision/^20000$/new'.
func BenchmarkSTFDecision(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000, 100000} {
		for _, impl := range []string{"old", "new"} {
			b.Run(fmt.Sprintf("%d/%s", n, impl), func(b *testing.B) {
				machines := 200
				if n >= 100000 {
					machines = 2000
				}
				sc, err := scenario.Parse("busy.yaml", []byte(schedtest.BusyJobs(n, machines, "stf", "")), ".")
				if err != nil {
					b.Fatal(err)
				}
				sc.Check = false
				var secs, observe, wall float64
				decisions := 0
				for b.Loop() {
					s := &timedSTF{STF: &STF{transfer: true, reference: impl == "old"}}
					res, err := sim.RunWith(sc, s)
					if err != nil {
						b.Fatal(err)
					}
					secs += res.Timing.SchedulerSeconds
					observe += s.observe.Seconds()
					wall += res.Timing.WallSeconds
					decisions += res.Timing.Decisions
				}
				b.ReportMetric(secs*1e6/float64(decisions), "us/decision")
				b.ReportMetric(observe*1e6/float64(decisions), "observe-us/decision")
				b.ReportMetric(wall/float64(b.N), "wall-s/run")
			})
		}
	}
}
