package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// readJobs drains a scenario's workload.
func readJobs(t *testing.T, sc *Scenario) []workload.Job {
	t.Helper()
	src, err := sc.OpenWorkload()
	if err != nil {
		t.Fatal(err)
	}
	var jobs []workload.Job
	for {
		j, ok, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return jobs
		}
		jobs = append(jobs, *j)
	}
}

func TestExampleParses(t *testing.T) {
	sc, err := Load("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Job{{
		ID: "A",
		Stages: []workload.Stage{
			{ID: "map", Tasks: []workload.Task{{Share: 1, Output: 4e6, Pin: 1}}},
			{
				ID:    "reduce",
				After: []workload.Dep{{Stage: "map", Kind: workload.StartsAfter, Pattern: workload.ScatterGather}},
				Tasks: []workload.Task{{Share: 1, Compute: 1, Pin: 0}, {Share: 3, Compute: 3, Pin: 0}},
			},
		},
	}}
	if diff := cmp.Diff(want, readJobs(t, sc)); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
	wantNet := network.Config{
		Kind:     network.NonBlocking,
		Racks:    1,
		Machines: []network.Machine{{Rack: 0, NICUp: 1e6, NICDown: 1e6}, {Rack: 0, NICUp: 1e6, NICDown: 1e6}},
		Monitor:  network.DefaultMonitor(),
	}
	if diff := cmp.Diff(wantNet, sc.Network, cmp.Comparer(func(a, b func(network.Sample)) bool { return a == nil && b == nil })); diff != "" {
		t.Errorf("network (-want +got):\n%s", diff)
	}
	// Defaults, with replicas capped by the 2 machines.
	got := []any{sc.Seed, sc.BlockSize, sc.Replicas, sc.ParallelFetches, sc.DefaultSlowStart, sc.Heartbeat, sc.HeartbeatOnly, sc.Scheduler.Name, sc.Knowledge.Model, sc.Output.Dir, sc.Path}
	wantD := []any{uint64(1), float64(128 << 20), 2, 5, 0.05, 1.0, false, "fifo", "exact", filepath.Join("out", "example"), "testdata/example.yaml"}
	if diff := cmp.Diff(wantD, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Machine{{Rack: 0, Slots: 2, NIC: 1e6, Speed: 1}, {Rack: 0, Slots: 2, NIC: 1e6, Speed: 1}}, sc.Machines); diff != "" {
		t.Errorf("machines (-want +got):\n%s", diff)
	}
}

