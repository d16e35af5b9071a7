package schedtest

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
)

func TestDiffRecords(t *testing.T) {
	run := func() *metrics.Result {
		return &metrics.Result{
			Tasks: []metrics.TaskRecord{{Job: "a", Machine: 1}, {Job: "b", Machine: 2}},
			Jobs:  []metrics.JobRecord{{ID: "a", JCT: 1}, {ID: "b", JCT: 2}},
		}
	}
	if d := DiffRecords(run(), run()); d != "" {
		t.Fatalf("equal runs: %q", d)
	}
	r := run()
	r.Tasks[1].Machine = 3
	if d := DiffRecords(run(), r); !strings.Contains(d, "task 1") {
		t.Errorf("a moved task: %q", d)
	}
	r = run()
	r.Tasks = r.Tasks[:1]
	if d := DiffRecords(run(), r); !strings.Contains(d, "1 task records, reference 2") {
		t.Errorf("a missing task: %q", d)
	}
	r = run()
	r.Jobs[0].JCT = 1.5
	if d := DiffRecords(run(), r); d != "job records differ" {
		t.Errorf("a changed job: %q", d)
	}
}
