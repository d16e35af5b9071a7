package google

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

// testdata/trace is a trace root in the 2011 layout, written by hand:
//
//	job_events/part-00000-of-00001.csv.gz   (gzipped)
//	  job 100 SUBMIT at 600 s; job 500 SUBMIT at 650 s; job 300 SUBMIT at 0
//	  (before the trace); job 600 SUBMIT at 5000 s.
//	task_events/part-00000-of-00002.csv.gz  (gzipped)
//	task_events/part-00001-of-00002.csv     (plain)
//
// Jobs, tasks and the rule each one exercises (times in s):
//
//	100 arrival 600 (job_events beats its tasks' 600.5)
//	    task 0: SCHEDULE 601, FINISH 661                  -> 60
//	    task 1: SCHEDULE 602, EVICT 650, SUBMIT 650, SCHEDULE 700, FINISH 730
//	            (the FINISH is in part 0, the runs in part 1) -> 30
//	    task 2: SCHEDULE 603, KILL 640                    -> never finished
//	200 arrival 700 (no job_events line)
//	    task 0: 701 -> 711.5                               -> 10.5
//	    task 1: FINISH and SCHEDULE both at 702, FINISH listed first -> 0
//	300 SUBMIT at timestamp 0                              -> before the trace
//	400 arrival 800; its only task FINISHes with no SCHEDULE (synthesized)
//	                                                       -> no kept task
//	500 arrival 650, lines out of time order within part 1
//	    task 0: 660 -> 1660                                -> 1000
//	    task 1: 661 (UPDATE_RUNNING at 661) -> 1161        -> 500
//	600 arrival 5000
//	    task 0: 5001 -> 5003                               -> 2
//	    task 1: SCHEDULE 5001, still running at the end    -> never finished
const root = "testdata/trace"

func openTrace(t *testing.T, path string, options map[string]any) (*Source, []workload.Job) {
	t.Helper()
	src, err := Open(path, options, &scenario.Scenario{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*Source)
	jobs, err := workload.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if err := j.Validate(0); err != nil {
			t.Fatalf("job %s: %v", j.ID, err)
		}
	}
	return s, jobs
}

// job is the expected job: one "tasks" stage with these compute times.
func job(id string, arrival float64, computes ...float64) workload.Job {
	tasks := make([]workload.Task, len(computes))
	for i, c := range computes {
		tasks[i] = workload.Task{Share: 1, Compute: c, Pin: workload.NoPin}
	}
	return workload.Job{ID: id, Arrival: arrival, Stages: []workload.Stage{{ID: "tasks", Tasks: tasks}}}
}

