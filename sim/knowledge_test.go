package sim

import (
	"math"
	"testing"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/scenario"
)

// Forecast arrivals: a share of the jobs is off by at most the jitter,
// the others are exact; the same seed gives the same forecasts.
func TestArrivalJitter(t *testing.T) {
	k, err := newKnowledge(scenario.KnowledgeSpec{Model: "exact", ArrivalShare: 0.3, ArrivalJitter: units.Duration(200)}, 7)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	off, sum := 0, 0.0
	for seq := range n {
		truth := 1000.0 + float64(seq)
		got := k.arrival(truth, seq)
		if got != k.arrival(truth, seq) {
			t.Fatal("not repeatable")
		}
		if d := got - truth; d != 0 {
			off++
			sum += d
			if math.Abs(d) > 200 {
				t.Fatalf("job %d forecast off by %g s, jitter is 200 s", seq, d)
			}
		}
	}
	// Binomial(n, 0.3): sd = sqrt(n 0.3 0.7) ~ 65 jobs; 5 sd is 324.
	if math.Abs(float64(off)-0.3*n) > 324 {
		t.Errorf("%d of %d forecasts off, want about %g", off, n, 0.3*n)
	}
	// Uniform on [-200, 200]: sd 115 s, so the mean of ~6000 is within ~7.5 s at 5 sd.
	if mean := sum / float64(off); math.Abs(mean) > 7.5 {
		t.Errorf("mean error %g s, want about 0", mean)
	}
	if got := k.arrival(50, 3); got < 0 {
		t.Errorf("forecast %g before time 0", got)
	}
	exact, _ := newKnowledge(scenario.KnowledgeSpec{Model: "exact"}, 7)
	if exact.arrival(12.5, 1) != 12.5 {
		t.Error("exact knowledge changed an arrival")
	}
}
