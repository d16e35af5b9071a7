package sim_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// raterScenario: jobs MapReduce jobs, ten arriving per second on a 60-machine
// two-tier cluster with slow NICs, so that many jobs' shuffles overlap and
// the network policy's rater sees hundreds of flows at each event.
func raterScenario(tb testing.TB, seed uint64, jobs int, sch string) *scenario.Scenario {
	rng := rand.New(rand.NewPCG(seed, 21))
	var w strings.Builder
	fmt.Fprintf(&w, `cluster: {racks: 6, machines_per_rack: 10, slots_per_machine: 6, nic: 250Mbps}
network: {topology: two-tier, rack_uplink: 500Mbps, rack_downlink: 500Mbps}
scheduler: %s
workload:
  jobs:
`, sch)
	for i := range jobs {
		out := []int{1, 5, 20, 60}[rng.IntN(4)]
		fmt.Fprintf(&w, "    - {id: j%d, user: u%d, arrival: %.6fs, stages: [{id: m, count: %d, compute: %.3fs, output: %dMB}, {id: r, after: m, count: %d, compute: 1s}]}\n",
			i, i%7, rng.Float64()*float64(jobs)/10, 2+rng.IntN(19), 0.5+3.5*rng.Float64(), out, 1+rng.IntN(8))
	}
	sc, err := scenario.Parse("rater.yaml", []byte(w.String()), ".")
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// BenchmarkRater is a whole run under a rate-setting network policy: the
// rater's collection of every flow in flight at each event, the policy's
// reallocation and the rates passed on.
func BenchmarkRater(b *testing.B) {
	for _, pol := range []string{"varys", "aalo"} {
		for _, jobs := range []int{100, 200, 300} {
			b.Run(fmt.Sprintf("%s/%d", pol, jobs), func(b *testing.B) {
				sc := raterScenario(b, 1, jobs, "{name: fair, network: "+pol+"}")
				events := 0
				for b.Loop() {
					res, err := sim.Run(sc)
					if err != nil {
						b.Fatal(err)
					}
					events = res.Summary.Events
				}
				b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(events)/float64(b.N), "us/event")
			})
		}
	}
}
