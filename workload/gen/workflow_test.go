package gen_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/trace/inspect"
	"github.com/netsched/netsched/workload"
	"github.com/netsched/netsched/workload/gen"
)

// workflows groups jobs by their "wfN-" prefix, in order.
func workflows(js []workload.Job) [][]workload.Job {
	var out [][]workload.Job
	prefix := ""
	for _, j := range js {
		p, _, _ := strings.Cut(j.ID, "-")
		if p != prefix {
			out = append(out, nil)
			prefix = p
		}
		out[len(out)-1] = append(out[len(out)-1], j)
	}
	return out
}

// dagDepth is the number of jobs on the longest After path; it also checks
// that parents come earlier and arrive with their children.
func dagDepth(t *testing.T, wf []workload.Job) int {
	t.Helper()
	depth := map[string]int{}
	arrival := map[string]float64{}
	best := 0
	for _, j := range wf {
		d := 1
		for _, p := range j.After {
			pd, ok := depth[p]
			if !ok {
				t.Fatalf("job %s depends on %s, which is not an earlier job of its workflow", j.ID, p)
			}
			if arrival[p] != j.Arrival {
				t.Fatalf("job %s arrives apart from its parent %s", j.ID, p)
			}
			d = max(d, pd+1)
		}
		depth[j.ID], arrival[j.ID] = d, j.Arrival
		best = max(best, d)
	}
	return best
}

// Each ML workflow has Dawn Table 2's DAG depth; its first job reads one
// of Table 2's input sizes and dependent jobs read only their parents.
func TestWorkflowShapes(t *testing.T) {
	for kind, want := range map[string]int{"kmeans": 11, "bayes": 8, "pagerank": 11, "mf": 21, "lda": 18} {
		js := open(t, gen.OpenWorkflow, map[string]any{"count": 3, "mix": map[string]any{kind: 1}}, 5)
		wfs := workflows(js)
		if len(wfs) != 3 {
			t.Fatalf("%s: %d workflows", kind, len(wfs))
		}
		for _, wf := range wfs {
			if d := dagDepth(t, wf); d != want {
				t.Errorf("%s: depth %d, want %d", kind, d, want)
			}
			if wf[0].Class != kind || len(wf[0].After) != 0 {
				t.Errorf("%s: first job %+v", kind, wf[0])
			}
			in := sizes(&wf[0]).Input
			ok := false
			for _, gb := range map[string][]float64{"kmeans": {2.5, 6.5, 10.2}, "bayes": {5.8, 7.8, 11.9}, "pagerank": {3.4, 6.6, 8.8},
				"mf": {4.5, 5.5, 7.3}, "lda": {6.2, 8.4, 10.1}}[kind] {
				ok = ok || math.Abs(in/(gb*1e9)-1) < 1e-9
			}
			if !ok {
				t.Errorf("%s: input %g is not a Table 2 size", kind, in)
			}
			for _, j := range wf[1:] {
				if len(j.After) == 0 || sizes(&j).Input != 0 {
					t.Errorf("%s: job %s should depend on others and read no file", kind, j.ID)
				}
			}
		}
	}
}

// TPC-H-like queries: depth uniform in [4, 8] (mean 6, Dawn's average),
// left-deep joins with two parents, scans that read the 50 GB input
// between them; uniform arrivals over a 10-minute window (Dawn §5.2).
func TestWorkflowTPCH(t *testing.T) {
	js := open(t, gen.OpenWorkflow, map[string]any{"count": 200, "mix": map[string]any{"tpch": 1},
		"arrival": "uniform", "window": "10m"}, 8)
	depths := map[int]int{}
	for _, wf := range workflows(js) {
		d := dagDepth(t, wf)
		depths[d]++
		var input float64
		for _, j := range wf {
			input += sizes(&j).Input
			if strings.Contains(j.ID, "-join") && len(j.After) != 2 {
				t.Errorf("join %s has %d parents", j.ID, len(j.After))
			}
			if j.Arrival < 0 || j.Arrival >= 600 {
				t.Errorf("arrival %g outside the window", j.Arrival)
			}
		}
		if math.Abs(input/50e9-1) > 1e-9 {
			t.Errorf("query reads %g bytes, want 50 GB", input)
		}
	}
	// 200 queries over 5 depths: 40 expected each, standard deviation 5.7.
	for d := 4; d <= 8; d++ {
		if depths[d] < 17 || depths[d] > 63 {
			t.Errorf("depth %d: %d queries (all: %v)", d, depths[d], depths)
		}
	}
	if len(depths) != 5 {
		t.Errorf("depths %v outside [4, 8]", depths)
	}
}

