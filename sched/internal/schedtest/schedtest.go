// Package schedtest holds what the scheduler packages' tests share: inline
// scenarios parsed and run in check mode, and task records read back.
package schedtest

import (
	"math"
	"sort"
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
