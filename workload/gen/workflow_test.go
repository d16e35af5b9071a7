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

// Job sizes follow the role ratios along the DAG: a map's output ratio is
// its role's shuffle ratio, and the expected bytes that reach a job are its
// parents' outputs (checked through inspect's independent propagation).
// Changed with the calibrated ML ratios: bayes's first job is now the
// "load" role (it was "prep") and agg maps all it reads (shuffle 1) and
// writes 0.05 of it.
func TestWorkflowRatios(t *testing.T) {
	opts := map[string]any{"count": 1, "mix": map[string]any{"bayes": 1}, "input": "8GB",
		"ratios": map[string]any{"load": map[string]any{"shuffle": 2, "output": 0.5}}}
	js := open(t, gen.OpenWorkflow, opts, 1)
	st, err := inspect.Collect(&workload.SliceSource{Jobs: js})
	if err != nil {
		t.Fatal(err)
	}
	// tokenize (load): 8 GB in, 16 GB shuffle, 8 GB out; wordcount (agg:
	// 1, 0.05) reads those 8 GB: 8 GB shuffle, 0.4 GB out.
	tok, wc := inspect.JobSizes(&js[0], 0), inspect.JobSizes(&js[1], 8e9)
	for _, c := range []struct{ got, want float64 }{
		{tok.Input, 8e9}, {tok.Shuffle, 16e9}, {tok.Output, 8e9}, {wc.Shuffle, 8e9}, {wc.Output, 0.4e9},
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

// mlBytes measures a MapReduce workflow as Dawn Fig. 3 does: input read
// from the DFS by its jobs, dependent bytes read from parent jobs, and the
// intermediate (shuffle) bytes of the jobs after the first level. Every
// job's bytes come from inspect's propagation, with its parents' outputs
// as its dependent input.
func mlBytes(wf []workload.Job) (input, dependent, intermediate float64) {
	out := map[string]float64{}
	for i := range wf {
		j := &wf[i]
		dep := 0.0
		for _, p := range j.After {
			dep += out[p]
		}
		sz := inspect.JobSizes(j, dep)
		out[j.ID] = sz.Output
		input += sz.Input
		dependent += dep
		if len(j.After) > 0 {
			intermediate += sz.Shuffle
		}
	}
	return input, dependent, intermediate
}

// Dawn §2.2: in ML workloads the input is about 1/12 of the dependent data
// and of the intermediate data. Each benchmark is calibrated to it, so the
// ratio holds per kind (whatever Table 2 size is drawn) and so on average
// over any mix; the tolerance only absorbs float rounding. Another
// dependent_ratio is followed the same way.
func TestMLDataRatio(t *testing.T) {
	js := open(t, gen.OpenWorkflow, map[string]any{"count": 60}, 3)
	kinds := map[string]int{}
	var sumDep, sumInter float64
	wfs := workflows(js)
	for _, wf := range wfs {
		in, dep, inter := mlBytes(wf)
		if math.Abs(dep/in-12) > 1e-9*12 || math.Abs(inter/in-12) > 1e-9*12 {
			t.Errorf("%s: dependent/input %.6f, intermediate/input %.6f, want 12", wf[0].Class, dep/in, inter/in)
		}
		kinds[wf[0].Class]++
		sumDep += dep / in
		sumInter += inter / in
	}
	if len(kinds) != 5 {
		t.Errorf("60 workflows covered kinds %v", kinds)
	}
	if n := float64(len(wfs)); math.Abs(sumDep/n-12) > 1e-9 || math.Abs(sumInter/n-12) > 1e-9 {
		t.Errorf("average ratios %g and %g, want 12", sumDep/n, sumInter/n)
	}
	for _, ratio := range []float64{6, 20} {
		js := open(t, gen.OpenWorkflow, map[string]any{"count": 5, "dependent_ratio": ratio}, 3)
		for _, wf := range workflows(js) {
			if in, dep, _ := mlBytes(wf); math.Abs(dep/in-ratio) > 1e-9*ratio {
				t.Errorf("dependent_ratio %g: %s has %.6f", ratio, wf[0].Class, dep/in)
			}
		}
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
