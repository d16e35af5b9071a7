package nas

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// randomIndexScenario is a NAS run on a random two-tier cluster: users with
// map-reduce jobs whose maps read DFS input (data-local or not), generate
// their data, read earlier jobs' output (workflows) or shuffle nothing
// (map-only), one or two map stages, tasks of unequal sizes (some pinned
// to a machine), estimates
// exact or noisy, a congestion threshold that keeps CR-RTS off, on or
// switching, and NAS's parameters and ablations varied.
func randomIndexScenario(rng *rand.Rand) string {
	var b strings.Builder
	racks, perRack, slots := 2+rng.IntN(3), 2+rng.IntN(4), 1+rng.IntN(3)
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1Gbps}\n", racks, perRack, slots)
	fmt.Fprintf(&b, "network: {topology: two-tier, oversubscription: %d}\n", 1+rng.IntN(8))
	fmt.Fprintf(&b, "dfs: {replicas: %d}\n", 1+rng.IntN(3))
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "knowledge: {model: relative, rate: %g}\n", []float64{0.1, 0.5, 0.9}[rng.IntN(3)])
	}
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	n := 15 + rng.IntN(50)
	users := 1 + rng.IntN(3)
	generated := rng.IntN(3) == 0 // no DFS input at all: maps predict their mean output
	// Two job shapes for all, so that outputs tie across jobs and the
	// arrival order must break the ties, including between jobs whose
	// smallest maps differ (output bounds in one order, ties in the other).
	identical := rng.IntN(4) == 0
	in := 32 + 32*rng.IntN(3)
	shapes := []string{
		fmt.Sprintf("tasks: [{input: %dMB, compute: 1s, output: 5MB}, {input: %dMB, compute: 1s, output: 10MB}]", in/2, in),
		fmt.Sprintf("count: %d, input: %dMB, compute: 1s, output: 10MB", 1+rng.IntN(3), in),
	}
	arrivals := make([]float64, n)
	for i := range n {
		arrival := float64(rng.IntN(40)) * 0.25
		after := ""
		if i > 0 && rng.IntN(5) == 0 { // reads an earlier job's output
			k := rng.IntN(i)
			after = fmt.Sprintf("after: [j%03d], ", k)
			arrival = max(arrival, arrivals[k]) // no earlier than the job it reads
		}
		arrivals[i] = arrival
		mapStage := func(id string) string {
			if identical && after == "" {
				return fmt.Sprintf("{id: %s, %s}", id, shapes[rng.IntN(2)])
			}
			if rng.IntN(3) == 0 { // unequal tasks
				var ts []string
				for range 1 + rng.IntN(4) {
					in := ""
					if after == "" && !generated && rng.IntN(3) > 0 {
						in = fmt.Sprintf("input: %dMB, ", 1+rng.IntN(200))
					}
					pin := ""
					if rng.IntN(4) == 0 {
						pin = fmt.Sprintf(", pin: %d", rng.IntN(racks*perRack))
					}
					ts = append(ts, fmt.Sprintf("{%scompute: %gs, output: %dMB%s}", in, 0.5+float64(rng.IntN(6))*0.5, rng.IntN(150), pin))
				}
				return fmt.Sprintf("{id: %s, tasks: [%s]}", id, strings.Join(ts, ", "))
			}
			in := ""
			if after == "" && !generated && rng.IntN(3) > 0 {
				in = fmt.Sprintf("input: %dMB, ", 8+rng.IntN(400))
			}
			out := fmt.Sprintf("output: %dMB", rng.IntN(200))
			if in != "" && rng.IntN(2) == 0 {
				out = fmt.Sprintf("output_ratio: %g", []float64{0.001, 0.1, 1, 3}[rng.IntN(4)])
			}
			return fmt.Sprintf("{id: %s, count: %d, %scompute: %gs, %s}", id, 1+rng.IntN(6), in, 0.5+float64(rng.IntN(6))*0.5, out)
		}
		var stages []string
		switch rng.IntN(6) {
		case 0: // map-only: nothing shuffled
			stages = []string{mapStage("map")}
		case 1: // two map stages
			stages = []string{mapStage("m1"), mapStage("m2"),
				fmt.Sprintf("{id: red, after: [m1, m2], count: %d, compute: %gs}", 1+rng.IntN(3), 0.5+float64(rng.IntN(4))*0.5)}
		default:
			stages = []string{mapStage("map"),
				fmt.Sprintf("{id: red, after: map, count: %d, compute: %gs, output_ratio: 1}", 1+rng.IntN(3), 0.5+float64(rng.IntN(4))*0.5)}
		}
		fmt.Fprintf(&b, "    - {id: j%03d, user: u%d, arrival: %gs, %sstages: [%s]}\n",
			i, rng.IntN(users), arrival, after, strings.Join(stages, ", "))
	}
	on := func() string { return []string{"true", "false"}[rng.IntN(2)] }
	params := []string{
		fmt.Sprintf("map_skips: %d", []int{0, 1, 3, 135}[rng.IntN(4)]),
		fmt.Sprintf("reduce_skips: %d", []int{0, 2, 135}[rng.IntN(3)]),
		fmt.Sprintf("congestion_threshold: %g", []float64{0.01, 0.2, 0.5, 0.8, 1}[rng.IntN(5)]),
		fmt.Sprintf("light_shuffle: %dMB", []int{1, 20}[rng.IntN(2)]),
		fmt.Sprintf("heavy_shuffle: %dMB", []int{50, 100, 400}[rng.IntN(3)]),
		fmt.Sprintf("small_input: %dMB", []int{10, 100, 1000}[rng.IntN(3)]),
		fmt.Sprintf("threshold_interval: %gs", []float64{0.3, 1, 5}[rng.IntN(3)]),
		fmt.Sprintf("reduce_rampup: %g", []float64{0.2, 0.5, 1}[rng.IntN(3)]),
		"traffic_threshold: " + []string{"true", "true", "false"}[rng.IntN(3)],
		"ca_rts: " + on(),
		"cr_rts: " + on(),
		"hold_maps: " + on(),
		"shuffle_size: " + []string{"learned", "known"}[rng.IntN(2)],
	}
	b.WriteString("scheduler: {name: nas, params: {" + strings.Join(params, ", ") + "}}\n")
	return b.String()
}

