package inspect

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/netsched/netsched/workload"
)

// A Tez-like job exercising every rule of JobSizes, computed by hand.
func tezJob() workload.Job {
	sg := func(s string) workload.Dep { return workload.Dep{Stage: s, Pattern: workload.ScatterGather} }
	return workload.Job{ID: "tez", Stages: []workload.Stage{
		// 4 x 100 bytes read, half written: 200.
		{ID: "scan", Generate: &workload.TaskGen{Count: 4, Input: workload.ConstDist(100), OutputRatio: 0.5}},
		// A fixed output: 3.
		{ID: "dim", Tasks: []workload.Task{{Input: 10, Output: 3}}},
		// Fetches all 200 shuffled plus 3 broadcast to each of 2 tasks: 206.
		{ID: "join", After: []workload.Dep{sg("scan"), {Stage: "dim", Pattern: workload.Broadcast}},
			Generate: &workload.TaskGen{Count: 2, OutputRatio: 1}},
		// One-to-one: each task gets 103; ratio 2 on one, a fixed 7 on the other: 213.
		{ID: "post", After: []workload.Dep{{Stage: "join", Pattern: workload.OneToOne}},
			Tasks: []workload.Task{{OutputRatio: 2}, {Output: 7}}},
		// Shares 3, 1 and two Zipf ranks (1, 0.5) split scan's 200; ratio 1 writes it all.
		{ID: "skew", After: []workload.Dep{sg("scan")},
			Tasks:    []workload.Task{{Share: 3, OutputRatio: 1}, {Share: 1, OutputRatio: 1}},
			Generate: &workload.TaskGen{Count: 2, Share: workload.Dist{Kind: workload.Zipf, A: 1}, OutputRatio: 1}},
	}}
}

func TestJobSizes(t *testing.T) {
	j := tezJob()
	if err := j.Validate(0); err != nil {
		t.Fatal(err)
	}
	approx := cmpopts.EquateApprox(1e-12, 0)
	// Input 400 + 10; shuffle = scan + dim + join = 200 + 3 + 206; output = post + skew = 213 + 200.
	if diff := cmp.Diff(Sizes{Input: 410, Shuffle: 409, Output: 413}, JobSizes(&j, 0), approx); diff != "" {
		t.Errorf("sizes (-want +got):\n%s", diff)
	}
	// 40 dependent bytes over the 5 root tasks: 8 each. scan writes
	// 0.5 x (400 + 32) = 216, dim still 3; join 216 + 6 = 222; post
	// 222 + 7 = 229; skew 216.
	if diff := cmp.Diff(Sizes{Input: 410, Dependent: 40, Shuffle: 441, Output: 445}, JobSizes(&j, 40), approx); diff != "" {
		t.Errorf("sizes with dependent input (-want +got):\n%s", diff)
	}
}

