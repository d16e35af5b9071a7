package sim_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// Hand-computed scenarios. Every expected time is derived in the comment.

// One machine with one slot runs three 1s/2s/3s tasks back to back: 6s.
func TestSingleJobSerialSlot(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps}
workload:
  jobs:
    - id: A
      stages: [{id: s, tasks: [{compute: 1s}, {compute: 2s}, {compute: 3s}]}]
scheduler: fifo
`)
	if got := jct(t, r, "A"); !near(got, 6) {
		t.Fatalf("JCT = %v, want 6", got)
	}
}

// Slot contention under FIFO: A (two 2s tasks) holds the only slot over
// [0,2) and [2,4); B arrives at 0.5 and runs [4,5): JCT A = 4, B = 4.5.
func TestSlotContentionFIFO(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps}
workload:
  jobs:
    - {id: A, stages: [{id: s, tasks: [{compute: 2s}, {compute: 2s}]}]}
    - {id: B, arrival: 0.5s, stages: [{id: s, tasks: [{compute: 1s}]}]}
scheduler: fifo
`)
	if a, b := jct(t, r, "A"), jct(t, r, "B"); !near(a, 4) || !near(b, 4.5) {
		t.Fatalf("JCT A=%v B=%v, want 4 and 4.5", a, b)
	}
}

// Four 1s maps run one at a time on machine 0 (one slot), each writing 1MB;
// one reducer is pinned to machine 1; NICs are 1MB/s.
const slowStartBase = `
cluster:
  racks: 1
  machines_per_rack: 2
  slots_per_machine: 1
  nic: 1MB/s
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB, pin: 0}]}
        - id: reduce
          after: AFTER
          tasks: [{compute: 1s, pin: 1}]
scheduler: fifo
`

// Barrier: maps end at 1, 2, 3, 4; the reducer starts at 4 and fetches the
// 4MB (one merged fetch from machine 0) in 4s, computes 1s: JCT 9.
func TestBarrier(t *testing.T) {
	r := run(t, strings.Replace(slowStartBase, "AFTER", "map", 1))
	if got := jct(t, r, "A"); !near(got, 9) {
		t.Fatalf("JCT = %v, want 9", got)
	}
}

// Finishes-before with slow-start 0.25: the reducer is ready after the first
// map (t=1) and fetches each 1MB output as it appears: [1,2], [2,3], [3,4],
// [4,5]; input ends at 5, compute 1s: JCT 6.
func TestSlowStart(t *testing.T) {
	r := run(t, strings.Replace(slowStartBase, "AFTER", "[{stage: map, slowstart: 0.25}]", 1))
	if got := jct(t, r, "A"); !near(got, 6) {
		t.Fatalf("JCT = %v, want 6", got)
	}
}

// Three stages: a (two 1s tasks on machine 0, 1MB output each) -> b
// one-to-one (two tasks on machine 1) -> c broadcast (one task on machine 0).
// b's two 1MB fetches share machine 0's 1MB/s uplink: both end at 1+2 = 3;
// b computes 0s and writes its input (1MB each); c fetches both outputs
// from machine 1 as one 2MB flow: [3,5]; computes 1s: JCT 6.
func TestMultiStagePatterns(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: a, tasks: [{compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB, pin: 0}]}
        - id: b
          after: [{stage: a, pattern: one-to-one}]
          tasks: [{output_ratio: 1, pin: 1}, {output_ratio: 1, pin: 1}]
        - id: c
          after: [{stage: b, pattern: broadcast}]
          tasks: [{compute: 1s, pin: 0}]
scheduler: fifo
`)
	if got := jct(t, r, "A"); !near(got, 6) {
		t.Fatalf("JCT = %v, want 6", got)
	}
	if got := r.Summary.Bytes.Shuffle.RackLocal; !near(got, 4e6) {
		t.Fatalf("shuffle bytes %v, want 4MB", got)
	}
}

// Job dependency: P runs 1s on machine 0 and writes 2MB; C (arrived at 0)
// waits for P, then its task on machine 1 reads P's output: [1,3], computes
// 1s: JCT of C = 4, P = 1.
func TestJobDependency(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
workload:
  jobs:
    - {id: P, stages: [{id: s, tasks: [{compute: 1s, output: 2MB, pin: 0}]}]}
    - {id: C, after: [P], stages: [{id: s, tasks: [{compute: 1s, pin: 1}]}]}
scheduler: fifo
`)
	if p, c := jct(t, r, "P"), jct(t, r, "C"); !near(p, 1) || !near(c, 4) {
		t.Fatalf("JCT P=%v C=%v, want 1 and 4", p, c)
	}
	if got := r.Summary.Bytes.Dependent.RackLocal; !near(got, 2e6) {
		t.Fatalf("dependent bytes %v, want 2MB", got)
	}
}

