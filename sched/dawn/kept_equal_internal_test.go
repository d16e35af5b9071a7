package dawn

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// randomKeptScenario is a Dawn run on a random cluster: plain map-reduce
// jobs and workflows (jobs reading earlier jobs' outputs), some with DFS
// input or pinned maps, users, a monitor threshold that keeps the network
// saturated, unsaturated or switching, and Dawn's options varied.
func randomKeptScenario(rng *rand.Rand) string {
	var b strings.Builder
	racks, perRack, slots := 2+rng.IntN(4), 2+rng.IntN(4), 1+rng.IntN(2)
	machines := racks * perRack
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1GB/s}\n", racks, perRack, slots)
	fmt.Fprintf(&b, "network: {topology: two-tier, oversubscription: %d, monitor: {threshold: %g}}\n",
		1+rng.IntN(4), []float64{0.01, 0.3, 0.6, 0.99}[rng.IntN(4)])
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	n := 20 + rng.IntN(60)
	arrivals := make([]float64, n)
	for i := range n {
		arrival := float64(rng.IntN(40)) * 0.25
		arrivals[i] = arrival
		after := ""
		if i > 0 && rng.IntN(3) == 0 { // a workflow job: reads one or two earlier jobs
			ps := []string{fmt.Sprintf("j%03d", rng.IntN(i))}
			if i > 1 && rng.IntN(2) == 0 {
				if q := fmt.Sprintf("j%03d", rng.IntN(i)); q != ps[0] {
					ps = append(ps, q)
				}
			}
			after = "after: [" + strings.Join(ps, ", ") + "], "
			for _, q := range ps { // a job arrives no earlier than the jobs it reads
				var k int
				fmt.Sscanf(q, "j%d", &k)
				arrival = max(arrival, arrivals[k])
			}
			arrivals[i] = arrival
		}
		user := []string{"a", "b", "c"}[rng.IntN(3)]
		var maps string
		if rng.IntN(5) == 0 { // pinned maps
			var ts []string
			for range 1 + rng.IntN(3) {
				ts = append(ts, fmt.Sprintf("{compute: %gs, output: %dMB, pin: %d}", 0.5+float64(rng.IntN(6))*0.5, 1+rng.IntN(200), rng.IntN(machines)))
			}
			maps = "{id: map, tasks: [" + strings.Join(ts, ", ") + "]}"
		} else {
			input := ""
			if after == "" && rng.IntN(3) > 0 {
				input = fmt.Sprintf("input: %dMB, ", 16+rng.IntN(256))
			}
			maps = fmt.Sprintf("{id: map, count: %d, %scompute: %gs, output: %dMB}", 1+rng.IntN(6), input, 0.5+float64(rng.IntN(6))*0.5, 1+rng.IntN(200))
		}
		fmt.Fprintf(&b, "    - {id: j%03d, user: %s, arrival: %gs, %sstages: [%s, {id: red, after: map, count: %d, compute: %gs, output_ratio: 1}]}\n",
			i, user, arrival, after, maps, 1+rng.IntN(3), 0.5+float64(rng.IntN(4))*0.5)
	}
	on := func() string { return []string{"true", "false"}[rng.IntN(2)] }
	params := []string{
		"balancing: " + on(),
		fmt.Sprintf("balance: %g", []float64{0, 0.3, 0.7, 1}[rng.IntN(4)]),
		"dependency: " + on(),
		"order: " + []string{"adaptive", "least-traffic", "most-traffic"}[rng.IntN(3)],
		"rack_choice: " + []string{"any", "selected"}[rng.IntN(2)],
		"assign_multiple: " + on(),
		"fair_users: " + on(),
		fmt.Sprintf("starve_after: %g", []float64{0, 0, 2, 10}[rng.IntN(4)]),
	}
	b.WriteString("scheduler: {name: dawn, params: {" + strings.Join(params, ", ") + "}}\n")
	return b.String()
}

