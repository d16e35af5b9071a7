package css

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

// randomSTFScenario is a map-reduce workload with the shapes STF's index
// distinguishes: machines of a few speeds and NICs (or, in one scenario in
// eight, a different speed per machine, beyond maxSTFClasses), file input
// with 1-3 replicas, pinned tasks, reducers ready by slow-start (the early
// tier), a second root stage and join stages with two parents, workflows,
// exact estimates (ties) or estimation errors, offers or heartbeat-only.
func randomSTFScenario(rng *rand.Rand) (doc string, transfer, many bool) {
	var b strings.Builder
	racks, perRack, slots := 1+rng.IntN(4), 2+rng.IntN(5), 1+rng.IntN(3)
	many = rng.IntN(8) == 0
	if many {
		racks, perRack = 3, 6
	}
	n := racks * perRack
	fmt.Fprintf(&b, "cluster:\n  {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1GB/s", racks, perRack, slots)
	switch {
	case many:
		b.WriteString(", machines: [")
		for m := range n {
			fmt.Fprintf(&b, "{index: %d, speed: %g}, ", m, 0.5+float64(m)/8)
		}
		b.WriteString("]")
	case rng.IntN(2) == 0:
		b.WriteString(", machines: [")
		for m := range n {
			if rng.IntN(3) > 0 {
				continue
			}
			fmt.Fprintf(&b, "{index: %d, speed: %g, nic: %s}, ", m, []float64{0.5, 1, 2}[rng.IntN(3)], []string{"100MB/s", "1GB/s", "10Gbps"}[rng.IntN(3)])
		}
		b.WriteString("]")
	}
	b.WriteString("}\n")
	if rng.IntN(2) == 0 {
		b.WriteString("network: {topology: two-tier, oversubscription: 4}\n")
	}
	fmt.Fprintf(&b, "dfs: {replicas: %d}\n", min(n, 1+rng.IntN(3)))
	switch rng.IntN(3) {
	case 1:
		b.WriteString("knowledge: {model: gaussian, sigma: 0.3}\n")
	case 2:
		b.WriteString("knowledge: {model: multiplicative, f: 2}\n")
	}
	if rng.IntN(5) == 0 {
		b.WriteString("engine: {offers: heartbeat, heartbeat: 1s}\n")
	}
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	jobs := 20 + rng.IntN(60)
	arrival := 0.0
	for i := range jobs {
		// coarse arrivals and sizes make ties, broken by job, stage, task
		arrival += float64(rng.IntN(3)) * 0.25
		after := ""
		if i > 0 && rng.IntN(8) == 0 {
			after = fmt.Sprintf("after: [j%03d], ", rng.IntN(i))
		}
		var maps []string
		for range 1 + rng.IntN(6) {
			task := fmt.Sprintf("compute: %gs, output: %dMB", 0.5*float64(1+rng.IntN(4)), 1+rng.IntN(64))
			if rng.IntN(3) > 0 {
				task += fmt.Sprintf(", input: %dMB", 16*(1+rng.IntN(4)))
			}
			if rng.IntN(10) == 0 {
				task += fmt.Sprintf(", pin: %d", rng.IntN(n))
			}
			maps = append(maps, "{"+task+"}")
		}
		dep := "map"
		if rng.IntN(2) == 0 {
			dep = fmt.Sprintf("[{stage: map, slowstart: %g}]", float64(rng.IntN(3))*0.5)
		}
		red := fmt.Sprintf("{id: red, after: %s, count: %d, compute: %gs, output: %dMB}", dep, 1+rng.IntN(3), 0.5*float64(1+rng.IntN(3)), rng.IntN(8))
		join := ""
		switch rng.IntN(4) {
		case 0:
			join = fmt.Sprintf(", {id: join, after: [map, {stage: red, slowstart: 0.5}], tasks: [{compute: 1s}, {compute: 0.5s, pin: %d}]}", rng.IntN(n))
		case 1:
			// a second root stage: tasks of two stages of one job wait
			// together, tied when their times are equal
			join = fmt.Sprintf(", {id: side, count: %d, compute: %gs, output: 1MB}, {id: join, after: [map, side], count: 2, compute: 0.5s}", 1+rng.IntN(4), 0.5*float64(1+rng.IntN(4)))
		}
		fmt.Fprintf(&b, "    - {id: j%03d, arrival: %gs, %sstages: [{id: map, tasks: [%s]}, %s%s]}\n",
			i, arrival, after, strings.Join(maps, ", "), red, join)
	}
	transfer = rng.IntN(4) > 0
	fmt.Fprintf(&b, "scheduler: {name: stf, params: {transfer: %v}}\n", transfer)
	return b.String(), transfer, many
}

func runSTF(t *testing.T, doc string, s *STF) *metrics.Result {
	t.Helper()
	sc, err := scenario.Parse("random.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	sc.Check = true
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return res
}

// TestSTFIndexMatchesScan: the index of waiting tasks makes the same
// decisions, in the same order, as the original scan of every waiting
// task per offer, on randomised scenarios.
func TestSTFIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 7))
	runs := 200
	if testing.Short() {
		runs = 40
	}
	indexed := 0
	for i := range runs {
		doc, transfer, many := randomSTFScenario(rng)
		ref := &STF{transfer: transfer, reference: true}
		s := &STF{transfer: transfer}
		want, got := runSTF(t, doc, ref), runSTF(t, doc, s)
		if len(got.Tasks) == 0 {
			t.Fatalf("scenario %d: no tasks recorded\n%s", i, doc)
		}
		if many != (s.idx == nil) {
			t.Fatalf("scenario %d: index in use %v with a class per machine %v\n%s", i, s.idx != nil, many, doc)
		}
		if s.idx != nil {
			indexed++
		}
		if d := schedtest.DiffRecords(want, got); d != "" {
			t.Fatalf("scenario %d: decisions differ: %s\n%s", i, d, doc)
		}
	}
	t.Logf("%d scenarios, %d decided by the index", runs, indexed)
}
