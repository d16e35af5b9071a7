package jobpacker_test

import (
	"errors"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/jobpacker"
	"github.com/netsched/netsched/sim"
)

// recorder is a planner that keeps the forecasts and stops the run.
type recorder struct{ fc []sched.Forecast }

var errStop = errors.New("forecasts recorded")

func (r *recorder) Offer(sched.View, int, *sched.Plan) {}

func (r *recorder) Plan(_ sched.View, fc []sched.Forecast) error {
	r.fc = fc
	return errStop
}

func shuffles(t *testing.T, sc *scenario.Scenario) []float64 {
	t.Helper()
	r := &recorder{}
	if _, err := sim.RunWith(sc, r); !errors.Is(err, errStop) {
		t.Fatalf("run: %v", err)
	}
	out := make([]float64, len(r.fc))
	for i, f := range r.fc {
		out[i] = jobpacker.ProfileOf(f, i).Shuffle
	}
	return out
}

// What §5.4.1's error rate becomes in netsched: the knowledge model draws
// one error per task, so a job's predicted shuffle (a sum over its maps)
// is off by much less than the rate. Measured on the reproduction's
// selection (the first 300 jobs, so the test stays fast) at rate 0.5: the
// median job above the 112.5 MB threshold is off by about 3%, far from
// the 50% a per-job error of that rate would average (25%). This is the
// measurement behind docs/reproductions/jobpacker.md's point 6; run with
// -v to see the numbers.
func TestForecastErrorIsPerTask(t *testing.T) {
	if _, err := os.Stat("../../../shared/traces/FB-2010_samples_24_times_1hr_0.tsv"); err != nil {
		t.Skip("shared/traces not present")
	}
	doc := swimScaled(300, "arrival: batch", 1)
	exact, err := scenario.Parse("exact.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	noisy, err := scenario.Parse("noisy.yaml", []byte(doc+"knowledge: {model: relative, rate: 0.5}\n"), ".")
	if err != nil {
		t.Fatal(err)
	}
	truth, est := shuffles(t, exact), shuffles(t, noisy)
	var errs []float64
	for i, x := range truth {
		if x > 112.5e6 {
			errs = append(errs, math.Abs(est[i]-x)/x)
		}
	}
	sort.Float64s(errs)
	p50, p95, top := errs[len(errs)/2], errs[len(errs)*95/100], errs[len(errs)-1]
	t.Logf("%d jobs above 112.5 MB of shuffle; relative error of the predicted shuffle at rate 0.5: p50 %.4f, p95 %.4f, max %.4f", len(errs), p50, p95, top)
	if p50 > 0.1 || top > 0.5 {
		t.Errorf("median job error %.3f, max %.3f: errors no longer average over tasks", p50, top)
	}
}
