package css_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched/css"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// One 10 s map and three 1 s reducers that are ready with it (slow-start
// 0), on three one-slot hosts. No bytes move, so a reducer's input phase
// is its wait for the map.
const blocked = `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 10s}]}
        - {id: reduce, after: [{stage: map, slowstart: 0}], tasks: [{compute: 1s}, {compute: 1s}, {compute: 1s}]}
`

// STSP places the map first (H0, busy until 10), then the reduce cotask as
// if nothing blocked it (§III-B): on W = (10, 0, 0) its minimum CCT is 2,
// two reducers queued on H1 and one on H2, planned to end at 2. H1 and H2
// start r0 and r1, which wait for the map. DTPA on H1: its last reducer,
// r2, would start at 10 + 1 = 11, after the cotask's planned end 2, so it
// leaves H1's queue and is placed again as a cotask of its own, on
// W = (10, 11, 11): H0, 10-11. The job ends at 11; without DTPA r2 runs
// after r0 on H1, 11-12.
func TestDTPAMovesQueuedTask(t *testing.T) {
	s := css.New(css.DefaultConfig())
	r := run(t, blocked, s)
	red := schedtest.Tasks(r, "A", "reduce")
	if got := jcts(r)["A"]; !near(got, 11) {
		t.Errorf("JCT %g with DTPA, want 11", got)
	}
	if red[2].Machine != 0 || !near(red[2].Start, 10) {
		t.Errorf("r2 ran on machine %d from %g, want machine 0 from 10 (moved off machine 1's queue)", red[2].Machine, red[2].Start)
	}
	if got := s.Stats().DTPAMoves; got != 1 {
		t.Errorf("DTPA moved %d tasks, want 1", got)
	}

	c := css.DefaultConfig()
	c.DTPA = false
	off := css.New(c)
	r = run(t, blocked, off)
	red = schedtest.Tasks(r, "A", "reduce")
	if got := jcts(r)["A"]; !near(got, 12) {
		t.Errorf("JCT %g without DTPA, want 12", got)
	}
	if red[2].Machine != 1 || !near(red[2].Start, 11) {
		t.Errorf("without DTPA r2 ran on machine %d from %g, want machine 1 from 11", red[2].Machine, red[2].Start)
	}
	if got := off.Stats().DTPAMoves; got != 0 {
		t.Errorf("DTPA off moved %d tasks", got)
	}
}

// churn is a busy mix: jobs of maps with uneven times and reducers started
// by slow-start, arriving gap apart, on four machines of slots slots.
func churn(jobs, slots int, gap, slowstart float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: %d, nic: 100MB/s}\nworkload:\n  jobs:\n", slots)
	for i := range jobs {
		fmt.Fprintf(&b, "    - id: j%d\n      arrival: %gs\n      stages:\n", i, gap*float64(i))
		b.WriteString("        - {id: map, tasks: [")
		for k := range 4 + i%5 {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{input: 10MB, compute: %gs, output: 20MB}", churnCompute(i, k, "map"))
		}
		b.WriteString("]}\n")
		fmt.Fprintf(&b, "        - {id: reduce, after: [{stage: map, slowstart: %g}], tasks: [", slowstart)
		for k := range 1 + i%3 {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{compute: %gs}", churnCompute(i, k, "reduce"))
		}
		b.WriteString("]}\n")
	}
	return b.String()
}

// churnCompute is the compute time churn gives task k of job i's stage.
func churnCompute(i, k int, stage string) float64 {
	if stage == "map" {
		return float64(1 + (i*7+k*3)%9)
	}
	return float64(2 + (i+k)%4)
}

// Per-host queues never preempt: in check mode (no slot over-filled, no
// task before its barrier), every task runs once and uninterrupted (its
// compute phase lasts exactly its compute time), and a machine never runs
// more tasks than it has slots. Reducers started by slow-start wait for
// maps queued elsewhere; every run must still end (the engine stops a run
// whose slots all wait for each other), and across the runs DTPA and the
// awaited-cotask rule must both have acted.
func TestQueuesNeverPreempt(t *testing.T) {
	var total css.Stats
	for _, slots := range []int{1, 2} {
		for _, gap := range []float64{0, 1, 3} {
			for _, ss := range []float64{0, 0.5, 1} {
				for _, improve := range []bool{true, false} {
					c := css.DefaultConfig()
					c.Improve = improve
					s := css.New(c)
					r := run(t, churn(12, slots, gap, ss), s)
					if len(r.Jobs) != 12 {
						t.Fatalf("slowstart %g: %d jobs finished, want 12", ss, len(r.Jobs))
					}
					checkUninterrupted(t, r, slots)
					st := s.Stats()
					total.DTPAMoves += st.DTPAMoves
					total.Awaited += st.Awaited
				}
			}
		}
	}
	if total.DTPAMoves == 0 || total.Awaited == 0 {
		t.Errorf("over all runs DTPA moved %d tasks and %d cotasks were placed as awaited; the workloads no longer exercise them", total.DTPAMoves, total.Awaited)
	}
}

// checkUninterrupted checks that every task ran once, that its compute
// phase took exactly its compute time (churn has no per-byte rate), and
// that a machine never ran more than slots tasks at once.
func checkUninterrupted(t *testing.T, r *metrics.Result, slots int) {
	t.Helper()
	type span struct{ from, to float64 }
	byMachine := map[int][]span{}
	seen := map[string]bool{}
	for _, tr := range r.Tasks {
		key := fmt.Sprintf("%s/%s/%d", tr.Job, tr.Stage, tr.Index)
		if seen[key] {
			t.Fatalf("task %s ran twice", key)
		}
		seen[key] = true
		var job int
		fmt.Sscanf(tr.Job, "j%d", &job)
		if want := churnCompute(job, tr.Index, tr.Stage); !(tr.Start <= tr.InputDone) || !near(tr.Finish-tr.InputDone, want) {
			t.Fatalf("task %s: start %g, input done %g, finish %g; compute should take %g", key, tr.Start, tr.InputDone, tr.Finish, want)
		}
		byMachine[tr.Machine] = append(byMachine[tr.Machine], span{tr.Start, tr.Finish})
	}
	for m, spans := range byMachine {
		for _, a := range spans {
			n := 0
			for _, b := range spans {
				if b.from <= a.from && a.from < b.to {
					n++
				}
			}
			if n > slots {
				t.Fatalf("machine %d runs %d tasks at %g", m, n, a.from)
			}
		}
	}
}
