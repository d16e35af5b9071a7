package jobmodel

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/workload"
)

func TestMapAndReduceCounts(t *testing.T) {
	p := Params{Block: 100, BytesPerReducer: 10}
	for _, c := range []struct {
		input float64
		want  int
	}{{0, 1}, {1, 1}, {100, 1}, {100.5, 2}, {1000, 10}, {1e30, 1<<31 - 1}} {
		if got := p.MapCount(c.input); got != c.want {
			t.Errorf("MapCount(%g) = %d, want %d", c.input, got, c.want)
		}
	}
	for _, c := range []struct {
		shuffle, output float64
		fixed, cap      int
		want            int
	}{
		{1, 0, 0, 0, 1},  // tiny shuffle: at least one reducer
		{14, 0, 0, 0, 1}, // 1.4 rounds down
		{10, 5, 0, 0, 2}, // 1.5 rounds half up, as Java's Math.round
		{100, 900, 0, 0, 100},
		{100, 900, 0, 8, 8}, // capped at the cluster's slots
		{100, 900, 3, 0, 3}, // fixed count wins
		{1, 0, 30, 8, 8},    // ... but is capped too
	} {
		p.Reducers, p.MaxReducers = c.fixed, c.cap
		if got := p.ReduceCount(c.shuffle, c.output); got != c.want {
			t.Errorf("ReduceCount(%g, %g) fixed %d cap %d = %d, want %d", c.shuffle, c.output, c.fixed, c.cap, got, c.want)
		}
	}
}

func TestMapReduceShape(t *testing.T) {
	p := ParseParams(NewOptions(map[string]any{"reduce_skew": map[string]any{"dist": "zipf", "exponent": 1}}), nil)
	j := p.MapReduce("j", 3, 300<<20, 64<<20, 32<<20)
	if err := j.Validate(0); err != nil {
		t.Fatal(err)
	}
	want := workload.Job{ID: "j", Arrival: 3, Stages: []workload.Stage{
		{ID: "map", Generate: &workload.TaskGen{Count: 3, Input: workload.ConstDist(100 << 20),
			Compute: workload.ConstDist(1), PerByte: 1e-8, Output: workload.ConstDist(float64(64<<20) / 3)}},
		{ID: "reduce", After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: 0.05}},
			Generate: &workload.TaskGen{Count: 2, Share: workload.Dist{Kind: workload.Zipf, A: 1},
				Compute: workload.ConstDist(1), PerByte: 1e-8, Output: workload.ConstDist(16 << 20)}},
	}}
	if diff := cmp.Diff(want, j); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	if mo := p.MapReduce("m", 0, 0, 0, 5); len(mo.Stages) != 1 || mo.Stages[0].Generate.Output.A != 5 {
		t.Errorf("map-only job %+v", mo)
	}
	if err := Check(1, -1, 0); err == nil || err.Error() != "shuffle bytes -1 must be finite and >= 0" {
		t.Errorf("Check: %v", err)
	}
}

func TestLabels(t *testing.T) {
	l := ParseLabels(NewOptions(map[string]any{"users": 3, "user_assign": "round-robin", "queues": 2}), 0)
	l.Start(1, 2)
	var users []string
	for range 4 {
		var j workload.Job
		l.Apply(&j)
		users = append(users, j.User)
		if j.Queue != "queue0" && j.Queue != "queue1" {
			t.Errorf("queue %q", j.Queue)
		}
	}
	if diff := cmp.Diff([]string{"user0", "user1", "user2", "user0"}, users); diff != "" {
		t.Errorf("round-robin users: %s", diff)
	}
	// Half recurring (JobPacker §5.3): 10,000 draws have a standard error of
	// 0.005, so 0.47..0.53 is a 6-sigma band.
	l = ParseLabels(NewOptions(nil), 0.5)
	l.Start(7, 8)
	rec := 0
	for range 10000 {
		var j workload.Job
		l.Apply(&j)
		if j.Recurring {
			rec++
		}
		if j.User != "" || j.Queue != "" {
			t.Fatal("labels set without users or queues")
		}
	}
	if rec < 4700 || rec > 5300 {
		t.Errorf("%d of 10000 recurring, want about half", rec)
	}
}

func TestSelection(t *testing.T) {
	s := ParseSelection(NewOptions(map[string]any{"window_start": 10, "window_end": 20, "time_scale": 0.5, "max_jobs": 2}))
	for _, c := range []struct {
		t          float64
		keep, stop bool
	}{{5, false, false}, {10, true, false}, {19.9, true, false}, {20, false, true}} {
		if k, st := s.Keep(c.t); k != c.keep || st != c.stop {
			t.Errorf("Keep(%g) = %v, %v", c.t, k, st)
		}
	}
	if s.Arrival(14) != 2 || s.Full(1) || !s.Full(2) {
		t.Error("Arrival or Full")
	}
}

func TestWriteNative(t *testing.T) {
	p := ParseParams(NewOptions(nil), nil)
	src := &workload.SliceSource{Jobs: []workload.Job{p.MapReduce("a", 0, 1, 1, 1), p.MapReduce("b", 1, 1, 0, 1)}}
	var buf bytes.Buffer
	n, err := WriteNative(&buf, src, true)
	if err != nil || n != 2 || strings.Count(buf.String(), "\n") != 2 || !strings.HasPrefix(buf.String(), `{"id": "a"`) {
		t.Fatalf("jsonl: %d %v\n%s", n, err, buf.String())
	}
	if _, err := WriteNative(&buf, &workload.SliceSource{}, false); err == nil || err.Error() != "the workload has no jobs" {
		t.Errorf("empty: %v", err)
	}
}
