package nas_test

import (
	"math"
	"sort"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
)

// placed wraps NAS with a data placement, so that a test decides where
// input replicas are (every file split of a job gets the same replicas).
type placed struct {
	*nas.Scheduler
	replicas map[string][]int // job id -> machines
}

func (p placed) PlaceInput(v *sim.View, t *sim.Task, n int) []int { return p.replicas[t.Job().ID] }

// runNAS simulates an inline scenario under s with check mode and task
// records on.
func runNAS(t *testing.T, doc string, s sim.Scheduler) *metrics.Result {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	sc.Check = true
	sc.Output.Tasks = true
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// config is the default configuration changed by fn.
func config(fn func(c *nas.Config)) nas.Config {
	c := nas.DefaultConfig()
	if fn != nil {
		fn(&c)
	}
	return c
}

// tasksOf lists a job's task records of one stage, by index.
func tasksOf(r *metrics.Result, job, stage string) []metrics.TaskRecord {
	var out []metrics.TaskRecord
	for _, tr := range r.Tasks {
		if tr.Job == job && tr.Stage == stage {
			out = append(out, tr)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Index < out[b].Index })
	return out
}

// perMachine counts a job stage's tasks on each machine.
func perMachine(r *metrics.Result, job, stage string, machines int) []int {
	n := make([]int, machines)
	for _, tr := range tasksOf(r, job, stage) {
		n[tr.Machine]++
	}
	return n
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