func TestLoadRoot(t *testing.T) {
	src, got := openTrace(t, root, nil)
	want := []workload.Job{
		job("100", 600, 60, 30),
		job("500", 650, 1000, 500),
		job("200", 700, 10.5, 0),
		job("600", 5000, 2),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
	wantSum := Summary{TaskFiles: 2, JobFiles: 1, TaskEvents: 35, JobEvents: 5, Jobs: 6,
		BeforeTrace: 1, TasksKept: 7, TasksUnfinished: 2, TasksUntimed: 1, NoTasks: 1, Emitted: 4, EmittedTasks: 7}
	if diff := cmp.Diff(wantSum, src.Summary()); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if s := src.Summary().String(); !strings.HasPrefix(s, "4 of 6 jobs kept with 7 tasks") {
		t.Errorf("summary text %q", s)
	}
}

// Without job_events, arrivals come from the tasks' SUBMITs; a single
// file is a trace of its own (its jobs lose the events of the other part).
func TestLoadTaskEventsOnly(t *testing.T) {
	_, got := openTrace(t, filepath.Join(root, "task_events"), nil)
	var arrivals []float64
	for _, j := range got {
		arrivals = append(arrivals, j.Arrival)
	}
	if diff := cmp.Diff([]float64{600.5, 650, 700, 5000}, arrivals); diff != "" {
		t.Errorf("arrivals (-want +got):\n%s", diff)
	}

	src, got := openTrace(t, filepath.Join(root, "task_events", "part-00001-of-00002.csv"), nil)
	// Job 100 keeps only task 1 here, whose FINISH is in the other part:
	// never finished, so the job has no kept task; job 200 has no SUBMIT.
	want := []workload.Job{job("500", 650, 1000, 500), job("600", 5000, 2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("single file (-want +got):\n%s", diff)
	}
	if s := src.Summary(); s.NoSubmit != 1 || s.NoTasks != 2 || s.TasksUnfinished != 2 || s.TaskFiles != 1 || s.JobFiles != 0 {
		t.Errorf("single file summary %+v", s)
	}

	// The gzipped part alone.
	_, got = openTrace(t, filepath.Join(root, "task_events", "part-00000-of-00002.csv.gz"), nil)
	want = []workload.Job{job("100", 600.5, 60), job("200", 700, 10.5)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gzipped file (-want +got):\n%s", diff)
	}
}

func TestLoadOptions(t *testing.T) {
	// Window [650 s, 1 h): jobs 500, 200 and 400 (which has no kept task);
	// arrivals shift by 650 s and halve; durations double.
	src, got := openTrace(t, root, map[string]any{
		"window_start": "650s", "window_end": "1h", "time_scale": 0.5, "duration_scale": 2, "complete_only": true,
	})
	want := []workload.Job{job("500", 0, 2000, 1000), job("200", 25, 21, 0)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("window (-want +got):\n%s", diff)
	}
	if s := src.Summary(); s.OutsideWindow != 2 || s.BeforeTrace != 1 || s.NoTasks != 1 || s.Emitted != 2 {
		t.Errorf("window summary %+v", s)
	}

	for _, c := range []struct {
		opts map[string]any
		ids  []string
		sum  func(Summary) int
		n    int
	}{
		{map[string]any{"complete_only": true}, []string{"500", "200"}, func(s Summary) int { return s.Incomplete }, 2},
		{map[string]any{"min_tasks": 2}, []string{"100", "500", "200"}, func(s Summary) int { return s.TaskCount }, 1},
		{map[string]any{"max_tasks": 1}, []string{"600"}, func(s Summary) int { return s.TaskCount }, 3},
		{map[string]any{"max_jobs": 2}, []string{"100", "500"}, func(s Summary) int { return s.PastMaxJobs }, 2},
	} {
		src, got := openTrace(t, root, c.opts)
		var ids []string
		for _, j := range got {
			ids = append(ids, j.ID)
		}
		if diff := cmp.Diff(c.ids, ids); diff != "" || c.sum(src.Summary()) != c.n {
			t.Errorf("%v: ids %v, summary %+v", c.opts, ids, src.Summary())
		}
	}

	// Labels come from their own stream and do not change the jobs.
	_, a := openTrace(t, root, map[string]any{"users": 2, "user_assign": "round-robin", "recurring": 1})
	for i, j := range a {
		if j.User != []string{"user0", "user1"}[i%2] || !j.Recurring {
			t.Errorf("job %s: user %q recurring %v", j.ID, j.User, j.Recurring)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"max_job": 5}, `google2011 options: unknown option "max_job"; did you mean "max_jobs"? (known: complete_only, duration_scale, max_events, max_jobs, max_tasks, min_tasks, queues, recurring, seed, time_scale, user_assign, users, window_end, window_start)`},
		{map[string]any{"window_start": "2h", "window_end": "1h"}, `google2011 options: option "window_end": 3600s must be after window_start 7200s`},
		{map[string]any{"min_tasks": 0}, `google2011 options: option "min_tasks": must be at least 1 (a job needs a task)`},
		{map[string]any{"min_tasks": 3, "max_tasks": 2}, `google2011 options: option "max_tasks": 2 is less than min_tasks 3`},
		{map[string]any{"duration_scale": 0}, `google2011 options: option "duration_scale": must be greater than 0`},
		{map[string]any{"window_start": "soon"}, `google2011 options: option "window_start": duration "soon": expected a number of seconds or a value like 1.5s, 200ms, 2h`},
		{map[string]any{"max_events": 0}, `google2011 options: option "max_events": must be at least 1`},
	} {
		_, err := Open(root, c.opts, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("options %v:\n got %v\nwant %s", c.opts, err, c.want)
		}
	}
}

// writeTrace makes a trace root from file names and contents; names ending
// in .gz are compressed.
func writeTrace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data := []byte(body)
		if strings.HasSuffix(name, ".gz") {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(data)
			zw.Close()
			data = buf.Bytes()
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const good = "1000000,,1,0,,0,u,0,0,,,,\n2000000,,1,0,5,1,u,0,0,,,,\n3000000,,1,0,5,4,u,0,0,,,,\n"

// Problems with files, and bad lines anywhere (in any file, even in jobs
// outside the window), fail Open with the file, line and column.
func TestLoadErrors(t *testing.T) {
	gz := func(s string) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(s))
		zw.Close()
		return buf.Bytes()
	}
	truncated := gz(strings.Repeat(good, 200))
	truncated = truncated[:len(truncated)/2]

	for _, c := range []struct {
		name  string
		files map[string]string
		path  string // under the root; "" = the root
		opts  map[string]any
		want  string // after the root directory
	}{
		{"bad line in the second part", map[string]string{
			"task_events/part-00000-of-00002.csv.gz": good,
			"task_events/part-00001-of-00002.csv.gz": good + "4000000,,2,0,,9,u,0,0,,,,\n",
		}, "", map[string]any{"window_end": "1s"},
			"/task_events/part-00001-of-00002.csv.gz:4: event type: 9 is not an event type (0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING)"},
		{"bad job_events line", map[string]string{
			"task_events/part-00000-of-00001.csv": good,
			"job_events/part-00000-of-00001.csv":  "1000000,,1,0,u,0,n,l\n1000000,,x,0,u,0,n,l\n",
		}, "", nil, `/job_events/part-00000-of-00001.csv:2: job ID: "x" is not a job ID (a whole number)`},
		{"job_events file in task_events", map[string]string{
			"task_events/part-00000-of-00001.csv": "1000000,,1,0,u,0,n,l\n",
		}, "", nil, "/task_events/part-00000-of-00001.csv:1: expected 13 comma-separated fields (a task_events record), found 8: is this a job_events file?"},
		{"empty table", map[string]string{"task_events/part-00000-of-00001.csv": "\n"}, "", nil,
			"/task_events/part-00000-of-00001.csv: no task events: expected lines of 13 comma-separated fields"},
		{"no table files", map[string]string{"task_events/README": "x"}, "", nil,
			"/task_events: no task_events files (*.csv or *.csv.gz)"},
		{"event cap", map[string]string{"t.csv": good + good}, "t.csv", map[string]any{"max_events": 5},
			"/t.csv:6: the jobs in the window have more than 5 task events (max_events): narrow window_start/window_end, or raise max_events (about 16-32 bytes of memory each)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTrace(t, c.files)
			_, err := Open(filepath.Join(dir, c.path), c.opts, nil)
			if err == nil || err.Error() != dir+c.want {
				t.Errorf("got  %v\nwant %s", err, dir+c.want)
			}
		})
	}

	// Raw bytes: a truncated gzip stream is reported as such (at the cut
	// line), not as a bad field; a .gz name needs gzip data.
	dir := t.TempDir()
	for _, c := range []struct {
		data []byte
		want string
	}{
		{truncated, ": cannot read further: unexpected EOF (truncated or corrupt file?)"},
		{[]byte(good), ":1: the name ends in .gz but the file is not gzip data"},
	} {
		p := filepath.Join(dir, "t.csv.gz")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p, nil, nil)
		if err == nil || !strings.HasPrefix(err.Error(), p+":") || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("got %v, want %s...%s", err, p, c.want)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing"), nil, nil); err == nil {
		t.Error("missing path opened")
	}
}
