package google

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/workload"
)

func memInput(name string, data []byte) []input {
	return []input{{name, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}}
}

// checkPlace fails unless err is a *ParseError at a line of "fuzz".
func checkPlace(t *testing.T, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "fuzz" || pe.Line < 1 {
		t.Fatalf("error %v (%T) has no place", err, err)
	}
}

// FuzzTaskEvents checks that any input either fails with a *ParseError
// naming the file and a line, or reads into events that keep every
// documented rule and loads into valid jobs that do not depend on the
// order of the lines; it must never panic. The kept corpus is in
// testdata/fuzz/FuzzTaskEvents.
func FuzzTaskEvents(f *testing.F) {
	f.Add([]byte("600500000,,100,0,,0,userA,1,9,0.0625,0.0311,0.0003,0\n601000000,,100,0,42,1,userA,1,9,0.0625,0.0311,0.0003,0\n661000000,,100,0,42,4,userA,1,9,0.0625,0.0311,0.0003,0\n"))
	f.Add([]byte("0,,1,0,,0,,,0,,,,\n0,0,1,0,7,1,,,0,,,,\n9223372036854775807,1,1,0,7,4,,,0,,,,\n"))
	f.Add([]byte("5,,2,0,,0,u,0,0,,,,\r\n\n7,,2,0,1,1,u,0,0,,,,\n7,,2,0,1,4,u,0,0,,,,\n7,,2,0,1,2,u,0,0,,,,\n9,,2,1,,0,u,0,0,1e-3,,,1\n"))
	f.Add([]byte("1,,3,0,,0,u,0,0,,,,\n2,,3,0,4,1,u,0,0,,,,\n3,,3,0,4,2,u,0,0,,,,\n3,,3,0,,0,u,0,0,,,,\n4,,3,0,5,1,u,0,0,,,,\n6,,3,0,5,4,u,0,0,,,,"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewTaskEventReader("fuzz", bytes.NewReader(data))
		for {
			e, ok, err := r.Next()
			if err != nil {
				checkPlace(t, err)
				return
			}
			if !ok {
				break
			}
			reqOK := func(v float64) bool { return v == -1 || v >= 0 && !math.IsInf(v, 0) }
			if e.Line < 1 || e.Time < 0 || e.Task < 0 || e.Type > UpdateRunning || e.Missing < -1 || e.Missing > 2 ||
				e.SchedClass < -1 || e.SchedClass > 3 || e.Priority < 0 || e.Machine < -1 ||
				e.DifferentMachine < -1 || e.DifferentMachine > 1 || !reqOK(e.CPU) || !reqOK(e.Mem) || !reqOK(e.Disk) {
				t.Fatalf("event breaks a rule: %+v", e)
			}
		}

		cfg := DefaultConfig()
		src, err := load(memInput("fuzz", data), nil, cfg)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				checkPlace(t, err)
				return
			}
			return // a file without events
		}
		jobs, err := workload.ReadAll(src)
		if err != nil {
			t.Fatal(err)
		}
		s := src.Summary()
		tasks, last := 0, 0.0
		for _, j := range jobs {
			if err := j.Validate(0); err != nil {
				t.Fatalf("job %s: %v", j.ID, err)
			}
			if j.Arrival < last {
				t.Fatalf("job %s arrives at %g, before %g", j.ID, j.Arrival, last)
			}
			last = j.Arrival
			tasks += len(j.Stages[0].Tasks)
		}
		if s.Emitted != len(jobs) || s.EmittedTasks != tasks || tasks > s.TasksKept ||
			s.Emitted+s.NoTasks+s.Incomplete+s.TaskCount+s.PastMaxJobs+s.BeforeTrace+s.NoSubmit+s.OutsideWindow != s.Jobs {
			t.Fatalf("summary does not add up: %+v with %d jobs, %d tasks", s, len(jobs), tasks)
		}

		// The lines in reverse order give the same jobs.
		lines := bytes.Split(data, []byte{'\n'})
		slices.Reverse(lines)
		rev, err := load(memInput("fuzz", bytes.Join(lines, []byte{'\n'})), nil, cfg)
		if err != nil {
			t.Fatalf("reversed lines: %v", err)
		}
		again, _ := workload.ReadAll(rev)
		if diff := cmp.Diff(jobs, again); diff != "" {
			t.Fatalf("reversed lines give other jobs:\n%s", diff)
		}
	})
}

// FuzzJobEvents checks that the job_events reader never panics and names
// the place of every error.
func FuzzJobEvents(f *testing.F) {
	f.Add([]byte("600000000,,100,0,userA,1,nameA,lnameA\n0,2,300,4,,,,\n"))
	f.Add([]byte("1,,2,9,,,,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewJobEventReader("fuzz", bytes.NewReader(data))
		for {
			e, ok, err := r.Next()
			if err != nil {
				checkPlace(t, err)
				return
			}
			if !ok {
				return
			}
			if e.Line < 1 || e.Time < 0 || e.Type > UpdateRunning || e.Missing < -1 || e.Missing > 2 || e.SchedClass < -1 || e.SchedClass > 3 {
				t.Fatalf("event breaks a rule: %+v", e)
			}
		}
	})
}