// Job sizes follow the role ratios along the DAG: a map's output ratio is
// its role's shuffle ratio, and the expected bytes that reach a job are its
// parents' outputs (checked through inspect's independent propagation).
func TestWorkflowRatios(t *testing.T) {
	opts := map[string]any{"count": 1, "mix": map[string]any{"bayes": 1}, "input": "8GB",
		"ratios": map[string]any{"prep": map[string]any{"shuffle": 2, "output": 0.5}}}
	js := open(t, gen.OpenWorkflow, opts, 1)
	st, err := inspect.Collect(&workload.SliceSource{Jobs: js})
	if err != nil {
		t.Fatal(err)
	}
	// tokenize (prep): 8 GB in, 16 GB shuffle, 8 GB out; wordcount (agg:
	// 0.1, 0.5) reads those 8 GB: 0.8 GB shuffle, 0.4 GB out.
	tok, wc := inspect.JobSizes(&js[0], 0), inspect.JobSizes(&js[1], 8e9)
	for _, c := range []struct{ got, want float64 }{
		{tok.Input, 8e9}, {tok.Shuffle, 16e9}, {tok.Output, 8e9}, {wc.Shuffle, 0.8e9}, {wc.Output, 0.4e9},
		{float64(js[0].Stages[0].Generate.Count), 60}, // ceil(8e9 / 128 MiB)
		{js[0].Stages[0].Generate.OutputRatio, 2},
	} {
		if math.Abs(c.got-c.want) > 1e-6*c.want {
			t.Errorf("got %g, want %g", c.got, c.want)
		}
	}
	if st.TotalDependent == 0 || st.Dependent != 7.0/8 {
		t.Errorf("dependent bytes %g, share %g", st.TotalDependent, st.Dependent)
	}
}

// Multistage jobs use all three edge patterns; a broadcast parent is a
// side table whose output is under the threshold; one-to-one children keep
// their parent's parallelism; chains have the requested length.
func TestMultistage(t *testing.T) {
	js := open(t, gen.OpenMultistage, map[string]any{"count": 300, "side_input": map[string]any{"dist": "lognormal", "median": "20MB", "sigma": 2}}, 4)
	patterns := map[workload.Pattern]int{}
	for _, j := range js {
		chain := 0
		count := map[string]int{}
		for _, s := range j.Stages {
			count[s.ID] = s.Generate.Count
			if strings.HasPrefix(s.ID, "v") {
				chain++
			}
			for _, d := range s.After {
				patterns[d.Pattern]++
				switch d.Pattern {
				case workload.Broadcast:
					side := j.Stages[slices.IndexFunc(j.Stages, func(x workload.Stage) bool { return x.ID == d.Stage })].Generate
					if out := float64(side.Count) * side.Input.A * side.OutputRatio; !strings.HasPrefix(d.Stage, "t") || out >= 10e6 {
						t.Errorf("%s: broadcast from %s writing %g bytes", j.ID, d.Stage, out)
					}
				case workload.OneToOne:
					if count[d.Stage] != s.Generate.Count {
						t.Errorf("%s: one-to-one %s -> %s changes parallelism", j.ID, d.Stage, s.ID)
					}
				case workload.ScatterGather:
					if d.Kind != workload.FinishesBefore || d.SlowStart != 0.25 {
						t.Errorf("%s: shuffle edge %+v", j.ID, d)
					}
				}
			}
		}
		if chain < 3 || chain > 8 {
			t.Errorf("%s: chain of %d stages", j.ID, chain)
		}
	}
	for _, p := range []workload.Pattern{workload.ScatterGather, workload.Broadcast, workload.OneToOne} {
		if patterns[p] == 0 {
			t.Errorf("no %s edge in 300 jobs: %v", p, patterns)
		}
	}
	// No joins and always one-to-one: a single pipeline at the scan's width.
	for _, j := range open(t, gen.OpenMultistage, map[string]any{"count": 20, "join_prob": 0, "one_to_one_prob": 1}, 4) {
		for _, s := range j.Stages {
			if s.Generate.Count != j.Stages[0].Generate.Count || strings.HasPrefix(s.ID, "t") {
				t.Fatalf("%s: stage %s", j.ID, s.ID)
			}
		}
	}
}
