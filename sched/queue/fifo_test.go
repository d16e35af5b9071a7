package queue_test

import (
	"fmt"
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/workload"
)

// Request priorities inside a job with slow start, on one machine with two
// 1 s slots. Maps read (node-local) files, so reducers come first once
// ready, up to the ramp-up limit of half the job's slots:
//
//	t=0  m1, m2
//	t=1  2 of 4 maps done: the reducers are ready. First slot: r1 would be
//	     the job's only task (1 > 0.5 x 1): m3. Second: 1 <= 0.5 x 2: r1.
//	t=2  m3 done: r2 would make 2 of 2 (2 > 0.5 x 2): m4.
//	t=3  maps done: r2 starts; r1 (waiting for m4's output) computes.
//	t=4  r1, r2 done.
func TestRequestPriorities(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 4, input: 1MB, compute: 1s}
        - {id: reduce, after: [{stage: map, slowstart: 0.5}], count: 2, compute: 1s}
scheduler: {name: fifo, params: {order: yarn}}
`)
	var maps, reduces []float64
	for _, tr := range r.Tasks {
		if tr.Stage == "map" {
			maps = append(maps, tr.Start)
		} else {
			reduces = append(reduces, tr.Start)
		}
	}
	if !same(sorted(maps), []float64{0, 0, 1, 2}) || !same(sorted(reduces), []float64{1, 3}) {
		t.Fatalf("maps start at %v and reducers at %v, want [0 0 1 2] and [1 3]", maps, reduces)
	}
	if got := jct(t, r, "A"); !schedtest.Near(got, 4) {
		t.Fatalf("JCT = %v, want 4", got)
	}
}

// Slow-start reducers never take every slot while maps wait: one slot,
// a reducer ready after the first map, and the run still completes.
func TestRampUpAvoidsDeadlock(t *testing.T) {
	for _, sched := range []string{"fifo", "{name: fifo, params: {order: yarn}}", "fair", "capacity", "delay"} {
		r := run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 3, input: 1MB, compute: 1s}
        - {id: reduce, after: [{stage: map, slowstart: 0.1}], count: 1, compute: 1s}
scheduler: `+sched+"\n")
		if got := jct(t, r, "A"); !schedtest.Near(got, 4) {
			t.Errorf("%s: JCT = %v, want 4", sched, got)
		}
	}
}

// FIFO serves the earliest job first, and inside it node-local tasks
// first: a lone job on an idle cluster runs every map where its block is.
func TestFIFOLocality(t *testing.T) {
	r := run(t, `
cluster: {racks: 2, machines_per_rack: 4, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - {id: A, stages: [{id: map, count: 8, input: 64MB, compute: 1s}]}
scheduler: {name: fifo, params: {order: yarn}}
`)
	if r.Summary.NodeLocality < 0.6 {
		t.Fatalf("node locality %v; FIFO should prefer node-local tasks", r.Summary.NodeLocality)
	}
}

// A job of many stages is offered slots without a scan of every stage per
// offer (Job.WaitingStages): 100,000 one-task stages on one slot take
// 100,000 offers, which a scan of every stage made about 10^10 stage
// visits (a job of 200,000 stages timed out), and now take about a second.
func TestFIFOManyStages(t *testing.T) {
	const stages = 100_000
	sc := schedtest.Parse(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps}
workload: {jobs: [{id: A, stages: [{id: s, count: 1}]}]}
scheduler: fifo
`)
	sc.Check = false // its invariants visit every stage per instant
	job := workload.Job{ID: "A", Stages: make([]workload.Stage, stages)}
	for i := range job.Stages {
		job.Stages[i] = workload.Stage{ID: fmt.Sprint("s", i), Tasks: []workload.Task{{Compute: 1, Pin: workload.NoPin}}}
	}
	sc.OpenWorkload = func() (workload.Source, error) { return &workload.SliceSource{Jobs: []workload.Job{job}}, nil }
	res, err := sim.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Tasks != stages || res.Summary.Makespan != stages {
		t.Errorf("%d tasks done in %gs, want %d in %ds (one at a time)", res.Summary.Tasks, res.Summary.Makespan, stages, stages)
	}
}
