package google

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

func generate(t *testing.T, options map[string]any, seed uint64) []workload.Job {
	t.Helper()
	src, err := OpenCSSProduction("", options, &scenario.Scenario{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := workload.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// The defaults are the paper's study: exactly 248 jobs and 1,005 tasks,
// one stage of independent tasks each, arrivals sorted inside the window.
func TestCSSDefaultCounts(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		jobs := generate(t, nil, seed)
		if len(jobs) != PaperJobs {
			t.Fatalf("seed %d: %d jobs, want %d", seed, len(jobs), PaperJobs)
		}
		tasks, last := 0, 0.0
		for _, j := range jobs {
			if err := j.Validate(PaperHosts); err != nil {
				t.Fatalf("seed %d: job %s: %v", seed, j.ID, err)
			}
			if len(j.Stages) != 1 || j.Stages[0].ID != StageID || len(j.Stages[0].After) != 0 || j.Stages[0].Generate != nil {
				t.Fatalf("seed %d: job %s has stages %+v", seed, j.ID, j.Stages)
			}
			for _, k := range j.Stages[0].Tasks {
				if k.Input != 0 || k.Output != 0 || k.Pin != workload.NoPin || !(k.Compute > 0) {
					t.Fatalf("seed %d: job %s: task %+v", seed, j.ID, k)
				}
			}
			if j.Arrival < last || j.Arrival >= DefaultWindow || j.Recurring || j.User != "" {
				t.Fatalf("seed %d: job %s arrives at %g after %g (or is labelled)", seed, j.ID, j.Arrival, last)
			}
			last = j.Arrival
			tasks += len(j.Stages[0].Tasks)
		}
		if tasks != PaperTasks {
			t.Fatalf("seed %d: %d tasks, want %d", seed, tasks, PaperTasks)
		}
	}
}

func TestCSSDeterministic(t *testing.T) {
	a, b := generate(t, nil, 42), generate(t, nil, 42)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different jobs:\n%s", diff)
	}
	if c := generate(t, nil, 43); cmp.Equal(a, c) {
		t.Fatal("seeds 42 and 43 gave the same jobs")
	}
	// The seed option overrides the scenario's.
	if d := generate(t, map[string]any{"seed": 42}, 7); !cmp.Equal(a, d) {
		t.Fatal("option seed 42 differs from scenario seed 42")
	}
	// Streams are separate: another duration distribution keeps the
	// arrivals and the task counts.
	e := generate(t, map[string]any{"duration": "10s"}, 42)
	for i := range a {
		if a[i].Arrival != e[i].Arrival || len(a[i].Stages[0].Tasks) != len(e[i].Stages[0].Tasks) || e[i].Stages[0].Tasks[0].Compute != 10 {
			t.Fatalf("job %d: changing durations changed arrivals or counts", i)
		}
	}
}

// durations pools the task durations of the default workload over seeds.
func durations(t *testing.T, seeds uint64) (all []float64, longest []float64) {
	for seed := uint64(1); seed <= seeds; seed++ {
		for _, j := range generate(t, nil, seed) {
			l := 0.0
			for _, k := range j.Stages[0].Tasks {
				all = append(all, k.Compute)
				l = max(l, k.Compute)
			}
			longest = append(longest, l)
		}
	}
	slices.Sort(all)
	return all, longest
}

// quantile is the nearest-rank p-quantile of sorted values.
func quantile(sorted []float64, p float64) float64 {
	return sorted[int(math.Ceil(p*float64(len(sorted))))-1]
}

// The durations follow the stated lognormal: over 20 seeds (20,100 tasks)
// the median is within 5% of 50 s and the 90th percentile within 8% of
// 50 e^(1.5 x 1.2816) = 341.9 s (about 4 standard errors each).
func TestCSSDurationQuantiles(t *testing.T) {
	all, _ := durations(t, 20)
	z90 := 1.2815515655446004
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"median", quantile(all, 0.5), DefaultMedian, 0.05},
		{"p90", quantile(all, 0.9), DefaultMedian * math.Exp(DefaultSigma*z90), 0.08},
	} {
		if math.Abs(c.got/c.want-1) > c.tol {
			t.Errorf("%s = %.1f s, want %.1f s within %.0f%%", c.name, c.got, c.want, 100*c.tol)
		}
	}
}