// Locality: single-replica 1MB inputs on a 2-rack cluster, each map pinned
// to machine 0, jobs far apart so nothing overlaps. A node-local read takes
// no time; a remote one moves 1MB over 1MB/s NICs (no oversubscription):
// 1s. Every task's input time and the bytes by scope must agree with its
// recorded locality.
func TestLocalityLevels(t *testing.T) {
	var jobs strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&jobs, "    - {id: j%d, arrival: %ds, stages: [{id: m, tasks: [{input: 1MB, pin: 0}]}]}\n", i, 100*i)
	}
	r := run(t, `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
network: {topology: two-tier}
dfs: {replicas: 1}
output: {tasks: true}
workload:
  jobs:
`+jobs.String()+`
scheduler: fifo
`)
	seen := map[string]int{}
	var want [3]float64
	for _, task := range r.Tasks {
		seen[task.Locality]++
		dur := task.InputDone - task.Start
		switch task.Locality {
		case "node-local":
			want[0] += 1e6
			if dur != 0 {
				t.Errorf("node-local %s/%d took %v", task.Job, task.Index, dur)
			}
		case "rack-local", "off-switch":
			if task.Locality == "rack-local" {
				want[1] += 1e6
			} else {
				want[2] += 1e6
			}
			if !near(dur, 1) {
				t.Errorf("%s read of %s took %v, want 1s", task.Locality, task.Job, dur)
			}
		default:
			t.Errorf("unexpected locality %q", task.Locality)
		}
	}
	in := r.Summary.Bytes.Input
	if !near(in.NodeLocal, want[0]) || !near(in.RackLocal, want[1]) || !near(in.CrossRack, want[2]) {
		t.Fatalf("input bytes %+v, want %v", in, want)
	}
	if len(seen) < 2 {
		t.Fatalf("expected a mix of locality levels over 12 random placements, got %v", seen)
	}
}

// A pinned task is only offered its machine: with machine 0 busy for 5s,
// the task pinned to 0 waits although machine 1 is idle.
func TestPinWaitsForItsMachine(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
workload:
  jobs:
    - {id: A, stages: [{id: s, tasks: [{compute: 5s, pin: 0}]}]}
    - {id: B, stages: [{id: s, tasks: [{compute: 1s, pin: 0}]}]}
scheduler: fifo
`)
	if got := jct(t, r, "B"); !near(got, 6) {
		t.Fatalf("JCT of B = %v, want 6 (waits for machine 0)", got)
	}
}

// Same scenario and seed: byte-identical outputs (timing.json aside).
func TestDeterminism(t *testing.T) {
	render := func() map[string][]byte {
		sc, err := scenario.Default()
		if err != nil {
			t.Fatal(err)
		}
		sc.Output.Tasks, sc.Output.Timeline, sc.Check = true, true, true
		res, err := sim.Run(sc)
		if err != nil {
			t.Fatal(err)
		}
		files, err := res.Files()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, f := range files {
			out[f.Name] = f.Bytes()
		}
		return out
	}
	a, b := render(), render()
	for name, data := range a {
		if name == "timing.json" {
			continue
		}
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	if len(a["jobs.csv"]) == 0 || len(a["timeline.csv"]) == 0 {
		t.Fatal("expected jobs.csv and timeline.csv")
	}
}

// An invalid decision fails the run with the scheduler's name (the
// scenario's) and the reason.
type badScheduler struct{}

func (badScheduler) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		p.Place(j.Stage(0).Task(0), m) // even once it is running
		return
	}
}

// Registered so that the scenario below, which names it, loads.
func init() {
	sched.Register(sched.Define("badScheduler", "places running tasks (sim tests only)", sched.NoConfig{},
		func(sched.NoConfig) (sched.Scheduler, error) { return badScheduler{}, nil }))
}

func TestInvalidDecisionIsReported(t *testing.T) {
	sc, err := scenario.Parse("bad.yaml", []byte(`
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 2, nic: 1Gbps}
workload:
  jobs: [{id: A, stages: [{id: s, tasks: [{compute: 1s}, {compute: 1s}]}]}]
scheduler: badScheduler
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.RunWith(sc, badScheduler{})
	if err == nil || !strings.Contains(err.Error(), "scheduler badScheduler: invalid placement") || !strings.Contains(err.Error(), "not waiting") {
		t.Fatalf("got %v, want an invalid-decision error naming the scheduler", err)
	}
}

// Map progress at the first reduce (NAS Fig. 3d). A: four 1s maps on
// machine 0's one slot and slow-start 0.5: the reducer (machine 1) starts
// at t=2, when 2 of 4 maps are done: 0.5. B (at 100s): barrier, both maps
// done: 1. C has one stage: no value (an empty jobs.csv cell) and no weight
// in the summary's mean, 0.75.
func TestMapProgressAtFirstReduce(t *testing.T) {
	doc := strings.Replace(slowStartBase, "AFTER", "[{stage: map, slowstart: 0.5}]", 1)
	r := run(t, strings.Replace(doc, "scheduler:", `    - id: B
      arrival: 100s
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB, pin: 0}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 1}]}
    - {id: C, arrival: 200s, stages: [{id: s, tasks: [{compute: 1s}]}]}
scheduler:`, 1))
	got := map[string]float64{}
	for _, j := range r.Jobs {
		got[j.ID] = j.MapProgress
	}
	if got["A"] != 0.5 || got["B"] != 1 || got["C"] != -1 {
		t.Fatalf("map progress %v, want A 0.5, B 1, C -1 (none)", got)
	}
	if s := r.Summary.MapProgress; s != 0.75 {
		t.Fatalf("summary map progress %v, want 0.75", s)
	}
	files, err := r.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name != "jobs.csv" {
			continue
		}
		rows := strings.Split(strings.TrimSpace(string(f.Bytes())), "\n")
		if len(rows) != 4 || !strings.HasSuffix(rows[0], ",map_progress_at_first_reduce") ||
			!strings.HasSuffix(rows[1], ",0.5") || !strings.HasSuffix(rows[2], ",1") || !strings.HasSuffix(rows[3], ",") {
			t.Fatalf("jobs.csv:\n%s\nwant a last column map_progress_at_first_reduce: 0.5, 1, empty", f.Bytes())
		}
	}
}
