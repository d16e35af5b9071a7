package queue_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// run simulates an inline scenario and fails the test on any error.
func run(t testing.TB, doc string) *metrics.Result {
	t.Helper()
	res, err := sim.Run(schedtest.Parse(t, doc))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// jct is a job's completion time.
func jct(t *testing.T, r *metrics.Result, id string) float64 {
	t.Helper()
	for _, j := range r.Jobs {
		if j.ID == id {
			return j.JCT
		}
	}
	t.Fatalf("job %s not in result", id)
	return 0
}

// starts lists the start times of a job's tasks (output: {tasks: true}), sorted.
func starts(r *metrics.Result, job string) []float64 {
	var out []float64
	for _, tr := range r.Tasks {
		if tr.Job == job {
			out = append(out, tr.Start)
		}
	}
	sort.Float64s(out)
	return out
}

// startedIn counts a job's tasks started in [from, to).
func startedIn(r *metrics.Result, job string, from, to float64) int {
	n := 0
	for _, s := range starts(r, job) {
		if s >= from-1e-9 && s < to-1e-9 {
			n++
		}
	}
	return n
}

// wantErr checks that err mentions every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not mention %q", err, f)
		}
	}
}

func replace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

// splitEachSecond checks that in every second [k, k+1), k < seconds, each
// job started the number of tasks given.
func splitEachSecond(t *testing.T, r *metrics.Result, seconds int, want map[string]int) {
	t.Helper()
	jobs := make([]string, 0, len(want))
	for j := range want {
		jobs = append(jobs, j)
	}
	sort.Strings(jobs)
	for k := range seconds {
		for _, j := range jobs {
			if got := startedIn(r, j, float64(k), float64(k+1)); got != want[j] {
				t.Fatalf("in [%d, %d) job %s started %d tasks, want %d (all: %v)", k, k+1, j, got, want[j], want)
			}
		}
	}
}

// before reports whether every task of job a started before the first of b.
func before(r *metrics.Result, a, b string) bool {
	sa, sb := starts(r, a), starts(r, b)
	return sa[len(sa)-1] < sb[0]
}

func sorted(xs []float64) []float64 {
	out := append([]float64(nil), xs...)
	sort.Float64s(out)
	return out
}
