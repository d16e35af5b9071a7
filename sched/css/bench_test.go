package css_test

import (
	"testing"

	"github.com/netsched/netsched/sched/css"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
	_ "github.com/netsched/netsched/trace/register"
)

// The decision cost of CSS on the paper's two studies: every decision
// (a Schedule call: STSP when a cotask arrived, popping the free lanes,
// DTPA) of a whole run, timed by the engine (timing.json's
// micros_per_decision, which counts placed tasks). Reported: µs per placed
// task, STSP runs and minimum-CCT evaluations per run.
//
//	go test ./sched/css -run '^$' -bench Decision -benchtime 3x
func BenchmarkDecision(b *testing.B) {
	for _, c := range []struct{ name, doc string }{
		{"testbed", `
cluster: {racks: 1, machines_per_rack: 20, slots_per_machine: 1, nic: 1Gbps}
dfs: {block: 64MiB}
engine: {slowstart: 0.7}
workload: {generate: terasort, options: {spread: 0.3}}
`},
		{"production", `
cluster: {racks: 4, machines_per_rack: 25, slots_per_machine: 1, nic: 1Gbps}
workload: {generate: css-production}
`},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := schedtest.Parse(b, c.doc)
			sc.Check = false
			var st css.Stats
			var micros float64
			for b.Loop() {
				s := css.New(css.DefaultConfig())
				r, err := sim.RunWith(sc, s)
				if err != nil {
					b.Fatal(err)
				}
				st, micros = s.Stats(), r.Timing.MicrosPerDecision
			}
			b.ReportMetric(micros, "µs/task")
			b.ReportMetric(float64(st.Replans), "STSPs/run")
			b.ReportMetric(float64(st.MinCCTs), "minCCTs/run")
			b.ReportMetric(float64(st.Units)/float64(st.Replans), "cotasks/STSP")
			b.ReportMetric(float64(st.MaxUnits), "max-cotasks/STSP")
		})
	}
}