func runIndexed(t *testing.T, doc string, ref, perJob bool) (*metrics.Result, Stats) {
	t.Helper()
	if ref {
		referenceOffer = (*Scheduler).oldOffer
		defer func() { referenceOffer = nil }()
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
	if perJob {
		s.(*Scheduler).CountPerJob()
	}
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return res, s.(*Scheduler).Stats()
}

// TestIndexesMatchReference: the per-user indexes (jobs with waiting maps
// or reducers, the output bound that ends MTS's scan early) make the same
// decisions, in the same order, with the same counters, as the original
// scan of every active job at each request, on randomised scenarios: every task and job record and nas.Stats (per-job counters
// included, in half of the scenarios) are equal.
func TestIndexesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 18))
	runs := 150
	if testing.Short() {
		runs = 30
	}
	var sum Stats
	tasks := 0
	for i := range runs {
		doc := randomIndexScenario(rng)
		want, ws := runIndexed(t, doc, true, true)
		keep := compactMin
		if i%2 == 1 {
			compactMin = 4 // renumber the users' jobs often
		}
		// Without per-job counters MTS may stop its scans early: the
		// decisions and the other counters must not change.
		perJob := i%4 < 2
		got, gs := runIndexed(t, doc, false, perJob)
		compactMin = keep
		if len(got.Tasks) == 0 {
			t.Fatalf("scenario %d: no tasks recorded\n%s", i, doc)
		}
		if !perJob {
			if gs.Jobs != nil {
				t.Fatalf("scenario %d: per-job counters kept without CountPerJob", i)
			}
			ws.Jobs = nil
		}
		if d := schedtest.DiffRecords(want, got); d != "" || !reflect.DeepEqual(ws, gs) {
			ws.Jobs, gs.Jobs = nil, nil
			t.Fatalf("scenario %d: decisions or counters differ (stats %+v vs %+v): %s\n%s", i, ws, gs, d, doc)
		}
		tasks += len(got.Tasks)
		sum.MapRequests += gs.MapRequests
		sum.BudgetChanged += gs.BudgetChanged
		sum.BudgetSkipped += gs.BudgetSkipped
		sum.AtMapSkips += gs.AtMapSkips
		sum.MapSkipsCount += gs.MapSkipsCount
		sum.Held += gs.Held
		sum.CARTS += gs.CARTS
		sum.CARTSMoved += gs.CARTSMoved
		sum.CRRTSLight += gs.CRRTSLight
		sum.CRRTSSkipped += gs.CRRTSSkipped
		sum.CRRTSForced += gs.CRRTSForced
	}
	t.Logf("%d scenarios, %d tasks; MTS: %d map requests, budget changed %d / skipped %d, %d skips, %d at D^m, %d held; CA-RTS %d (moved %d); CR-RTS light %d, skipped %d, forced %d",
		runs, tasks, sum.MapRequests, sum.BudgetChanged, sum.BudgetSkipped, sum.MapSkipsCount, sum.AtMapSkips, sum.Held,
		sum.CARTS, sum.CARTSMoved, sum.CRRTSLight, sum.CRRTSSkipped, sum.CRRTSForced)
	if sum.BudgetChanged == 0 || sum.BudgetSkipped == 0 || sum.AtMapSkips == 0 || sum.Held == 0 ||
		sum.CARTSMoved == 0 || sum.CRRTSLight == 0 || sum.CRRTSSkipped == 0 || sum.CRRTSForced == 0 {
		t.Errorf("the scenarios do not cover every MTS, CA-RTS and CR-RTS path")
	}
}

