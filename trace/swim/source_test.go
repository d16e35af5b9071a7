package swim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

const mib = 1 << 20

// cluster is 2 machines with 4 slots each: 8 slots cap the reducers.
func cluster() *scenario.Scenario {
	return &scenario.Scenario{
		Seed:             7,
		BlockSize:        128 * mib,
		DefaultSlowStart: 0.05,
		Machines:         []scenario.Machine{{Rack: 0, Slots: 4}, {Rack: 0, Slots: 4}},
	}
}

func drain(t *testing.T, src workload.Source) []workload.Job {
	t.Helper()
	out, err := workload.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mapStage(count int, input, output float64) workload.Stage {
	return workload.Stage{ID: "map", Generate: &workload.TaskGen{
		Count: count, Input: workload.ConstDist(input), Compute: workload.ConstDist(1),
		PerByte: 1e-8, Output: workload.ConstDist(output),
	}}
}

func reduceStage(count int, output float64) workload.Stage {
	return workload.Stage{ID: "reduce",
		After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: 0.05, Pattern: workload.ScatterGather}},
		Generate: &workload.TaskGen{
			Count: count, Compute: workload.ConstDist(1), PerByte: 1e-8, Output: workload.ConstDist(output),
		}}
}

// The fixture's jobs, computed by hand from the rules in docs/workloads.md:
// maps = ceil(input / 128 MiB) >= 1; reduces = round((shuffle+output) /
// 64 MiB) >= 1, capped at the cluster's 8 slots; 100 MB/s and 1 s per task.
func TestSourceFixture(t *testing.T) {
	src, err := Open("testdata/small.tsv", nil, cluster())
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Job{
		// Map-only with no input: one empty map writes the output.
		{ID: "job0", Arrival: 0, Stages: []workload.Stage{mapStage(1, 0, 100)}},
		{ID: "job1", Arrival: 5, Stages: []workload.Stage{mapStage(1, 128*mib, 1000)}},
		// 256 MiB + 1 byte needs 3 maps; (64+32) MiB / 64 MiB = 1.5 rounds to 2 reduces.
		{ID: "job2", Arrival: 5, Stages: []workload.Stage{
			mapStage(3, (256*mib+1)/3.0, 64*mib/3.0), reduceStage(2, 16*mib)}},
		// A 10-byte shuffle still gets one reducer.
		{ID: "job3", Arrival: 12, Stages: []workload.Stage{mapStage(1, 1000, 10), reduceStage(1, 0)}},
		// 1.5 GiB / 64 MiB = 24 reduces, capped at 8 slots.
		{ID: "job4", Arrival: 20, Stages: []workload.Stage{
			mapStage(8, 128*mib, 128*mib), reduceStage(8, 64*mib)}},
	}
	if diff := cmp.Diff(want, drain(t, src)); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
}

func TestSourceOptions(t *testing.T) {
	opts := map[string]any{
		"window_start": "5s", "window_end": 20, "size_scale": 2, "time_scale": "0.5",
		"reducers": 3, "block": "256MiB", "map_rate": "1GB/s", "map_overhead": "500ms",
		"users": 2, "user_assign": "round-robin",
	}
	src, err := Open("testdata/small.tsv", opts, cluster())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, src)
	// Window [5, 20) keeps job1..job3; arrivals shift by 5 s and halve.
	var ids, users []string
	var arrivals []float64
	for _, j := range got {
		ids, users, arrivals = append(ids, j.ID), append(users, j.User), append(arrivals, j.Arrival)
	}
	if diff := cmp.Diff([]string{"job1", "job2", "job3"}, ids); diff != "" {
		t.Errorf("ids: %s", diff)
	}
	if diff := cmp.Diff([]float64{0, 0, 3.5}, arrivals); diff != "" {
		t.Errorf("arrivals: %s", diff)
	}
	if diff := cmp.Diff([]string{"user0", "user1", "user0"}, users); diff != "" {
		t.Errorf("users: %s", diff)
	}
	// job2 doubled: 512 MiB + 2 bytes over 256 MiB blocks = 3 maps; 3 fixed reduces.
	g := got[1].Stages[0].Generate
	if g.Count != 3 || g.Input.A != (512*mib+2)/3.0 || g.PerByte != 1e-9 || g.Compute.A != 0.5 {
		t.Errorf("job2 maps = %+v", *g)
	}
	if r := got[1].Stages[1].Generate; r.Count != 3 || r.Output.A != 64*mib/3.0 {
		t.Errorf("job2 reduces = %+v", *r)
	}
}

func TestSourceMaxJobsAndRecurring(t *testing.T) {
	run := func() []workload.Job {
		src, err := Open("testdata/small.tsv", map[string]any{"max_jobs": 4, "recurring": 0.5, "users": 200}, cluster())
		if err != nil {
			t.Fatal(err)
		}
		return drain(t, src)
	}
	a, b := run(), run()
	if len(a) != 4 {
		t.Fatalf("max_jobs 4 gave %d jobs", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two passes differ:\n%s", diff)
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"widnow_end": 5},
			`swim options: unknown option "widnow_end"; did you mean "window_end"? (known: block, bytes_per_reducer, map_overhead, map_rate, max_jobs, max_reducers, queues, recurring, reduce_overhead, reduce_rate, reduce_skew, reducers, seed, size_scale, time_scale, user_assign, users, window_end, window_start)`},
		{map[string]any{"block": "12XB"},
			`swim options: option "block": size "12XB": unknown prefix "X" (use k, M, G, T, P or Ki, Mi, Gi, Ti, Pi)`},
		{map[string]any{"map_rate": 0},
			`swim options: option "map_rate": a rate must be greater than 0`},
		{map[string]any{"recurring": 1.5},
			`swim options: option "recurring": 1.5 is not a fraction in [0, 1]`},
		{map[string]any{"user_assign": "lottery"},
			`swim options: option "user_assign": lottery is not one of random, round-robin`},
		{map[string]any{"window_start": 10, "window_end": 5},
			`swim options: option "window_end": 5s must be after window_start 10s`},
		{map[string]any{"reduce_skew": map[string]any{"dist": "zipf", "exponent": -1}},
			`swim options: option "reduce_skew": zipf exponent -1 is negative`},
		{map[string]any{"reducers": 2.5},
			`swim options: option "reducers": 2.5 is not a whole number (or is too large)`},
	} {
		_, err := Open("testdata/small.tsv", c.opts, cluster())
		if err == nil || err.Error() != c.want {
			t.Errorf("options %v:\n got %v\nwant %s", c.opts, err, c.want)
		}
	}
}

// A bad line late in the file fails Open, before any simulation starts.
func TestOpenValidatesWholeFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.tsv")
	body := "a\t1\t1\t1\t0\t1\nb\t2\t1\t1\t0\t1\nc\t3\t1\t1\t0\tx\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p, nil, cluster())
	if want := p + `:3: output: "x" is not a number`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// With max_jobs 2 the bad line is never reached.
	if _, err := Open(p, map[string]any{"max_jobs": 2}, cluster()); err != nil {
		t.Fatalf("max_jobs 2: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "missing.tsv"), nil, cluster()); err == nil {
		t.Fatal("missing file opened")
	}
}
