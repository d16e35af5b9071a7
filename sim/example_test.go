package sim_test

import (
	"math"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sim"
)

// run simulates a scenario given inline, with check mode on.
func run(t *testing.T, doc string) *metrics.Result {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	sc.Check = true
	res, err := sim.Run(sc)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// jct returns a job's completion time from a result.
func jct(t *testing.T, r *metrics.Result, id string) float64 {
	t.Helper()
	for _, j := range r.Jobs {
		if j.ID == id {
			return j.JCT
		}
	}
	t.Fatalf("job %s not in result", id)
	return 0
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// The README's example: one map on machine 1 writes 4MB; two reducers pinned
// to machine 0 take shares 1 and 3 (1MB and 3MB) over a 1MB/s NIC pair.
// Both fetches share machine 1's uplink: 0.5MB/s each until the 1MB fetch
// ends at t=2; the 3MB fetch has 2MB left at 1MB/s and ends at t=4.
// Reducer 1 computes 1s -> done at 3; reducer 2 computes 3s -> done at 7.
func TestReadmeExample(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 0s, output: 4MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{share: 1, compute: 1s, pin: 0}, {share: 3, compute: 3s, pin: 0}]
scheduler: fifo
`)
	if got := jct(t, r, "A"); !near(got, 7) {
		t.Fatalf("JCT of A = %v, want 7", got)
	}
	if s := r.Summary.Bytes.Shuffle; !near(s.RackLocal, 4e6) || s.CrossRack != 0 || s.NodeLocal != 0 {
		t.Fatalf("shuffle bytes %+v, want 4MB rack-local", s)
	}
}

// Slow-start 0 needs no finished map: the reducer is ready with the job
// and takes the second slot at t=0, fetching as the map (1 s) finishes;
// with slow-start 0.5 it would wait for the map. One slot per task: the
// reducer starts at 0, fetches 1 MB at 1 MB/s over [1,2], computes 1 s.
func TestSlowStartZeroReadyWithJob(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
network: {topology: nonblocking}
output: {tasks: true}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 0}]}
        - {id: reduce, after: [{stage: map, slowstart: 0}], tasks: [{compute: 1s, pin: 1}]}
scheduler: fifo
`)
	for _, tr := range r.Tasks {
		if tr.Stage == "reduce" && tr.Start != 0 {
			t.Errorf("reducer started at %v, want 0 (ready with the job)", tr.Start)
		}
	}
	if got := jct(t, r, "A"); !near(got, 3) {
		t.Errorf("JCT %v, want 3", got)
	}
}