// TestSeqSet checks the set against a map under random adds and removes,
// across word and summary boundaries.
func TestSeqSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 64))
	var s seqSet
	in := map[int]bool{}
	for range 20000 {
		i := rng.IntN(9000)
		if rng.IntN(3) == 0 {
			s.remove(i)
			delete(in, i)
		} else {
			s.add(i)
			in[i] = true
		}
		from := rng.IntN(9100)
		want := -1
		for k := from; k < 9000; k++ {
			if in[k] {
				want = k
				break
			}
		}
		if got := s.next(from); got != want {
			t.Fatalf("next(%d) = %d, want %d", from, got, want)
		}
		if s.n != len(in) || s.has(i) != in[i] || s.has(from) != in[from] {
			t.Fatalf("%d members, has(%d) %v, has(%d) %v; want %d, %v, %v", s.n, i, s.has(i), from, s.has(from), len(in), in[i], in[from])
		}
	}
}

// BenchmarkIndexedDecision is the cost benchmark for NAS alone with
// the original scans (old: oldOffer) and the indexes (new), in one binary:
// us/decision is the scheduler's own time per decision on
// schedtest.BusyJobs (200 one-slot machines; 2,000 at 100,000 jobs), as in
// sched/internal/costbench, and on the same jobs with 64 MB of DFS input
// per map (input/), where maps are data-local on few machines and the
// budget refuses some. Alternate with e.g.
//
//	for i in 1 2 3; do for o in old new; do
//	  go test ./sched/nas -run '^$' -bench "IndexedDecision/busy/^1000\$/$o" -benchtime 1x; done; done
func BenchmarkIndexedDecision(b *testing.B) {
	for _, shape := range []string{"busy", "input"} {
		for _, n := range []int{1000, 5000, 20000, 100000} {
			for _, path := range []string{"old", "new"} {
				b.Run(fmt.Sprintf("%s/%d/%s", shape, n, path), func(b *testing.B) {
					machines := 200
					if n >= 100000 {
						machines = 2000
					}
					doc := schedtest.BusyJobs(n, machines, "nas", "")
					if shape == "input" {
						doc = strings.ReplaceAll(doc, "tasks: [{compute: 1s, output: 10MB}]", "tasks: [{input: 64MB, compute: 1s, output: 10MB}]")
					}
					sc, err := scenario.Parse("busy.yaml", []byte(doc), ".")
					if err != nil {
						b.Fatal(err)
					}
					sc.Check = false
					if path == "old" {
						referenceOffer = (*Scheduler).oldOffer
						defer func() { referenceOffer = nil }()
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
}