// The defaults respect what the paper's CSS results imply (CSS §V-B): a
// job cannot finish before its longest task, so the mean longest task is
// under CSS's mean CCT of 495.43 s, and at least 82% of jobs have their
// longest task under 1000 s.
func TestCSSPaperBounds(t *testing.T) {
	_, longest := durations(t, 20)
	sum, under := 0.0, 0
	for _, l := range longest {
		sum += l
		if l <= 1000 {
			under++
		}
	}
	mean, share := sum/float64(len(longest)), float64(under)/float64(len(longest))
	t.Logf("mean longest task %.0f s, %.1f%% of jobs under 1000 s", mean, 100*share)
	if mean >= PaperCSSMeanCCT || share < PaperCSSShare1000 {
		t.Errorf("mean longest task %.0f s (paper's CSS mean CCT %.2f s), %.1f%% under 1000 s (paper >= %.0f%%)",
			mean, PaperCSSMeanCCT, 100*share, 100*PaperCSSShare1000)
	}
}

// Task counts form a composition: every job has a task, they add up, and
// the sizes look like the documented geometric-like spread.
func TestCSSTaskCounts(t *testing.T) {
	ones, largest, n := 0, 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		for _, j := range generate(t, nil, seed) {
			c := len(j.Stages[0].Tasks)
			if c == 1 {
				ones++
			}
			largest = max(largest, c)
			n++
		}
	}
	t.Logf("single-task jobs %.1f%%, largest job %d tasks", 100*float64(ones)/float64(n), largest)
	// A uniform composition of 1005 into 248 parts has P(size 1) =
	// C(1003,246)/C(1004,247) = 247/1004 = 24.6%.
	if share := float64(ones) / float64(n); math.Abs(share-247.0/1004) > 0.02 {
		t.Errorf("single-task jobs %.3f, want about %.3f", share, 247.0/1004)
	}
	// Custom totals, including the extremes.
	for _, c := range [][2]int{{1, 1}, {1, 7}, {7, 7}, {10, 1000}} {
		jobs := generate(t, map[string]any{"jobs": c[0], "tasks": c[1], "window": 0}, 3)
		total := 0
		for _, j := range jobs {
			if len(j.Stages[0].Tasks) < 1 || j.Arrival != 0 {
				t.Fatalf("%v: job %+v", c, j)
			}
			total += len(j.Stages[0].Tasks)
		}
		if len(jobs) != c[0] || total != c[1] {
			t.Errorf("jobs %d tasks %d gave %d jobs, %d tasks", c[0], c[1], len(jobs), total)
		}
	}
}

func TestCSSOptions(t *testing.T) {
	jobs := generate(t, map[string]any{
		"jobs": 5, "tasks": 9, "window": "1h", "users": 2, "user_assign": "round-robin",
		"duration": map[string]any{"dist": "pareto", "scale": "30s", "shape": 1.5},
	}, 1)
	for i, j := range jobs {
		if j.User != []string{"user0", "user1"}[i%2] || j.Arrival >= 3600 {
			t.Errorf("job %d: user %q arrival %g", i, j.User, j.Arrival)
		}
		for _, k := range j.Stages[0].Tasks {
			if k.Compute < 30 {
				t.Errorf("job %d: pareto(30s) gave %g", i, k.Compute)
			}
		}
	}
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"job": 3}, `css-production options: unknown option "job"; did you mean "jobs"?`},
		{map[string]any{"jobs": 10, "tasks": 9}, `css-production options: option "tasks": 9 tasks cannot fill 10 jobs (every job needs a task)`},
		{map[string]any{"jobs": 0}, `css-production options: option "jobs": must be at least 1`},
		{map[string]any{"tasks": 1 << 21}, `css-production options: option "tasks": 2097152 is more than 1048576`},
		{map[string]any{"duration": map[string]any{"dist": "zipf", "exponent": 1}}, `css-production options: option "duration": zipf gives rank weights and only applies to shares`},
		{map[string]any{"window": "-5s"}, `css-production options: option "window": duration -5s is negative`},
	} {
		_, err := OpenCSSProduction("", c.opts, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("options %v:\n got %v\nwant prefix %s", c.opts, err, c.want)
		}
	}
}
