package jobmodel

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/coflowbench"
	"github.com/netsched/netsched/workload"
)

const mib = 1 << 20

// twoRacks is 2 racks x 3 machines x 2 slots, numbered rack by rack.
func twoRacks() *scenario.Scenario {
	sc := &scenario.Scenario{Seed: 5, BlockSize: 128 * mib, DefaultSlowStart: 0.05}
	for i := range 6 {
		sc.Machines = append(sc.Machines, scenario.Machine{Rack: i / 3, Slots: 2})
	}
	return sc
}

func drain(t *testing.T, src workload.Source) []workload.Job {
	t.Helper()
	out, err := workload.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func genMaps(count int, input, output float64) workload.Stage {
	return workload.Stage{ID: "map", Generate: &workload.TaskGen{Count: count, Input: workload.ConstDist(input),
		Compute: workload.ConstDist(1), PerByte: 1e-8, Output: workload.ConstDist(output)}}
}

func reducers(tasks ...workload.Task) workload.Stage {
	return workload.Stage{ID: "reduce", Tasks: tasks,
		After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: 0.05, Pattern: workload.ScatterGather}}}
}

func red(share, output float64, pin int) workload.Task {
	return workload.Task{Share: share, Compute: 1, PerByte: 1e-8, Output: output, Pin: pin}
}

// The fixture by hand: input = 2.47 x shuffle, maps = ceil(input / 128 MiB),
// each reducer's share is its bytes and it writes 0.775 x them.
func TestCoflowJobs(t *testing.T) {
	src, err := OpenCoflow("testdata/small-coflow.txt", nil, twoRacks())
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Job{
		{ID: "c1", Arrival: 0, Stages: []workload.Stage{
			genMaps(1, 2.47*10*mib, 10*mib), reducers(red(10*mib, 0.775*10*mib, workload.NoPin))}},
		// 158.08 MiB of input needs two maps; the empty reducer keeps a
		// vanishing share rather than the task model's "0 means 1".
		{ID: "c2", Arrival: 0.5, Stages: []workload.Stage{
			genMaps(2, 2.47*64*mib/2, 32*mib),
			reducers(red(64*mib, 0.775*64*mib, workload.NoPin), red(math.SmallestNonzeroFloat64, 0, workload.NoPin))}},
		{ID: "c3", Arrival: 1.5, Stages: []workload.Stage{
			genMaps(1, 2.47*4*mib, 4*mib),
			reducers(red(1*mib, 0.775*1*mib, workload.NoPin), red(3*mib, 0.775*3*mib, workload.NoPin))}},
	}
	// Relative 1e-12: the code multiplies at run time, the constants here
	// are exact.
	if diff := cmp.Diff(want, drain(t, src), cmpopts.EquateApprox(1e-12, 0)); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
}

// Pinned to trace ports with the rack rule: port p -> rack p mod 2,
// machine (p div 2) mod 3 within it; one map per listed mapper.
func TestCoflowPinnedRacks(t *testing.T) {
	opts := map[string]any{"pin": "all", "ports": "racks", "mappers": "trace", "max_jobs": 2,
		"input_ratio": 1, "output_ratio": 0.5, "time_scale": 2}
	src, err := OpenCoflow("testdata/small-coflow.txt", opts, twoRacks())
	if err != nil {
		t.Fatal(err)
	}
	mt := func(input, output float64, pin int) workload.Task {
		return workload.Task{Input: input, Compute: 1, PerByte: 1e-8, Output: output, Pin: pin}
	}
	want := []workload.Job{
		// Ports 0 and 3 -> machines 0 and 4 (rack 1, index 1); reducer port 4 -> machine 2.
		{ID: "c1", Arrival: 0, Stages: []workload.Stage{
			{ID: "map", Tasks: []workload.Task{mt(5*mib, 5*mib, 0), mt(5*mib, 5*mib, 4)}},
			reducers(red(10*mib, 5*mib, 2))}},
		// Port 5 -> machine 5; reducer ports 1 and 2 -> machines 3 and 1.
		{ID: "c2", Arrival: 1, Stages: []workload.Stage{
			{ID: "map", Tasks: []workload.Task{mt(64*mib, 64*mib, 5)}},
			reducers(red(64*mib, 32*mib, 3), red(math.SmallestNonzeroFloat64, 0, 1))}},
	}
	if diff := cmp.Diff(want, drain(t, src)); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
}

