package jobmodel

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Table 1's bands for 1,000 jobs: 5% below 0.1 GB, 45% up to 2.5 GB, 45% up
// to 82 GB, 5% above: 50 / 450 / 450 / 50. Seven jobs over shares 0.25 /
// 0.25 / 0.5: 1.75 / 1.75 / 3.5 floor to 1 / 1 / 3, and the two left go to
// the largest remainders, 0.75 and 0.75: 2 / 2 / 3.
func TestStrataCounts(t *testing.T) {
	s := Strata{P: []float64{0, 0.05, 0.5, 0.95, 1}, Values: []float64{1e7, 1e8, 2.5e9, 82e9, 1e12}}
	if got := s.Counts(1000); !slices.Equal(got, []int{50, 450, 450, 50}) {
		t.Errorf("counts for 1000: %v", got)
	}
	q := Strata{P: []float64{0, 0.25, 0.5, 1}, Values: []float64{1, 2, 3, 4}}
	if got := q.Counts(7); !slices.Equal(got, []int{2, 2, 3}) {
		t.Errorf("counts for 7: %v, want [2 2 3]", got)
	}
	for size, want := range map[float64]int{9e6: -1, 1e7: 0, 5e7: 0, 1e8: 1, 2.5e9: 2, 82e9: 3, 1e12: 3, 2e12: -1} {
		if got := s.Band(size); got != want {
			t.Errorf("band of %g: %d, want %d", size, got, want)
		}
	}
}

// Pick draws each band's count from the sizes in it, without replacement,
// and fails naming the band that is short.
func TestStrataPick(t *testing.T) {
	s := Strata{P: []float64{0, 0.5, 1}, Values: []float64{0, 10, 100}}
	sizes := []float64{1, 50, 2, 60, 3, 70, 4, 200}
	got, err := s.Pick(sizes, 4, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	low, high := 0, 0
	for i, k := range got {
		if i > 0 && k <= got[i-1] {
			t.Errorf("indexes %v not strictly ascending", got)
		}
		switch {
		case sizes[k] < 10:
			low++
		case sizes[k] <= 100:
			high++
		default:
			t.Errorf("picked size %g outside every band", sizes[k])
		}
	}
	if low != 2 || high != 2 {
		t.Errorf("picked %v: %d low and %d high, want 2 and 2", got, low, high)
	}
	again, _ := s.Pick(sizes, 4, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(got, again) {
		t.Errorf("same seed, different picks: %v and %v", got, again)
	}
	if _, err := s.Pick(sizes, 8, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "needs 4 jobs, the trace has 3") {
		t.Errorf("short band: error %v", err)
	}
}

func TestParseStrataAndArrivals(t *testing.T) {
	o := NewOptions(map[string]any{"sel": map[string]any{"p": []any{0, 0.5, 1}, "values": []any{"1MB", "1GB", 1e12}}})
	s, ok := ParseStrata(o, "sel")
	if !ok || o.Err() != nil || !slices.Equal(s.Values, []float64{1e6, 1e9, 1e12}) {
		t.Errorf("parsed %+v, %v, %v", s, ok, o.Err())
	}
	for _, bad := range []map[string]any{
		{"p": []any{0, 1}, "values": []any{1}},
		{"p": []any{0.1, 1}, "values": []any{1, 2}},
		{"p": []any{0, 0.5, 1}, "values": []any{1, 1, 2}},
		{"p": []any{0, 1}, "values": []any{"-1MB", 2}},
		{"p": []any{0, 1}},
	} {
		o := NewOptions(map[string]any{"sel": bad})
		if ParseStrata(o, "sel"); o.Err() == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	o = NewOptions(map[string]any{"arrival": "uniform"})
	if ParseArrivals(o); o.Err() == nil {
		t.Error("uniform arrivals without a window accepted")
	}
	o = NewOptions(map[string]any{"arrival": "batch", "arrival_window": "1m"})
	if ParseArrivals(o); o.Err() == nil {
		t.Error("a window for batch arrivals accepted")
	}
	o = NewOptions(map[string]any{"arrival": "uniform", "arrival_window": "90m"})
	a := ParseArrivals(o)
	at := a.Draw(make([]float64, 100), rand.New(rand.NewPCG(3, 4)))
	for _, x := range at {
		if x < 0 || x >= 5400 {
			t.Errorf("arrival %g outside [0, 90 min)", x)
		}
	}
	if b := (Arrivals{Mode: "batch"}).Draw([]float64{5, 7}, nil); !slices.Equal(b, []float64{0, 0}) {
		t.Errorf("batch arrivals %v", b)
	}
}
