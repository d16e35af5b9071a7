package css_test

import (
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// run simulates an inline scenario under s in check mode, with task records.
func run(t *testing.T, doc string, s sched.Scheduler) *metrics.Result {
	t.Helper()
	return schedtest.Run(t, doc, s)
}

// named builds a registered scheduler.
func named(t *testing.T, name string, params map[string]any) sched.Scheduler {
	t.Helper()
	s, err := sched.NewScheduler(name, params)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// jcts maps job id to its completion time.
func jcts(r *metrics.Result) map[string]float64 {
	out := map[string]float64{}
	for _, j := range r.Jobs {
		out[j.ID] = j.JCT
	}
	return out
}

var near = schedtest.Near
