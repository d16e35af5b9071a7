package sim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// Heartbeat-only offers (YARN-like): every task starts on a heartbeat of
// its machine, so all starts on one machine share a phase modulo the 1s
// interval, and a machine takes at most one task per heartbeat.
func TestHeartbeatOnlyOffers(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 1Gbps}
engine: {offers: heartbeat, heartbeat: 1s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, stages: [{id: s, count: 12, compute: {dist: uniform, min: 0.3s, max: 2.7s}}]}
scheduler: fifo
`)
	phase := map[int]float64{}
	starts := map[int]map[float64]bool{}
	for _, task := range r.Tasks {
		frac := math.Mod(task.Start, 1)
		if p, ok := phase[task.Machine]; ok && math.Abs(p-frac) > 1e-9 && math.Abs(math.Abs(p-frac)-1) > 1e-9 {
			t.Fatalf("machine %d starts tasks at phases %v and %v", task.Machine, p, frac)
		}
		phase[task.Machine] = frac
		if starts[task.Machine] == nil {
			starts[task.Machine] = map[float64]bool{}
		}
		if starts[task.Machine][task.Start] {
			t.Fatalf("machine %d took two tasks on the heartbeat at %v", task.Machine, task.Start)
		}
		starts[task.Machine][task.Start] = true
	}
	if len(phase) != 3 {
		t.Fatalf("tasks ran on %d machines, want all 3", len(phase))
	}
}

// recorder is fifo that also records the estimates it sees.
type recorder struct {
	sched.Scheduler
	ratios []float64
}

// Offer records the tasks fifo placed on m: the machine's planned tasks
// (the plan is this call's).
func (r *recorder) Offer(v sched.View, m int, p *sched.Plan) {
	r.Scheduler.Offer(v, m, p)
	for _, t := range v.Machine(m).Planned() {
		est := v.Estimate(t)
		r.ratios = append(r.ratios, est.Compute/5) // every task computes 5s
	}
}

// The multiplicative error model gives estimate = truth x f^(2U-1): every
// ratio lies in [1/f, f], they spread over the range, and exact is exact.
func TestKnowledgeModels(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 4, slots_per_machine: 4, nic: 1Gbps}
knowledge: KNOWLEDGE
workload:
  jobs: [{id: A, stages: [{id: s, count: 400, compute: 5s}]}]
scheduler: fifo
`
	ratios := func(knowledge string) []float64 {
		sc, err := scenario.Parse("k.yaml", []byte(strings.ReplaceAll(doc, "KNOWLEDGE", knowledge)), ".")
		if err != nil {
			t.Fatal(err)
		}
		fifo, _ := sched.NewScheduler("fifo", nil)
		rec := &recorder{Scheduler: fifo}
		if _, err := sim.RunWith(sc, rec); err != nil {
			t.Fatal(err)
		}
		return rec.ratios
	}
	for _, r := range ratios("{model: exact}") {
		if r != 1 {
			t.Fatalf("exact model gave ratio %v", r)
		}
	}
	lo, hi := math.Inf(1), 0.0
	for _, r := range ratios("{model: multiplicative, f: 4}") {
		if r < 0.25-1e-12 || r > 4+1e-12 {
			t.Fatalf("ratio %v outside [1/4, 4]", r)
		}
		lo, hi = min(lo, r), max(hi, r)
	}
	if lo > 0.3 || hi < 3.3 {
		t.Fatalf("400 draws should span most of [1/4, 4], got [%v, %v]", lo, hi)
	}
	a, b := ratios("{model: multiplicative, f: 4}"), ratios("{model: multiplicative, f: 4}")
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("estimates must be repeatable")
		}
	}
}