func TestFullResolution(t *testing.T) {
	sc, err := Load("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const g = 1e9 / 8 // 1 Gbps in bytes/s
	wantMachines := []Machine{
		{Rack: 0, Slots: 8, NIC: 10 * g, Speed: 1}, {Rack: 0, Slots: 4, NIC: 10 * g, Speed: 1}, {Rack: 0, Slots: 4, NIC: 10 * g, Speed: 1},
		{Rack: 1, Slots: 4, NIC: 10 * g, Speed: 1}, {Rack: 1, Slots: 0, NIC: 10 * g, Speed: 1}, {Rack: 1, Slots: 4, NIC: g, Speed: 1},
	}
	if diff := cmp.Diff(wantMachines, sc.Machines); diff != "" {
		t.Errorf("machines (-want +got):\n%s", diff)
	}
	wantNet := network.Config{
		Kind:  network.Hybrid,
		Racks: 2,
		Machines: []network.Machine{
			{Rack: 0, NICUp: 10 * g, NICDown: 10 * g}, {Rack: 0, NICUp: 10 * g, NICDown: 10 * g}, {Rack: 0, NICUp: 10 * g, NICDown: 10 * g},
			{Rack: 1, NICUp: 10 * g, NICDown: 10 * g}, {Rack: 1, NICUp: 10 * g, NICDown: 10 * g}, {Rack: 1, NICUp: g, NICDown: g},
		},
		RackUp:           20 * g,
		Oversubscription: 4,
		OCS:              network.OCSConfig{PortSpeed: 40 * g, Interval: 0.5, Delay: 0.02, ElephantThreshold: 100e6},
		Monitor:          network.MonitorConfig{Interval: 2, Window: 10, Threshold: 0.7},
	}
	if diff := cmp.Diff(wantNet, sc.Network, cmp.Comparer(func(a, b func(network.Sample)) bool { return a == nil && b == nil })); diff != "" {
		t.Errorf("network (-want +got):\n%s", diff)
	}
	got := []any{sc.Seed, sc.BlockSize, sc.Replicas, sc.ParallelFetches, sc.DefaultSlowStart, sc.Heartbeat, sc.HeartbeatOnly, sc.Check, sc.Knowledge, sc.Scheduler.Name, sc.Output}
	want := []any{uint64(7), float64(64 << 20), 2, 10, 0.5, 3.0, true, true, KnowledgeSpec{Model: "multiplicative", F: 2}, "fair",
		OutputSpec{Dir: "results/everything", Tasks: true, Timeline: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}

	jobs := readJobs(t, sc)
	if len(jobs) != 2 || jobs[0].ID != "early" || jobs[1].ID != "late" {
		t.Fatalf("jobs not sorted by arrival: %v", jobs)
	}
	if jobs[0].Stages[0].Tasks[0].Output != 1234567 {
		t.Errorf("output = %g, want 1234567", jobs[0].Stages[0].Tasks[0].Output)
	}
	m := jobs[1].Stages[0]
	wantGen := &workload.TaskGen{
		Count:       3,
		Input:       workload.Dist{Kind: workload.Uniform, A: 64e6, B: 128e6},
		Share:       workload.Dist{Kind: workload.Zipf, A: 1.2},
		Compute:     workload.Dist{Kind: workload.Pareto, A: 1, B: 1.5},
		PerByte:     1 / 100e6,
		Output:      workload.Dist{Kind: workload.Exponential, A: 10e6},
		OutputRatio: 0.5,
	}
	if diff := cmp.Diff(wantGen, m.Generate); diff != "" {
		t.Errorf("generator (-want +got):\n%s", diff)
	}
	wantTask := workload.Task{Input: 1e9, Share: 2, Compute: 0.25, PerByte: 1 / 1e9, Output: 1e3, OutputRatio: 0.1, Pin: 3}
	if diff := cmp.Diff([]workload.Task{wantTask}, m.Tasks); diff != "" {
		t.Errorf("task (-want +got):\n%s", diff)
	}
	wantAfter := [][]workload.Dep{
		nil,
		{{Stage: "m", Kind: workload.FinishesBefore, SlowStart: 0.2, Pattern: workload.OneToOne}},
		{{Stage: "m"}, {Stage: "r", Pattern: workload.Broadcast}},
	}
	for i, s := range jobs[1].Stages {
		if diff := cmp.Diff(wantAfter[i], s.After); diff != "" {
			t.Errorf("stage %s deps (-want +got):\n%s", s.ID, diff)
		}
	}
	if r := jobs[1].Stages[1].Generate; r.Output != (workload.Dist{Kind: workload.Const, A: 5e6}) {
		t.Errorf("const dist = %+v", r.Output)
	}
}

// Parse(Encode(f)) gives f back, for every key of the schema.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"testdata/example.yaml", "testdata/full.yaml", "default.yaml"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			sc, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := Encode(&sc.File)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse("encoded.yaml", data, "")
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if diff := cmp.Diff(sc.File, back.File, cmp.AllowUnexported(WorkloadSpec{})); diff != "" {
				t.Errorf("round trip (-before +after):\n%s\n%s", diff, data)
			}
			if diff := cmp.Diff(readJobs(t, sc), readJobs(t, back)); diff != "" {
				t.Errorf("jobs differ after round trip (-before +after):\n%s", diff)
			}
		})
	}
}

