package nas_test

import (
	"testing"

	"github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
)

// BenchmarkFB2010First2000 runs NAS on the first 2,000 jobs of the SWIM
// FB-2010 day on the paper's 600-node cluster (the regression slice of the
// full-day run in docs/performance.md).
func BenchmarkFB2010First2000(b *testing.B) {
	sc := fbScenario(b, 2000)
	events := 0
	for b.Loop() {
		r, err := sim.RunWith(sc, nas.New(nas.DefaultConfig()))
		if err != nil {
			b.Fatal(err)
		}
		events = r.Summary.Events
	}
	b.ReportMetric(float64(events), "events")
}
