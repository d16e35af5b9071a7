package nas_test

import (
	"testing"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
)

// BenchmarkFB2010First2000 is the regression slice of the full-day runs in
// docs/performance.md: the first 2,000 jobs of the SWIM FB-2010 day, scaled
// x0.1 as the catalog (60 nodes, bytes x 0.1), under each scheduler of the
// NAS figures. It reports simulated events per wall-clock second.
//
//	go test ./sched/nas -run '^$' -bench FB2010 -benchtime 3x
func BenchmarkFB2010First2000(b *testing.B) {
	tenth := map[string]any{"light_shuffle": "0.1MB", "heavy_shuffle": "10MB", "small_input": "1MB"}
	for _, c := range []struct {
		name   string
		params map[string]any
	}{{"fair", nil}, {"delay", nil}, {"sw-delay", nil}, {"nas", tenth}} {
		b.Run(c.name, func(b *testing.B) {
			sc := fbScenario(b, fbTenth, 2000, 0.1)
			events := 0
			for b.Loop() {
				s, err := sched.NewScheduler(c.name, c.params)
				if err != nil {
					b.Fatal(err)
				}
				r, err := sim.RunWith(sc, s)
				if err != nil {
					b.Fatal(err)
				}
				events = r.Summary.Events
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// A full-size slice for profiling the engine at the paper's scale:
// 200 jobs on 600 nodes.
func BenchmarkFB2010Full200(b *testing.B) {
	sc := fbScenario(b, fbFull, 200, 1)
	for b.Loop() {
		if _, err := sim.RunWith(sc, nas.New(nas.DefaultConfig())); err != nil {
			b.Fatal(err)
		}
	}
}