func TestDefault(t *testing.T) {
	sc, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if sc.Path != "" || len(sc.Machines) != 20 || sc.Racks != 4 || sc.Network.Kind != network.TwoTier || sc.Network.Oversubscription != 2 {
		t.Errorf("cluster: path %q, %d machines, %d racks, %s x%g", sc.Path, len(sc.Machines), sc.Racks, sc.Network.Kind, sc.Network.Oversubscription)
	}
	jobs := readJobs(t, sc)
	users := map[string]int{}
	last := 0.0
	for _, j := range jobs {
		users[j.User]++
		if j.Arrival < last {
			t.Errorf("job %s arrives at %g before %g", j.ID, j.Arrival, last)
		}
		last = j.Arrival
	}
	if len(jobs) != 12 || len(users) != 2 || last > 60 {
		t.Errorf("%d jobs, users %v, last arrival %g; want 12 jobs of 2 users within a minute", len(jobs), users, last)
	}
	if string(DefaultYAML()) != string(defaultYAML) {
		t.Error("DefaultYAML differs from the embedded file")
	}
	// OpenWorkload gives an independent copy each time.
	a := readJobs(t, sc)
	a[0].Stages[0].Generate.Count = 999
	if b := readJobs(t, sc); b[0].Stages[0].Generate.Count == 999 {
		t.Error("OpenWorkload shares job data between passes")
	}
}

// Resolve applies the same checks to a File edited in code.
func TestResolve(t *testing.T) {
	sc, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	f := sc.File
	f.Network.Oversubscription = 4
	f.Scheduler = SchedulerSpec{Name: "fair"}
	got, err := Resolve("cell.yaml", &f, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Network.Oversubscription != 4 || got.Scheduler.Name != "fair" || got.Output.Dir != filepath.Join("out", "default") {
		t.Errorf("resolved: x%g %s %s", got.Network.Oversubscription, got.Scheduler.Name, got.Output.Dir)
	}
	f.Cluster.Racks = 0
	if _, err := Resolve("cell.yaml", &f, ""); err == nil || err.Error() != "cell.yaml:4:10: cluster.racks: expected an integer between 1 and 100000, got 0" {
		t.Errorf("error = %v", err)
	}
}

func TestDecodeDoesNotResolve(t *testing.T) {
	data, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Cluster.NIC != 1e6 || len(f.Workload.Jobs) != 1 || f.Scheduler.Name != "fifo" {
		t.Errorf("decoded %+v", f)
	}
}

// A generator registered once per test binary (registration panics on a
// duplicate); it records what it was given.
var gotOpts map[string]any
var gotSeed uint64

func init() {
	RegisterGenerator("test-gen", func(path string, opts map[string]any, sc *Scenario) (workload.Source, error) {
		gotOpts, gotSeed = opts, sc.Seed
		return &workload.SliceSource{}, nil
	})
}

func TestTraceAndGenerator(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "jobs.yaml")
	if err := os.WriteFile(trace, []byte("jobs:\n  - {id: x, arrival: 2s, stages: [{id: s, tasks: [{compute: 1s, pin: 1}]}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\nscheduler: fifo\n"
	sc, err := Parse(filepath.Join(dir, "s.yaml"), []byte(head+"workload: {trace: jobs.yaml}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	jobs := readJobs(t, sc)
	if len(jobs) != 1 || jobs[0].ID != "x" || jobs[0].Arrival != 2 {
		t.Errorf("trace jobs %+v", jobs)
	}

	// A data directory replaces the trace's directories: the file name is
	// looked up there, wherever the scenario says it is.
	sc, err = ParseWithData("d.yaml", []byte(head+"workload: {trace: ../elsewhere/jobs.yaml}\n"), "/nonexistent", dir)
	if err != nil {
		t.Fatal(err)
	}
	if jobs := readJobs(t, sc); len(jobs) != 1 || jobs[0].ID != "x" {
		t.Errorf("trace jobs from the data directory %+v", jobs)
	}
	if _, err := ParseWithData("d.yaml", []byte(head+"workload: {trace: jobs.yaml}\n"), dir, t.TempDir()); err == nil || !strings.Contains(err.Error(), "cannot read the trace") {
		t.Errorf("a data directory without the file: got %v, want the trace unreadable", err)
	}

	sc, err = Parse("g.yaml", []byte(head+"seed: 9\nworkload: {generate: test-gen, options: {jobs: 3}}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	readJobs(t, sc)
	if gotSeed != 9 || gotOpts["jobs"] != uint64(3) {
		t.Errorf("generator saw seed %d options %v", gotSeed, gotOpts)
	}
	if got := Generators(); !cmp.Equal(got, []string{"test-gen"}) {
		t.Errorf("Generators() = %v", got)
	}
}
