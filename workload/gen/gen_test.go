package gen_test

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/inspect"
	"github.com/netsched/netsched/workload"
	"github.com/netsched/netsched/workload/gen"
)

func drain(t testing.TB, src workload.Source) []workload.Job {
	t.Helper()
	out, err := workload.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		j := &out[i]
		if err := j.Validate(0); err != nil {
			t.Fatalf("job %s: %v", j.ID, err)
		}
		if i > 0 && j.Arrival < out[i-1].Arrival {
			t.Fatalf("job %s arrives at %g, before its predecessor (%g)", j.ID, j.Arrival, out[i-1].Arrival)
		}
	}
	return out
}

func open(t testing.TB, open scenario.Opener, opts map[string]any, seed uint64) []workload.Job {
	t.Helper()
	src, err := open("", opts, &scenario.Scenario{Seed: seed, BlockSize: 128 << 20, DefaultSlowStart: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	return drain(t, src)
}

var generators = []struct {
	name string
	open scenario.Opener
	opts map[string]any
}{
	{"synthetic", gen.OpenSynthetic, map[string]any{"count": 300, "users": 5, "queues": 2, "reduce_skew": map[string]any{"dist": "lognormal", "median": 1, "sigma": 0.5}}},
	{"fb2010", gen.OpenFB2010, map[string]any{"count": 500}},
	{"workflow", gen.OpenWorkflow, map[string]any{"count": 12, "mix": map[string]any{"kmeans": 1, "mf": 1, "tpch": 2}, "users": 3}},
	{"workflow-tez", gen.OpenWorkflow, map[string]any{"count": 12, "mix": map[string]any{"kmeans": 1, "tpch": 2}, "tez": true}},
	{"workflow-bursty", gen.OpenWorkflow, map[string]any{"arrival": "bursty", "span": "last4h", "count": 40, "mix": map[string]any{"bayes": 1, "tpch": 1}}},
	{"multistage", gen.OpenMultistage, map[string]any{"count": 60, "arrival": "uniform", "window": "10m"}},
}

// The same seed gives the same workload, pass after pass and opener after
// opener; another seed gives another workload.
func TestSameSeedSameWorkload(t *testing.T) {
	for _, g := range generators {
		t.Run(g.name, func(t *testing.T) {
			a := open(t, g.open, g.opts, 1)
			b := open(t, g.open, g.opts, 1)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("same seed, different jobs:\n%s", diff)
			}
			if len(a) == 0 {
				t.Fatal("no jobs")
			}
			if c := open(t, g.open, g.opts, 2); cmp.Equal(a, c) {
				t.Error("seeds 1 and 2 gave the same jobs")
			}
			// The seed option overrides the scenario's.
			opts := map[string]any{"seed": 1}
			for k, v := range g.opts {
				opts[k] = v
			}
			if d := open(t, g.open, opts, 99); !cmp.Equal(a, d) {
				t.Error("seed option 1 differs from scenario seed 1")
			}
		})
	}
}

func sizes(j *workload.Job) inspect.Sizes { return inspect.JobSizes(j, 0) }

// A large workload's statistics match the requested distributions. n =
// 20,000 jobs; each tolerance is at least four standard errors of the
// estimate, quoted next to it, so the test fails on a wrong generator and
// essentially never by chance (the seed is fixed anyway).
func TestSyntheticStatistics(t *testing.T) {
	opts := map[string]any{
		"count": 20000, "arrival": "poisson", "interarrival": "5s", "users": 10, "recurring": 0.3,
		"classes": []any{
			map[string]any{"name": "a", "weight": 3, "input": map[string]any{"dist": "lognormal", "median": "100MB", "sigma": 1},
				"map_only": 0.25, "shuffle_ratio": 0.5, "output_ratio": 0.2},
			map[string]any{"name": "b", "weight": 1, "input": map[string]any{"dist": "uniform", "min": "1GB", "max": "3GB"},
				"shuffle": map[string]any{"dist": "exponential", "mean": "1GB"}, "output_ratio": 1},
		},
	}
	js := open(t, gen.OpenSynthetic, opts, 42)
	n := float64(len(js))
	var aIn []float64
	var aMapOnly, aMR, rec int
	var bIn, bSh float64
	users := map[string]int{}
	for i := range js {
		j := &js[i]
		sz := sizes(j)
		users[j.User]++
		if j.Recurring {
			rec++
		}
		switch j.Class {
		case "a":
			aIn = append(aIn, sz.Input)
			if len(j.Stages) == 1 {
				aMapOnly++
				continue
			}
			aMR++
			if math.Abs(sz.Shuffle/sz.Input-0.5) > 1e-9 || math.Abs(sz.Output/sz.Shuffle-0.2) > 1e-9 {
				t.Fatalf("job %s: shuffle/input %g, output/shuffle %g", j.ID, sz.Shuffle/sz.Input, sz.Output/sz.Shuffle)
			}
		case "b":
			if sz.Input < 1e9 || sz.Input >= 3e9 || len(j.Stages) != 2 || math.Abs(sz.Output/sz.Shuffle-1) > 1e-9 {
				t.Fatalf("class b job %s: %+v", j.ID, sz)
			}
			bIn += sz.Input
			bSh += sz.Shuffle
		default:
			t.Fatalf("job %s has class %q", j.ID, j.Class)
		}
	}
	na, nb := float64(len(aIn)), n-float64(len(aIn))
	within := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.5g, want %.5g +- %.3g", what, got, want, tol)
		}
	}
	within("class a share", na/n, 0.75, 0.0125)                              // se 0.0031
	within("mean gap", js[len(js)-1].Arrival/(n-1), 5, 0.15)                 // se 0.035
	within("class a log median input", math.Log(median(aIn)/100e6), 0, 0.05) // se 0.0102
	within("class a map-only share", float64(aMapOnly)/na, 0.25, 0.015)      // se 0.0035
	within("class b mean input", bIn/nb/1e9, 2, 0.04)                        // se 0.0082
	within("class b mean shuffle", bSh/nb/1e9, 1, 0.06)                      // se 0.014
	within("recurring share", float64(rec)/n, 0.3, 0.015)                    // se 0.0032
	if len(users) != 10 {
		t.Errorf("%d users, want 10", len(users))
	}
	for u, c := range users {
		within("jobs of "+u, float64(c), 2000, 200) // se 42
	}
	if aMR == 0 {
		t.Error("no class a job has reduces")
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func gaps(js []workload.Job) []float64 {
	var g []float64
	for i := 1; i < len(js); i++ {
		g = append(g, js[i].Arrival-js[i-1].Arrival)
	}
	return g
}

func TestArrivalProcesses(t *testing.T) {
	// Trace-like: lognormal gaps with median 2 s, sigma 1; the sample
	// median's log has standard error 1.2533 x sigma / sqrt(n) = 0.0089.
	js := open(t, gen.OpenSynthetic, map[string]any{"count": 20000, "arrival": "trace-like",
		"interarrival": map[string]any{"dist": "lognormal", "median": "2s", "sigma": 1}}, 3)
	if m := median(gaps(js)); math.Abs(math.Log(m/2)) > 0.04 {
		t.Errorf("median gap %g, want 2", m)
	}
	if js[0].Arrival != 0 {
		t.Errorf("first arrival %g, want 0", js[0].Arrival)
	}
	// Uniform in a window: sorted, inside [0, 1000), half in each half
	// (standard error 0.005 at n = 10,000).
	js = open(t, gen.OpenSynthetic, map[string]any{"count": 10000, "arrival": "uniform", "window": 1000}, 3)
	first := 0
	for _, j := range js {
		if j.Arrival < 0 || j.Arrival >= 1000 {
			t.Fatalf("arrival %g outside the window", j.Arrival)
		}
		if j.Arrival < 500 {
			first++
		}
	}
	if f := float64(first) / 10000; math.Abs(f-0.5) > 0.02 {
		t.Errorf("%.3f of uniform arrivals in the first half", f)
	}
	// A duration instead of a count: Poisson arrivals with mean gap 1 s up
	// to 1000 s are about 1000 jobs (standard deviation 32).
	js = open(t, gen.OpenSynthetic, map[string]any{"count": 0, "duration": 1000, "interarrival": 1}, 3)
	if len(js) < 870 || len(js) > 1130 || js[len(js)-1].Arrival > 1000 {
		t.Errorf("%d jobs, last at %g", len(js), js[len(js)-1].Arrival)
	}
}

// fb2010 resembles the SWIM FB-2010 day. The trace's figures (from
// trace/inspect's golden test): 24,442 jobs, 34.06% map-only, 50.02%
// small-input and 68.70% shuffle-light (NAS bins), input p50 10.43 MB, a
// total input of 1.083 PB, mean gap 3.535 s. The generator draws classes
// and sizes independently per job, so shares carry a standard error of
// about 0.003 and the tolerances below are 5 of those; totals, dominated by
// the largest jobs, are only asked to be within a factor of 1.5.
func TestFB2010Resembles(t *testing.T) {
	s, err := gen.ParseFB2010(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := inspect.Collect(s.Source())
	if err != nil {
		t.Fatal(err)
	}
	if st.Jobs != 24442 {
		t.Errorf("%d jobs", st.Jobs)
	}
	for _, c := range []struct {
		what      string
		got, want float64
		tol       float64
	}{
		{"map-only", st.MapOnly, 0.3406, 0.015},
		{"small-input", st.InputClasses[0].Fraction, 0.5002, 0.015},
		{"shuffle-light", st.ShuffleClasses[0].Fraction, 0.6870, 0.015},
		{"mean gap / 3.535 s", st.MeanGap / 3.535, 1, 0.1},
		{"log(input p50 / 10.43 MB)", math.Log(st.Input.P50 / 10.43e6), 0, math.Log(1.5)},
		{"log(total input / 1.083 PB)", math.Log(st.TotalInput / 1.083e15), 0, math.Log(1.5)},
		{"log(total shuffle / 437.9 TB)", math.Log(st.TotalShuffle / 437.9e12), 0, math.Log(1.5)},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.4g, want %.4g +- %.3g", c.what, c.got, c.want, c.tol)
		}
	}
}

func TestGeneratorOptionErrors(t *testing.T) {
	for _, c := range []struct {
		open scenario.Opener
		opts map[string]any
		want string
	}{
		{gen.OpenSynthetic, map[string]any{"interarrival": map[string]any{"dist": "lognormal", "median": "1s", "sigma": 1}},
			`synthetic options: option "interarrival": poisson arrivals take a mean gap (a duration), not a lognormal distribution; use arrival: trace-like`},
		{gen.OpenSynthetic, map[string]any{"arrival": "uniform", "count": 0, "duration": 10},
			`synthetic options: option "count": uniform arrivals need a count`},
		{gen.OpenSynthetic, map[string]any{"count": 0},
			`synthetic options: option "count": give count or duration (both 0 would generate forever)`},
		{gen.OpenSynthetic, map[string]any{"classes": []any{}},
			`synthetic options: option "classes": give at least one class`},
		{gen.OpenSynthetic, map[string]any{"classes": []any{map[string]any{"shuffle": "1GB", "shuffle_ratio": 2}}},
			`synthetic options: option "classes[0].shuffle": give shuffle or shuffle_ratio, not both`},
		{gen.OpenFB2010, map[string]any{"cuont": 5},
			`fb2010 options: unknown option "cuont"; did you mean "count"? (known: arrival, bin, block, burst, bytes_per_reducer, classes, count, duration, interarrival, map_overhead, map_rate, max_reducers, queues, recurring, reduce_overhead, reduce_rate, reduce_skew, reducers, seed, span, span_length, span_start, user_assign, users, window)`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"kmean": 1}},
			`workflow options: option "mix": weights sum to 0; give at least one of kmeans, bayes, pagerank, mf, lda, tpch a positive weight`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"kmeans": 1, "kmean": 1}},
			`workflow options: unknown option "mix.kmean"; did you mean "kmeans"? (known: bayes, kmeans, lda, mf, pagerank, tpch)`},
		// tpch_min_depth went with the random-depth tpch shape (no committed
		// reproduction used it): the 22 queries have fixed depths.
		{gen.OpenWorkflow, map[string]any{"tpch_min_depth": 3},
			`workflow options: unknown option "tpch_min_depth" (known: arrival, bin, block, broadcast_below, burst, bytes_per_reducer, count, dependent_ratio, duration, input, interarrival, map_overhead, map_rate, max_reducers, mix, queries, queues, ratios, recurring, reduce_overhead, reduce_rate, reduce_skew, reducers, seed, span, span_length, span_start, tez, tez_slowstart, user_assign, users, window)`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"tpch": 1}, "queries": []any{"q1", "q23"}},
			`workflow options: option "queries": q23 is not a TPC-H query (q1 to q22)`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"tpch": 1}, "queries": []any{"q3", "Q3"}},
			`workflow options: option "queries": Q3 is not a TPC-H query (q1 to q22)`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"tpch": 1}, "queries": []any{"q3", "q3"}},
			`workflow options: option "queries": q3 is listed twice`},
		{gen.OpenWorkflow, map[string]any{"mix": map[string]any{"tpch": 1}, "queries": "q3"},
			`workflow options: option "queries": expected a non-empty list of TPC-H queries such as [q1, q9], got q3`},
		{gen.OpenWorkflow, map[string]any{"queries": []any{"q3"}},
			`workflow options: option "queries": no tpch workflow runs them: give tpch a weight in mix`},
		{gen.OpenWorkflow, map[string]any{"broadcast_below": "1MB"},
			`workflow options: option "broadcast_below": applies to tez: true only`},
		{gen.OpenWorkflow, map[string]any{"tez": "yes"},
			`workflow options: option "tez": yes is not true or false`},
		{gen.OpenWorkflow, map[string]any{"ratios": map[string]any{"scan": map[string]any{"shuffle": 1}}},
			`workflow options: unknown option "ratios.scan" (known: agg, final, init, iter, load, prep)`},
		{gen.OpenWorkflow, map[string]any{"ratios": map[string]any{"load": map[string]any{"shuffle": 0}}},
			`workflow options: option "ratios": ratios.load.shuffle is 0, so no load output can reach dependent_ratio; give ratios.load.output too`},
		{gen.OpenWorkflow, map[string]any{"dependent_ratio": 0},
			`workflow options: option "dependent_ratio": must be greater than 0`},
		{gen.OpenWorkflow, map[string]any{"span": "first4h"},
			`workflow options: option "span": applies to arrival: bursty only`},
		{gen.OpenWorkflow, map[string]any{"arrival": "bursty", "span": "first4h", "span_start": "1h"},
			`workflow options: option "span": give span or span_start/span_length, not both`},
		{gen.OpenWorkflow, map[string]any{"arrival": "bursty", "span": "first2h"},
			`workflow options: option "span": first2h is not one of first4h, middle4h, last4h, all`},
		{gen.OpenWorkflow, map[string]any{"arrival": "bursty", "span_start": "11h", "span_length": "2h"},
			`workflow options: option "span_length": the span [39600s, 46800s) must be non-empty and within the 12-hour profile (43200 s)`},
		{gen.OpenWorkflow, map[string]any{"arrival": "bursty", "bin": "7m"},
			`workflow options: option "bin": 420s does not divide the 4-hour windows (14400 s)`},
		{gen.OpenWorkflow, map[string]any{"ratios": map[string]any{"iter": map[string]any{"shufle": 1}}},
			`workflow options: unknown option "ratios.iter.shufle"; did you mean "shuffle"? (known: output, shuffle)`},
		{gen.OpenMultistage, map[string]any{"min_stages": 1},
			`multistage options: option "min_stages": need 2 <= min_stages <= max_stages, got 1 and 8`},
	} {
		_, err := c.open("", c.opts, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got %v\nwant %s", c.opts, err, c.want)
		}
	}
}