func TestRank(t *testing.T) {
	v := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	if diff := cmp.Diff(Percentiles{P10: 1, P50: 5, P90: 9, P99: 10, Max: 10}, Summarize(v)); diff != "" {
		t.Errorf("nearest rank (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Percentiles{P10: 7, P50: 7, P90: 7, P99: 7, Max: 7}, Summarize([]float64{7})); diff != "" {
		t.Error(diff)
	}
	if (Summarize(nil) != Percentiles{}) {
		t.Error("empty")
	}
}

func TestCollect(t *testing.T) {
	j := tezJob()
	mo := workload.Job{ID: "m", Arrival: 4, User: "u1", Queue: "q", Recurring: true, Class: "tiny",
		Stages: []workload.Stage{{ID: "map", Generate: &workload.TaskGen{Count: 3, Input: workload.ConstDist(20 << 20), Output: workload.ConstDist(1)}}}}
	dep := workload.Job{ID: "d", Arrival: 8, After: []string{"tez"}, Class: "tiny",
		Stages: []workload.Stage{{ID: "map", Generate: &workload.TaskGen{Count: 1, OutputRatio: 1}}}}
	st, err := Collect(&workload.SliceSource{Jobs: []workload.Job{j, mo, dep}})
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{
		Jobs: 3, FirstArrival: 0, LastArrival: 8, Span: 8, Rate: 3.0 / 8, MeanGap: 4,
		// d reads tez's 413 output bytes and writes them (a leaf: output).
		TotalInput: 410 + 60<<20, TotalShuffle: 409, TotalOutput: 413 + 3 + 413, TotalDependent: 413, TotalTasks: 4 + 1 + 2 + 2 + 4 + 3 + 1,
		// tez's edges: join 2 x (4 scan + 1 dim), post 2 (one-to-one), skew 4 x 4.
		MaxTransfers: 2*(4+1) + 2 + 4*4,
		Input:        Percentiles{0, 410, 60 << 20, 60 << 20, 60 << 20},
		Shuffle:      Percentiles{0, 0, 409, 409, 409},
		Output:       Percentiles{3, 413, 413, 413, 413},
		Tasks:        Percentiles{1, 3, 13, 13, 13},
		Maps:         Percentiles{1, 3, 5, 5, 5},
		Reduces:      Percentiles{0, 0, 8, 8, 8},
		Stages:       Percentiles{1, 1, 5, 5, 5},
		MapOnly:      2.0 / 3, Dependent: 1.0 / 3, Recurring: 1.0 / 3, Users: 2, Queues: 2,
		SizeClasses:  []Share{{"small (<1GiB)", 3, 1}, {"medium (1-100GiB)", 0, 0}, {"large (>=100GiB)", 0, 0}},
		InputClasses: []Share{{"small-input (<10MiB)", 2, 2.0 / 3}, {"large-input (>=10MiB)", 1, 1.0 / 3}},
		ShuffleClasses: []Share{{"shuffle-light (<1MiB)", 3, 1}, {"shuffle-medium (1-100MiB)", 0, 0},
			{"shuffle-heavy (>100MiB)", 0, 0}},
		Labels: []Share{{"tiny", 2, 2.0 / 3}},
	}
	if diff := cmp.Diff(&want, st, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	empty, err := Collect(&workload.SliceSource{})
	if err != nil || empty.Jobs != 0 {
		t.Errorf("empty: %+v %v", empty, err)
	}
	bad := workload.Job{ID: "x"}
	if _, err := Collect(&workload.SliceSource{Jobs: []workload.Job{bad}}); err == nil || err.Error() != "job x: stages: a job needs at least one stage" {
		t.Errorf("invalid job: %v", err)
	}
}

// The table for the SWIM fixture, sized with the built-in scenario's
// 128 MB (decimal) blocks and no cluster.
const smallTable = `jobs            5
arrivals        0s .. 20s (span 20s)
arrival rate    0.25 jobs/s (mean gap 5s)
map-only        40.00%
dependent jobs  0.00%
recurring       0.00%
users / queues  1 / 1

per job           p10  p50         p90         p99         max         total
input             0B   134.2177MB  1.0737GB    1.0737GB    1.0737GB    1.4764GB
shuffle           0B   10B         1.0737GB    1.0737GB    1.0737GB    1.1409GB
output            0B   1kB         536.8709MB  536.8709MB  536.8709MB  570.4264MB
tasks             1    2           33          33          33          43
root-stage tasks  1    2           9           9           9
other tasks       0    1           24          24          24
stages            1    2           2           2           2
stage transfers   at most 223 (one machine per parent task)

size classes   small (<1GiB) 80.00%, medium (1-100GiB) 20.00%, large (>=100GiB) 0.00%
input (NAS)    small-input (<10MiB) 40.00%, large-input (>=10MiB) 60.00%
shuffle (NAS)  shuffle-light (<1MiB) 60.00%, shuffle-medium (1-100MiB) 20.00%, shuffle-heavy (>100MiB) 20.00%
`

// The transfer bound by hand: job2 has 3 maps and 2 reduces (6), job3 1
// and 1 (1), job4 9 and 24 (216 with a machine per map, 24 x 4 = 96 on
// 4 machines); map-only jobs transfer nothing.
func TestMaxTransfers(t *testing.T) {
	for _, c := range []struct {
		machines int
		want     int64
	}{{0, 223}, {4, 103}, {100, 223}} {
		in := Input{Path: "testdata/small.tsv"}
		src, err := in.Open()
		if err != nil {
			t.Fatal(err)
		}
		st, err := CollectOn(src, c.machines)
		if err != nil {
			t.Fatal(err)
		}
		if st.MaxTransfers != c.want {
			t.Errorf("%d machines: %d transfers, want %d", c.machines, st.MaxTransfers, c.want)
		}
	}
}

func TestInspectTable(t *testing.T) {
	st, err := Inspect(Input{Path: "testdata/small.tsv"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := st.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(smallTable, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	js, err := json.Marshal(st)
	if err != nil || !strings.Contains(string(js), `"map_only_fraction":0.4,`) {
		t.Errorf("json: %v %s", err, js)
	}
}

// A coflow trace gets coflow statistics; a scenario sizes the jobs for its
// cluster (8 slots cap the reducers, 64 MiB blocks set the maps).
func TestInspectCoflowAndScenario(t *testing.T) {
	st, err := Inspect(Input{Path: "testdata/small-coflow.txt", Scenario: "testdata/cluster.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	c := st.Coflows
	if c == nil {
		t.Fatal("no coflow statistics")
	}
	got := []float64{float64(c.Flows), c.Width.Max, c.Length.P10, c.Length.P50, c.Length.Max, c.Under100MB, c.Bins[0].Fraction, c.Bins[1].Fraction}
	// Widths 2, 2, 6; lengths 10/2, 64/1 and 3/3 MiB.
	want := []float64{10, 6, 1 << 20, 5 << 20, 64 << 20, 1, 1.0 / 3, 2.0 / 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coflow statistics (-want +got):\n%s", diff)
	}
	// c2's 158.08 MiB input over 64 MiB blocks: 3 maps.
	if st.Maps.Max != 3 {
		t.Errorf("maps max %g", st.Maps.Max)
	}
	sw, err := Inspect(Input{Path: "testdata/small.tsv", Format: "swim", Scenario: "testdata/cluster.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	// job4: 1 GiB / 64 MiB = 16 maps; 24 reducers capped at the 8 slots.
	if sw.Tasks.Max != 24 || sw.Reduces.Max != 8 {
		t.Errorf("tasks %+v reduces %+v", sw.Tasks, sw.Reduces)
	}
}

func TestInputErrorsAndOptions(t *testing.T) {
	seed := uint64(4)
	st, err := Inspect(Input{Generate: "workflow", Options: map[string]any{"count": 2}, Seed: &seed})
	if err != nil || st.Dependent == 0 || st.TotalDependent == 0 {
		t.Fatalf("workflow: %v %+v", err, st)
	}
	for _, c := range []struct {
		in   Input
		want string
	}{
		{Input{Path: "x.csv"}, "x.csv: cannot tell the format from the extension; give --from swim, coflow or native"},
		{Input{Path: "testdata/small.tsv", Generate: "fb2010"}, "give a trace file or a generator, not both"},
		{Input{}, "give a trace file or a generator"},
		{Input{Path: "testdata/small.tsv", Options: map[string]any{"users": -1}}, `swim options: option "users": number -1 is negative`},
		{Input{Generate: "nope"}, `unknown generator "nope" (known: `},
		{Input{Path: "testdata/small.tsv", Format: "csv"}, `unknown trace format "csv" (known: `},
		{Input{Path: "testdata/none.tsv"}, `stat testdata/none.tsv: no such file or directory`},
	} {
		_, err := Inspect(c.in)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	opts, err := ParseOptions([]string{"users=200", "reduce_skew={dist: zipf, exponent: 1}", "block=64MiB"})
	want := map[string]any{"users": uint64(200), "reduce_skew": map[string]any{"dist": "zipf", "exponent": uint64(1)}, "block": "64MiB"}
	if err != nil || !cmp.Equal(want, opts) {
		t.Errorf("options %#v %v", opts, err)
	}
	if _, err := ParseOptions([]string{"users"}); err == nil || err.Error() != `option "users": expected key=value` {
		t.Errorf("bad pair: %v", err)
	}
	for from, want := range map[string]string{"coflow": "coflow-benchmark", "swim": "swim"} {
		if got, _ := FormatOf("a.bin", from); got != want {
			t.Errorf("FormatOf(%s) = %s", from, got)
		}
	}
	if got, _ := FormatOf("a.JSONL", ""); got != "native" {
		t.Errorf("jsonl: %s", got)
	}
	if math.IsNaN(st.Rate) {
		t.Error("rate")
	}
}
