package pushbox

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched/internal/schedtest"
	_ "github.com/netsched/netsched/sched/queue"
	"github.com/netsched/netsched/sim"
)

// randomOrderScenario is a busy map-reduce workload under a randomly
// configured PushBox: one Fair or FIFO queue or the two-queue small_fifo
// split, locality delay, m, rack-local sources and ablations varied.
func randomOrderScenario(rng *rand.Rand) string {
	var b strings.Builder
	racks, perRack, slots := 2+rng.IntN(3), 2+rng.IntN(5), 1+rng.IntN(3)
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1GB/s}\n", racks, perRack, slots)
	if rng.IntN(2) == 0 {
		b.WriteString("network: {topology: two-tier, oversubscription: 4}\n")
	}
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	n := 30 + rng.IntN(100)
	for i := range n {
		// coarse arrival times make ties in start time, broken by submission order
		arrival := float64(rng.IntN(40)) * 0.25
		input := ""
		if rng.IntN(4) > 0 {
			input = fmt.Sprintf("input: %dMB, ", 16+rng.IntN(128))
		}
		fmt.Fprintf(&b, "    - {id: j%03d, arrival: %gs, stages: [{id: map, count: %d, %scompute: %gs, output: %dMB}, {id: red, after: [{stage: map, slowstart: %g}], count: %d, compute: %gs}]}\n",
			i, arrival, 1+rng.IntN(8), input, 0.5+float64(rng.IntN(8))*0.5, 1+rng.IntN(64), float64(rng.IntN(3))*0.5, 1+rng.IntN(3), 0.5+float64(rng.IntN(4))*0.5)
	}
	params := []string{fmt.Sprintf("m: %d", 1+rng.IntN(4)), "policy: " + []string{"fair", "fifo"}[rng.IntN(2)]}
	if rng.IntN(3) == 0 {
		params = append(params, fmt.Sprintf("small_fifo: %dMB", 20+rng.IntN(200)))
	}
	params = append(params, fmt.Sprintf("locality_delay: %g", []float64{0, 0.1, 0.231, 0.5}[rng.IntN(4)]))
	params = append(params, "rack_local: "+[]string{"auto", "on", "off"}[rng.IntN(3)])
	if rng.IntN(3) == 0 {
		params = append(params, "ablate: "+[]string{"GP", "RS", "H", "W", "H+W"}[rng.IntN(5)])
	}
	b.WriteString("scheduler: {name: pushbox, params: {" + strings.Join(params, ", ") + "}}\n")
	return b.String()
}

func runOrder(t *testing.T, doc string, ref bool) *metrics.Result {
	t.Helper()
	if ref {
		referenceOrder = oldJobOrder
		defer func() { referenceOrder = nil }()
	}
	sc, err := scenario.Parse("random.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	sc.Check = true
	res, err := sim.Run(sc)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return res
}

// TestOrderMatchesReference: the kept job order (indexed heaps per queue)
// makes the same decisions, in the same order, as the original sort of
// every active job per call, on randomised scenarios.
func TestOrderMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2027))
	runs := 100
	if testing.Short() {
		runs = 25
	}
	for i := range runs {
		doc := randomOrderScenario(rng)
		want, got := runOrder(t, doc, true), runOrder(t, doc, false)
		if len(got.Tasks) == 0 {
			t.Fatalf("scenario %d: no tasks recorded\n%s", i, doc)
		}
		if d := schedtest.DiffRecords(want, got); d != "" {
			t.Fatalf("scenario %d: decisions differ: %s\n%s", i, d, doc)
		}
	}
}

// BenchmarkOrderDecision is the cost benchmark for PushBox alone
// with the original job order (old: oldJobOrder, a sort of every active
// job per call) and the kept one (new), alternating in one binary:
// us/decision is the scheduler's own time per decision on
// schedtest.BusyJobs (200 one-slot machines; 2,000 at 100,000 jobs).
// Select sizes with -bench 'OrderDecision/^20000$'.
func BenchmarkOrderDecision(b *testing.B) {
	for _, n := range []int{1000, 20000, 100000} {
		for _, order := range []string{"old", "new"} {
			b.Run(fmt.Sprintf("%d/%s", n, order), func(b *testing.B) {
				machines := 200
				if n >= 100000 {
					machines = 2000
				}
				sc, err := scenario.Parse("busy.yaml", []byte(schedtest.BusyJobs(n, machines, "pushbox", "")), ".")
				if err != nil {
					b.Fatal(err)
				}
				sc.Check = false
				if order == "old" {
					referenceOrder = oldJobOrder
					defer func() { referenceOrder = nil }()
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
