package main

import (
	"testing"

	"github.com/netsched/netsched/metrics"
)

// Job a arrives at 0, its maps run 2-5 and 3-7, its reducer 4-10 (JCT 10):
// wait 2, maps 5, after maps 3. Job b is map-only, 1-4 (arrival 1): wait 0,
// maps 3, after 0.
func TestSplit(t *testing.T) {
	jobs := []metrics.JobRecord{{ID: "a", Arrival: 0, Finish: 10, JCT: 10, Tasks: 3}, {ID: "b", Arrival: 1, Finish: 4, JCT: 3, Tasks: 1}}
	tasks := []metrics.TaskRecord{
		{Job: "a", Stage: "map", Start: 3, Finish: 7}, {Job: "a", Stage: "map", Start: 2, Finish: 5},
		{Job: "a", Stage: "reduce", Start: 4, InputDone: 9, Finish: 10}, {Job: "b", Stage: "map", Start: 1, Finish: 4},
	}
	ps, err := split(jobs, tasks, "map")
	if err != nil {
		t.Fatal(err)
	}
	want := []parts{{jct: 10, wait: 2, maps: 5, after: 3, tasks: 3}, {jct: 3, wait: 0, maps: 3, after: 0, tasks: 1}}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("job %s: %+v, want %+v", jobs[i].ID, ps[i], want[i])
		}
	}
	if _, err := split(jobs, tasks[:3], "map"); err == nil {
		t.Error("a job without tasks is not an error")
	}
}
