package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// Workflow, cotask and task-period metrics on a hand-made run. Two racks
// of one machine, one slot each, 1MB/s NICs.
//
//	A/map     m0  0-1               writes 2MB
//	A/reduce  m1  1-4  (fetches 2MB across racks 1-3, computes 3-4)
//	B         m0  4-6  (after A: blocked until 4)
//	C         m1  6.5-7.5
//
// Workflows {A, B} (WCT 6) and {C} (WCT 1). Stages' CCTs 1, 3, 2, 1
// (mean 1.75); the one task of a stage with parents waited 2 s for data.
// Within 5 s of the first arrival only A finished.
const workflowRun = `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 1, nic: 1MB/s}
network: {topology: two-tier}
output: {window: 5s, tasks: true}
scheduler: fifo
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 2MB, pin: 0}]}
        - {id: reduce, after: [{stage: map, slowstart: 1}], tasks: [{compute: 1s, output: 0B, pin: 1}]}
    - {id: B, after: [A], stages: [{id: s, tasks: [{compute: 2s, pin: 0}]}]}
    - {id: C, arrival: 6.5s, stages: [{id: s, tasks: [{compute: 1s, pin: 1}]}]}
`

func TestWorkflowAndCotaskMetrics(t *testing.T) {
	r := run(t, workflowRun)
	s := r.Summary
	if s.Workflows == nil || s.Workflows.Count != 2 || !near(s.Workflows.WCT.Mean, 3.5) || !near(s.Workflows.WCT.Max, 6) {
		t.Errorf("workflows %+v, want 2 with WCTs 6 and 1", s.Workflows)
	}
	var got []string
	for _, w := range r.Workflows {
		got = append(got, fmt.Sprintf("%s:%d:%g", w.ID, w.Jobs, w.WCT))
	}
	if fmt.Sprint(got) != "[A:2:6 C:1:1]" {
		t.Errorf("workflow records %v, want [A:2:6 C:1:1]", got)
	}
	got = nil
	for _, st := range r.Stages {
		got = append(got, fmt.Sprintf("%s/%s:%g-%g:%g", st.Job, st.Stage, st.Start, st.Finish, st.InputWait))
	}
	if fmt.Sprint(got) != "[A/map:0-1:0 A/reduce:1-4:2 B/s:4-6:0 C/s:6.5-7.5:0]" {
		t.Errorf("stage records %v", got)
	}
	if s.CCT.Count != 4 || !near(s.CCT.Mean, 1.75) || s.ReducerWait.Count != 1 || !near(s.ReducerWait.Mean, 2) {
		t.Errorf("cct %+v reducer wait %+v, want mean 1.75 over 4 and 2 over 1", s.CCT, s.ReducerWait)
	}
	if s.Window == nil || s.Window.Jobs != 1 || s.Window.Workflows != 0 || s.Window.Seconds != 5 {
		t.Errorf("window %+v, want 1 job and no workflow in 5 s", s.Window)
	}
	p := s.TaskPeriods
	if p == nil || p.Saturated+p.SaturatedCrossRack+p.Unsaturated+p.UnsaturatedCrossRack != 4 || p.SaturatedCrossRack+p.UnsaturatedCrossRack != 1 {
		t.Errorf("task periods %+v, want 4 tasks, 1 of them fetching across racks", p)
	}
	for _, tr := range r.Tasks {
		if want := map[bool]float64{true: 2e6, false: 0}[tr.Stage == "reduce"]; tr.CrossRack != want {
			t.Errorf("%s/%s fetched %g bytes across racks, want %g", tr.Job, tr.Stage, tr.CrossRack, want)
		}
	}
}

// Without job dependencies there are no workflow records or summary.
func TestNoWorkflowsWithoutDependencies(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1MB/s}
workload: {jobs: [{id: A, stages: [{id: s, tasks: [{compute: 1s}]}]}]}
`)
	if r.Workflows != nil || r.Summary.Workflows != nil || r.Summary.Window != nil {
		t.Errorf("workflows %v, summary %+v, window %+v; want none", r.Workflows, r.Summary.Workflows, r.Summary.Window)
	}
}

// A job that would bring the tasks held at once beyond the budget ends the
// run with an error that names the job and the knob.
func TestLiveTaskBudget(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1MB/s}
engine: {max_live_tasks: 5}
workload:
  jobs:
    - {id: A, stages: [{id: s, count: 3, compute: 10s}]}
    - {id: B, arrival: 1s, stages: [{id: s, count: 2, compute: 1s}]}
    - {id: C, arrival: 2s, stages: [{id: s, count: 1, compute: 1s}]}
`
	sc, err := scenario.Parse("budget.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.Run(sc)
	want := `job "C" (1 tasks) would bring the tasks held at once to 6, beyond engine.max_live_tasks = 5`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	// Once A has finished its tasks no longer count: C arriving at 31 s fits.
	sc, _ = scenario.Parse("budget.yaml", []byte(strings.Replace(doc, "arrival: 2s", "arrival: 31s", 1)), ".")
	if _, err := sim.Run(sc); err != nil {
		t.Fatalf("after A finished: %v", err)
	}
}

