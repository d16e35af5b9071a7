package metrics

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// What Files writes, ReadJobs and ReadTasks read back, and a malformed
// field is an error at its line and column.
func TestReadBackJobsAndTasks(t *testing.T) {
	r := &Result{
		Jobs: []JobRecord{
			{ID: "a", User: "u", Queue: "q", Arrival: 1, Start: 1.5, Finish: 10.25, JCT: 9.25, Tasks: 3, InputBytes: 1e6, ShuffleBytes: 2e6,
				DepBytes: 3, CrossRack: 4, OutputBytes: 5, LocalMaps: 1, FileTasks: 2, Class: "heavy", MapProgress: 0.5},
			{ID: "b", Arrival: 2, Start: 2, Finish: 3, JCT: 1, Tasks: 1, MapProgress: -1},
		},
		Tasks: []TaskRecord{{Job: "a", Stage: "map", Index: 2, Machine: 7, Ready: 1, Start: 1.5, InputDone: 2, Finish: 3.125,
			InputBytes: 1e6, Output: 2e6, Locality: "node", CrossRack: 0.5, Saturated: true}},
	}
	files, err := r.Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jobs, err := ReadJobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jobs, r.Jobs) {
		t.Errorf("jobs read back:\n%+v\nwant\n%+v", jobs, r.Jobs)
	}
	tasks, err := ReadTasks(filepath.Join(dir, "tasks.csv"))
	if err != nil || !reflect.DeepEqual(tasks, r.Tasks) {
		t.Errorf("tasks read back: %v\n%+v\nwant\n%+v", err, tasks, r.Tasks)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte(strings.Join(JobsHeader, ",")+"\na,u,q,1,1,2,x1,1,0,0,0,0,0,0,0,,\n"), 0o644)
	if _, err := ReadJobs(bad); err == nil || !strings.Contains(err.Error(), "bad.csv:2: column jct: \"x1\" is not a number") {
		t.Errorf("malformed jct: %v", err)
	}
	os.WriteFile(bad, []byte("job,jct\na,1\n"), 0o644)
	if _, err := ReadJobs(bad); err == nil || !strings.Contains(err.Error(), `bad.csv:1: no column "job_id"`) {
		t.Errorf("not a jobs.csv: %v", err)
	}
}
