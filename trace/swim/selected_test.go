package swim

import (
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/netsched/netsched/workload"
)

func selected(t *testing.T, path string, opts map[string]any) []workload.Job {
	t.Helper()
	src, err := OpenSelect(path, opts, cluster())
	if err != nil {
		t.Fatal(err)
	}
	return drain(t, src)
}

func ids(jobs []workload.Job) []string {
	var out []string
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

// testdata/strata.tsv has shuffles 5, 50, 500, 6, 60, 600, 0, 7 bytes
// (jobs a-h). Bands [1, 10), [10, 100), [100, 1000] with shares 0.5 /
// 0.25 / 0.25 of four jobs: two of {a, d, h}, one of {b, e}, one of {c,
// f}; g (map-only) is in no band.
func TestSelectShuffleBands(t *testing.T) {
	opts := map[string]any{
		"max_jobs":       4,
		"select_shuffle": map[string]any{"p": []any{0, 0.5, 0.75, 1}, "values": []any{1, 10, 100, 1000}},
		"arrival":        "batch",
	}
	jobs := selected(t, "testdata/strata.tsv", opts)
	if len(jobs) != 4 {
		t.Fatalf("%d jobs, want 4", len(jobs))
	}
	band := map[string]int{"a": 0, "d": 0, "h": 0, "b": 1, "e": 1, "c": 2, "f": 2}
	n := [3]int{}
	for _, j := range jobs {
		b, ok := band[j.ID]
		if !ok {
			t.Errorf("job %s is in no band", j.ID)
		}
		n[b]++
		if j.Arrival != 0 {
			t.Errorf("job %s arrives at %g in a batch", j.ID, j.Arrival)
		}
	}
	if n != [3]int{2, 1, 1} {
		t.Errorf("jobs per band %v, want [2 1 1]", n)
	}
	got := ids(jobs)
	if !sort.SliceIsSorted(got, func(a, b int) bool { return got[a] < got[b] }) {
		t.Errorf("a batch keeps trace order; got %v", got)
	}
	if again := ids(selected(t, "testdata/strata.tsv", opts)); !slices.Equal(got, again) {
		t.Errorf("not deterministic: %v then %v", got, again)
	}
	opts["seed"] = 99
	if other := ids(selected(t, "testdata/strata.tsv", opts)); slices.Equal(got, other) {
		t.Logf("seed 99 picked the same jobs %v (possible, but unlikely)", other)
	}
	opts["max_jobs"] = 8
	if _, err := OpenSelect("testdata/strata.tsv", opts, cluster()); err == nil {
		t.Error("a band with too few jobs was accepted")
	}
}

// The plain swim format does not know the selection's options.
func TestSwimHasNoSelection(t *testing.T) {
	if _, err := Open("testdata/strata.tsv", map[string]any{"arrival": "batch"}, cluster()); err == nil {
		t.Error("swim accepted arrival: batch")
	}
}

// Uniform arrivals replace the submit times: all jobs, in [0, window),
// replayed in arrival order; labels follow that order.
func TestUniformArrivals(t *testing.T) {
	jobs := selected(t, "testdata/strata.tsv", map[string]any{"arrival": "uniform", "arrival_window": "10s", "recurring": 0.5})
	if len(jobs) != 8 {
		t.Fatalf("%d jobs, want all 8", len(jobs))
	}
	recurring := 0
	for i, j := range jobs {
		if j.Arrival < 0 || j.Arrival >= 10 || i > 0 && j.Arrival < jobs[i-1].Arrival {
			t.Errorf("arrivals %v: not sorted within [0, 10s)", j.Arrival)
		}
		if j.Recurring {
			recurring++
		}
	}
	if recurring == 0 || recurring == 8 {
		t.Errorf("%d of 8 recurring with recurring: 0.5", recurring)
	}
}

// The JobPacker reproduction's selection on the FB-2010 day matches
// Table 1 (shuffle p5 / p50 / p95 = 0.1 / 2.5 / 82 GB): with 50 / 450 /
// 450 / 50 jobs in the bands, the nearest-rank p5, p50 and p95 are the
// largest job of the first three bands, just under each edge.
func TestSelectTable1(t *testing.T) {
	const path = "../../../shared/traces/FB-2010_samples_24_times_1hr_0.tsv"
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared/traces not present")
	}
	jobs := selected(t, path, map[string]any{
		"max_jobs":       1000,
		"select_shuffle": map[string]any{"p": []any{0, 0.05, 0.5, 0.95, 1}, "values": []any{"10MB", "100MB", "2.5GB", "82GB", "1TB"}},
		"arrival":        "uniform", "arrival_window": "90m",
	})
	var sh []float64
	for _, j := range jobs {
		g := j.Stages[0].Generate
		sh = append(sh, g.Output.A*float64(g.Count))
	}
	slices.Sort(sh)
	p := func(q float64) float64 { return sh[int(q*float64(len(sh)))-1] }
	for _, c := range []struct{ q, lo, hi float64 }{{0.05, 0.09e9, 0.1e9}, {0.5, 2.3e9, 2.5e9}, {0.95, 70e9, 82e9}} {
		if got := p(c.q); got < c.lo || got >= c.hi {
			t.Errorf("shuffle p%g = %.4g bytes, want in [%g, %g)", c.q*100, got, c.lo, c.hi)
		}
	}
	if len(jobs) != 1000 || jobs[len(jobs)-1].Arrival >= 5400 {
		t.Errorf("%d jobs, last at %gs", len(jobs), jobs[len(jobs)-1].Arrival)
	}
}