func runKept(t *testing.T, doc string, ref bool) (*metrics.Result, Stats) {
	t.Helper()
	if ref {
		referenceCount, referencePinned, referenceDecide = oldCount, oldPinned, oldDecide
		defer func() { referenceCount, referencePinned, referenceDecide = nil, nil, nil }()
	}
	sc, err := scenario.Parse("random.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	sc.Check = true
	s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return res, s.(*Scheduler).Stats()
}

// TestKeptCountsMatchReference: the kept rack counts P_r, the pin index
// and the decision index make the same decisions, in the same order, as
// the original per-container recount and scans of every unit (oldCount,
// oldPinned, oldDecide), on randomised scenarios: every task
// and job record and Dawn's counters are equal.
func TestKeptCountsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2026))
	runs := 100
	if testing.Short() {
		runs = 25
	}
	var balances, pinned, decisions, saturated, depPlans int
	for i := range runs {
		doc := randomKeptScenario(rng)
		want, ws := runKept(t, doc, true)
		got, gs := runKept(t, doc, false)
		if len(got.Tasks) == 0 {
			t.Fatalf("scenario %d: no tasks recorded\n%s", i, doc)
		}
		if d := schedtest.DiffRecords(want, got); d != "" || ws != gs {
			t.Fatalf("scenario %d: decisions differ (stats %+v vs %+v): %s\n%s", i, ws, gs, d, doc)
		}
		balances += gs.Balances
		pinned += gs.Pinned
		decisions += gs.Decisions
		saturated += gs.Saturated
		depPlans += gs.DepPlans
	}
	t.Logf("%d scenarios, %d decisions (%d saturated), %d balances, %d pinned placements, %d dep_reduce plans",
		runs, decisions, saturated, balances, pinned, depPlans)
	if balances == 0 || pinned == 0 || saturated == 0 || saturated == decisions || depPlans == 0 {
		t.Errorf("the scenarios do not cover balancing, pins, both network states and dep_reduce")
	}
}

// BenchmarkKeptDecision is the decision-cost benchmark for Dawn alone, in
// one binary: us/decision is the scheduler's own time per decision on
// schedtest.BusyJobs (200 one-slot machines), as in
// sched/internal/costbench. Paths: old is the original code (oldDecide
// with oldCount and oldPinned: every live unit listed and recounted per
// container), kept the kept counts and pin index of the first change
// (oldDecide alone: still a list of every live unit per container), new
// the decision index. Alternate them, e.g.
//
//	for i in 1 2 3; do for o in old kept new; do
//	  go test ./sched/dawn -run '^$' -bench "KeptDecision/^1000\$/$o" -benchtime 1x; done; done
func BenchmarkKeptDecision(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		for _, path := range []string{"old", "kept", "new"} {
			b.Run(fmt.Sprintf("%d/%s", n, path), func(b *testing.B) {
				benchBusy(b, n, "dawn", path)
			})
		}
	}
}

// BenchmarkOptionDecision is BenchmarkKeptDecision with one of Dawn's
// options changed from the default, reference (old: the original code)
// and decision index (new):
//
//	go test ./sched/dawn -run '^$' -bench 'OptionDecision/^5000$' -benchtime 1x
func BenchmarkOptionDecision(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		for _, opt := range []string{"starve_after=2", "fair_users=true", "rack_choice=selected", "order=least-traffic", "order=most-traffic", "balance=0.7"} {
			for _, path := range []string{"old", "new"} {
				b.Run(fmt.Sprintf("%d/%s/%s", n, opt, path), func(b *testing.B) {
					benchBusy(b, n, "{name: dawn, params: {"+strings.Replace(opt, "=", ": ", 1)+"}}", path)
				})
			}
		}
	}
}

func benchBusy(b *testing.B, n int, scheduler, path string) {
	sc, err := scenario.Parse("busy.yaml", []byte(schedtest.BusyJobs(n, 200, scheduler, "")), ".")
	if err != nil {
		b.Fatal(err)
	}
	sc.Check = false
	switch path {
	case "old":
		referenceCount, referencePinned, referenceDecide = oldCount, oldPinned, oldDecide
	case "kept":
		referenceDecide = oldDecide
	}
	defer func() { referenceCount, referencePinned, referenceDecide = nil, nil, nil }()
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
}