// output.flows records every flow: the reducer's 2MB fetch across racks
// runs from 1 s to 3 s at 1MB/s.
func TestFlowRecords(t *testing.T) {
	r := run(t, strings.Replace(workflowRun, "output: {window: 5s, tasks: true}", "output: {flows: true}", 1))
	if len(r.Flows) != 1 {
		t.Fatalf("flows %+v, want one", r.Flows)
	}
	f := r.Flows[0]
	if f.Job != "A" || f.Stage != "reduce" || f.Src != 0 || f.Dst != 1 || f.Bytes != 2e6 || f.Kind != "shuffle" || f.Start != 1 || !near(f.Finish, 3) {
		t.Errorf("flow %+v", f)
	}
	files, err := r.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if file.Name == "flows.csv" && strings.HasPrefix(string(file.Bytes()), "job_id,stage,index,src,dst,bytes,kind,class,start,finish\nA,reduce,0,0,1,2e+06,shuffle,0,1,3") {
			return
		}
	}
	t.Error("no flows.csv with the flow")
}

// A progress reporter only reads: the results are the same with one.
func TestProgressDoesNotChangeResults(t *testing.T) {
	sc, err := scenario.Parse("p.yaml", []byte(workflowRun), ".")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := sim.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
	if err != nil {
		t.Fatal(err)
	}
	watched, err := sim.RunWithProgress(sc, s, func(sim.Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := plain.Files()
	b, _ := watched.Files()
	for i := range a {
		if a[i].Name != "timing.json" && string(a[i].Bytes()) != string(b[i].Bytes()) {
			t.Errorf("%s differs with a progress reporter", a[i].Name)
		}
	}
}

// engine.until stops the run at that instant: jobs finished by then are
// reported, the others counted as unfinished; a run that ends earlier is
// not marked. A zero or negative horizon is refused with the field named.
func TestUntil(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1MB/s}
engine: {until: 2.5s}
workload:
  jobs:
    - {id: A, stages: [{id: s, count: 2, compute: 1s}]}
    - {id: B, arrival: 1s, stages: [{id: s, count: 2, compute: 1s}]}
    - {id: C, arrival: 10s, stages: [{id: s, count: 1, compute: 1s}]}
`
	r := run(t, doc)
	s := r.Summary
	if len(r.Jobs) != 1 || r.Jobs[0].ID != "A" || s.Jobs != 1 || s.StoppedAt != 2.5 || s.Unfinished != 1 {
		t.Fatalf("jobs %+v, summary jobs %d, stopped_at %g, unfinished %d; want A alone, stopped at 2.5 with B unfinished",
			r.Jobs, s.Jobs, s.StoppedAt, s.Unfinished)
	}
	r = run(t, strings.Replace(doc, "until: 2.5s", "until: 100s", 1))
	if len(r.Jobs) != 3 || r.Summary.StoppedAt != 0 || r.Summary.Unfinished != 0 {
		t.Fatalf("jobs %d, stopped_at %g, unfinished %d; want all 3, not stopped", len(r.Jobs), r.Summary.StoppedAt, r.Summary.Unfinished)
	}
	for _, bad := range []string{"until: 0s", "until: -1s"} {
		_, err := scenario.Parse("until.yaml", []byte(strings.Replace(doc, "until: 2.5s", bad, 1)), ".")
		if err == nil || !strings.Contains(err.Error(), "engine.until") {
			t.Errorf("%s: error %v, want one naming engine.until", bad, err)
		}
	}
}

// A run whose context is done stops at the next check and reports what
// finished, marked interrupted: cut mid-run (the context cancelled at the
// 1000th scheduler call), or at once when it was done before the start.
func TestRunContextInterrupt(t *testing.T) {
	var b strings.Builder
	b.WriteString("cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1MB/s}\nworkload:\n  jobs:\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "    - {id: j%d, arrival: %ds, stages: [{id: s, tasks: [{compute: 1s}]}]}\n", i, i)
	}
	sc, err := scenario.Parse("interrupt.yaml", []byte(b.String()), ".")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	fifo, _ := sched.NewScheduler("fifo", nil)
	r, err := sim.RunContext(ctx, sc, &cancelling{inner: fifo, cancel: cancel, cancelAt: 1000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := r.Summary
	if !sum.Interrupted || sum.StoppedAt <= 0 || len(r.Jobs) == 0 || len(r.Jobs) >= 3000 || sum.Unfinished < 0 || sum.Jobs != len(r.Jobs) {
		t.Fatalf("interrupted %v at %g with %d jobs done, %d unfinished; want a run cut mid-way", sum.Interrupted, sum.StoppedAt, len(r.Jobs), sum.Unfinished)
	}
	s, _ := sched.NewScheduler("fifo", nil)
	if r, err = sim.RunContext(ctx, sc, s, nil); err != nil || !r.Summary.Interrupted || len(r.Jobs) != 0 {
		t.Fatalf("cancelled before the start: %v, interrupted %v, %d jobs done; want none", err, r.Summary.Interrupted, len(r.Jobs))
	}
	s, _ = sched.NewScheduler("fifo", nil)
	if r, err = sim.RunContext(context.Background(), sc, s, nil); err != nil || r.Summary.Interrupted || len(r.Jobs) != 3000 {
		t.Fatalf("without an interrupt: %v, interrupted %v, %d jobs", err, r.Summary.Interrupted, len(r.Jobs))
	}
}