func TestPortMachine(t *testing.T) {
	c, err := ParseCoflow(nil, twoRacks())
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for p := range 8 {
		got = append(got, c.PortMachine(p))
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4, 5, 0, 1}, got); diff != "" {
		t.Errorf("machines rule: %s", diff)
	}
	c.Ports = "racks"
	got = got[:0]
	for p := range 8 {
		got = append(got, c.PortMachine(p))
	}
	if diff := cmp.Diff([]int{0, 3, 1, 4, 2, 5, 0, 3}, got); diff != "" {
		t.Errorf("racks rule: %s", diff)
	}
}

func TestCoflowOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts map[string]any
		sc   *scenario.Scenario
		want string
	}{
		{map[string]any{"pin": "reducers"}, nil,
			`option "pin": pinning tasks to trace ports needs a cluster with machines`},
		{map[string]any{"reducers": 3}, twoRacks(),
			`unknown option "reducers" (known: block, input_ratio, map_overhead, map_rate, mappers, max_jobs, output_ratio, pin, ports, queues, recurring, reduce_overhead, reduce_rate, seed, size_scale, small_below, small_queue, time_scale, user_assign, users, window_end, window_start)`},
		{map[string]any{"mappers": "all"}, twoRacks(),
			`option "mappers": all is not one of generated, trace`},
	} {
		_, err := ParseCoflow(c.opts, c.sc)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got %v\nwant %s", c.opts, err, c.want)
		}
	}
	if _, err := OpenCoflow("testdata/missing.txt", nil, nil); err == nil {
		t.Error("missing file opened")
	}
}

// Size scaling multiplies the trace bytes before sizing the maps (PushBox
// §7.3); a window keeps the coflows that arrive inside it.
func TestCoflowScaleAndWindow(t *testing.T) {
	src, err := OpenCoflow("testdata/small-coflow.txt", map[string]any{"size_scale": 10, "window_start": "0.5s", "window_end": "1s"}, twoRacks())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, src)
	if len(got) != 1 || got[0].ID != "c2" || got[0].Arrival != 0 {
		t.Fatalf("got %+v", got)
	}
	// 2.47 x 640 MiB = 1580.8 MiB over 128 MiB blocks: 13 maps.
	if g := got[0].Stages[0].Generate; g.Count != 13 || g.Output.A != 640*mib/13.0 {
		t.Errorf("maps %+v", *g)
	}
	if r := got[0].Stages[1].Tasks[0]; r.Output != 0.775*640*mib || r.Share != 64*mib {
		t.Errorf("reducer %+v", r)
	}
}

// small_queue puts coflows under small_below shuffle bytes in their own
// queue (PushBox Fig. 9c); the others keep the default queue.
func TestCoflowSmallQueue(t *testing.T) {
	tr := &coflowbench.Trace{Ports: 2, Coflows: []coflowbench.Coflow{
		{ID: "small", Arrival: 0, Mappers: []int{0}, Reducers: []coflowbench.Reducer{{Port: 1, Bytes: 50e6}}},
		{ID: "large", Arrival: 1, Mappers: []int{0}, Reducers: []coflowbench.Reducer{{Port: 1, Bytes: 150e6}}},
	}}
	cfg, err := ParseCoflow(map[string]any{"small_queue": "fifo", "small_below": "100MB"}, twoRacks())
	if err != nil {
		t.Fatal(err)
	}
	jobs := drain(t, NewCoflowSource("t", tr, cfg))
	if jobs[0].Queue != "fifo" || jobs[1].Queue != "" {
		t.Fatalf("queues %q and %q, want fifo and the default", jobs[0].Queue, jobs[1].Queue)
	}
}
