// Package schedtest holds what the scheduler packages' tests share: inline
// scenarios parsed and run in check mode, and task records read back.
package schedtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// Parse reads an inline scenario, named after the test, with check mode on.
func Parse(t testing.TB, doc string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	sc.Check = true
	return sc
}

// Run simulates an inline scenario under s with check mode and task records
// on, failing the test on any error.
func Run(t testing.TB, doc string, s sched.Scheduler) *metrics.Result {
	t.Helper()
	sc := Parse(t, doc)
	sc.Output.Tasks = true
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// Tasks lists a job's task records of one stage, by index.
func Tasks(r *metrics.Result, job, stage string) []metrics.TaskRecord {
	var out []metrics.TaskRecord
	for _, tr := range r.Tasks {
		if tr.Job == job && tr.Stage == stage {
			out = append(out, tr)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Index < out[b].Index })
	return out
}

// PerMachine counts a job stage's tasks on each of the machines.
func PerMachine(r *metrics.Result, job, stage string, machines int) []int {
	n := make([]int, machines)
	for _, tr := range Tasks(r, job, stage) {
		n[tr.Machine]++
	}
	return n
}

// Near compares times and sizes to a relative 1e-9 (absolute below 1).
func Near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// BusyJobs is the busy scenario: n two-stage jobs (one 1 s map with
// 10 MB of output, one 1 s reduce) arriving within the first second on
// machines one-slot machines in racks of 20 (200 for the queue benchmarks,
// 2,000 for the largest sizes), so that almost all of them wait at once.
// extra is appended verbatim (e.g. an engine: line); sched is the
// scenario's scheduler value (a name or a {name: ..., ...} mapping).
func BusyJobs(n, machines int, sched, extra string) string {
	rng := rand.New(rand.NewPCG(1, 21))
	var b strings.Builder
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: 20, slots_per_machine: 1, nic: 1Gbps}\n", machines/20)
	b.WriteString("network: {topology: two-tier, oversubscription: 4}\n")
	b.WriteString(extra)
	b.WriteString("workload:\n  jobs:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - {id: j%d, arrival: %.6fs, stages: [{id: m, tasks: [{compute: 1s, output: 10MB}]}, {id: r, after: m, tasks: [{compute: 1s}]}]}\n", i, rng.Float64())
	}
	b.WriteString("scheduler: " + sched + "\n")
	return b.String()
}

// DiffRecords compares two runs' task and job records, as the equality
// tests of a scheduler's kept indexes against its original code do: "" when
// they are equal, else where they first differ.
func DiffRecords(want, got *metrics.Result) string {
	for k := range min(len(want.Tasks), len(got.Tasks)) {
		if want.Tasks[k] != got.Tasks[k] {
			return fmt.Sprintf("first difference at task %d: reference %+v, new %+v", k, want.Tasks[k], got.Tasks[k])
		}
	}
	if len(want.Tasks) != len(got.Tasks) {
		return fmt.Sprintf("%d task records, reference %d", len(got.Tasks), len(want.Tasks))
	}
	if !reflect.DeepEqual(want.Jobs, got.Jobs) {
		return "job records differ"
	}
	return ""
}
