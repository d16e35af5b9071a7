package queue

import (
	"fmt"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// randomScenario is a busy map-reduce workload over several queues and
// users with a randomly configured queue scheduler.
func randomScenario(rng *rand.Rand) string {
	var b strings.Builder
	racks, perRack, slots := 2+rng.IntN(3), 2+rng.IntN(5), 1+rng.IntN(3)
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1GB/s}\n", racks, perRack, slots)
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	queues := []string{"qa", "qb", "qc"}
	n := 40 + rng.IntN(120)
	for i := range n {
		// coarse arrival times make ties in start time, broken by submission order
		arrival := float64(rng.IntN(40)) * 0.25
		fmt.Fprintf(&b, "    - {id: j%03d, arrival: %gs, user: u%d, queue: %s, stages: [{id: map, count: %d, input: %dMB, compute: %gs, output: 8MB}, {id: red, after: map, count: %d, compute: %gs}]}\n",
			i, arrival, rng.IntN(4), queues[rng.IntN(len(queues))], 1+rng.IntN(8), 16+rng.IntN(128), 0.5+float64(rng.IntN(8))*0.5, 1+rng.IntN(3), 0.5+float64(rng.IntN(4))*0.5)
	}
	policy := func() string { return []string{"fair", "fifo", "drf"}[rng.IntN(3)] }
	users := ""
	if rng.IntN(2) == 0 {
		users = fmt.Sprintf(", user_weights: {u0: %d, u1: 0.5}", 1+rng.IntN(3))
	}
	fairQueues := fmt.Sprintf("queues: [{name: p, weight: %d, min_share: %d}, {name: qa, parent: p, policy: %s, weight: %d}, {name: qb, parent: p, policy: %s, max_share: %d}, {name: qc, weight: %g, min_share: %d, policy: %s}]%s",
		1+rng.IntN(3), rng.IntN(6), policy(), 1+rng.IntN(3), policy(), 2+rng.IntN(8), 0.5+float64(rng.IntN(4)), rng.IntN(4), policy(), users)
	if rng.IntN(3) == 0 {
		fairQueues = fmt.Sprintf("queues: [{name: qa, policy: %s}, {name: qb, policy: %s}, {name: qc, policy: %s}]%s", policy(), policy(), policy(), users)
	}
	thresholds := func() (float64, float64) {
		if rng.IntN(3) == 0 {
			return -1, -1
		}
		return float64(rng.IntN(5)) * 0.25, float64(rng.IntN(5)) * 0.25
	}
	var s string
	switch rng.IntN(4) {
	case 0:
		node, rack := thresholds()
		s = fmt.Sprintf("{name: fair, params: {%s, locality_node: %g, locality_rack: %g}}", fairQueues, node, rack)
	case 1:
		s = fmt.Sprintf("{name: delay, params: {%s, variant: skip, skips: %d}}", fairQueues, rng.IntN(6)-1)
	case 2:
		s = fmt.Sprintf("{name: delay, params: {%s, variant: wait, w1: %g, w2: %g}}", fairQueues, float64(rng.IntN(4))*0.5-0.5*float64(rng.IntN(2)), float64(rng.IntN(4))*0.5)
	default:
		limit := ""
		if rng.IntN(2) == 0 {
			limit = fmt.Sprintf(", user_limit_factor: %g", 0.5+float64(rng.IntN(4))*0.5)
		}
		pol := []string{"fifo", "fair"}
		s = fmt.Sprintf("{name: capacity, params: {queues: [{name: qa, capacity: 0.5, policy: %s%s}, {name: qb, capacity: 0.3, maximum_capacity: 0.6, policy: %s}, {name: qc, capacity: 0.2, policy: %s}], node_locality_delay: %d}}",
			pol[rng.IntN(2)], limit, pol[rng.IntN(2)], pol[rng.IntN(2)], rng.IntN(8)-1)
	}
	b.WriteString("scheduler: " + s + "\n")
	return b.String()
}

func runWalk(t *testing.T, doc string, ref bool) *metrics.Result {
	t.Helper()
	if ref {
		referenceWalk = oldVisit
		defer func() { referenceWalk = nil }()
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

// TestWalkMatchesReference: the leaf ready heaps make the same decisions,
// in the same order, as the original walk over every app, on randomised
// scenarios for fair, delay (both variants) and capacity.
func TestWalkMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2026))
	runs := 120
	if testing.Short() {
		runs = 30
	}
	for i := range runs {
		doc := randomScenario(rng)
		want, got := runWalk(t, doc, true), runWalk(t, doc, false)
		if len(got.Tasks) == 0 {
			t.Fatalf("scenario %d: no tasks recorded\n%s", i, doc)
		}
		if d := schedtest.DiffRecords(want, got); d != "" {
			t.Fatalf("scenario %d: decisions differ: %s\n%s", i, d, doc)
		}
	}
}
