package calibrate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRecoversKnownParameters fits synthetic logs drawn from known
// overheads and rates with Gaussian noise: the fit must land within four
// of its own standard errors, and within a few percent, of the truth.
func TestRecoversKnownParameters(t *testing.T) {
	cases := []struct {
		kind           string
		overhead, rate float64 // s, bytes/s
		maxBytes       float64
		noise          float64 // s, standard deviation
	}{
		{"map", 1, 100e6, 256e6, 0.2},
		{"reduce", 3.5, 20e6, 2e9, 2},
		{"map", 0.05, 1e9, 128 << 20, 0.01},
		{"sort", 12, 5e6, 64e6, 0.5},
	}
	for seed, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		var fit Fitter
		// A second kind in the same fitter must not disturb the first.
		for range 20000 {
			x := rng.Float64() * c.maxBytes
			fit.Add(c.kind, x, c.overhead+x/c.rate+rng.NormFloat64()*c.noise)
			fit.Add("other", x, 100+rng.Float64())
		}
		var got Fit
		for _, f := range fit.Fits() {
			if f.Kind == c.kind {
				got = f
			}
		}
		if got.N != 20000 || got.Note != "" {
			t.Fatalf("%+v: fit %+v", c, got)
		}
		if d := math.Abs(got.Overhead - c.overhead); d > 4*got.OverheadErr || d > 0.05*c.overhead+0.01 {
			t.Errorf("%+v: overhead %g ± %g, want %g", c, got.Overhead, got.OverheadErr, c.overhead)
		}
		if d := math.Abs(got.Rate - c.rate); d > 4*got.RateErr || d > 0.02*c.rate {
			t.Errorf("%+v: rate %g ± %g, want %g", c, got.Rate, got.RateErr, c.rate)
		}
		if math.Abs(got.RMS-c.noise) > 0.05*c.noise {
			t.Errorf("%+v: rms residual %g, want about the noise %g", c, got.RMS, c.noise)
		}
		if got.R2 <= 0 || got.R2 > 1 {
			t.Errorf("%+v: R^2 %g out of (0, 1]", c, got.R2)
		}
	}
}

// TestMatchesTwoPassLeastSquares checks the streaming moments against the
// textbook two-pass formulas on random logs, bytes up to 1 TB (where
// naive sums of squares lose every digit of a small spread).
func TestMatchesTwoPassLeastSquares(t *testing.T) {
	for seed := range 200 {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		n := 3 + rng.IntN(300)
		base := math.Pow(10, 3+rng.Float64()*9)
		xs, ys := make([]float64, n), make([]float64, n)
		var fit Fitter
		for i := range xs {
			xs[i] = base * (1 + rng.Float64())
			ys[i] = 2 + xs[i]/(base/10) + rng.Float64()
			fit.Add("k", xs[i], ys[i])
		}
		var mx, my float64
		for i := range xs {
			mx += xs[i]
			my += ys[i]
		}
		mx, my = mx/float64(n), my/float64(n)
		var sxx, sxy, syy float64
		for i := range xs {
			sxx += (xs[i] - mx) * (xs[i] - mx)
			sxy += (xs[i] - mx) * (ys[i] - my)
			syy += (ys[i] - my) * (ys[i] - my)
		}
		b := sxy / sxx
		a := my - b*mx
		var sse float64
		for i := range xs {
			r := ys[i] - a - b*xs[i]
			sse += r * r
		}
		f := fit.Fits()[0]
		if f.Note != "" {
			t.Fatalf("seed %d: unexpected constrained fit: %s", seed, f.Note)
		}
		near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want)) }
		if !near(f.Overhead, a, 1e-6) || !near(f.Rate, 1/b, 1e-9) || !near(f.RMS, math.Sqrt(sse/float64(n)), 1e-6) || !near(f.R2, 1-sse/syy, 1e-9) {
			t.Fatalf("seed %d: streaming fit %+v, two-pass a=%g rate=%g rms=%g R2=%g", seed, f, a, 1/b, math.Sqrt(sse/float64(n)), 1-sse/syy)
		}
	}
}

func fitOf(t *testing.T, pts ...[2]float64) Fit {
	t.Helper()
	var fit Fitter
	for _, p := range pts {
		fit.Add("map", p[0], p[1])
	}
	fs := fit.Fits()
	if len(fs) != 1 {
		t.Fatalf("%d fits", len(fs))
	}
	return fs[0]
}

func TestDegenerateFits(t *testing.T) {
	t.Run("one task", func(t *testing.T) {
		f := fitOf(t, [2]float64{128e6, 3})
		if f.Overhead != 3 || !math.IsNaN(f.Rate) || f.Separable() || !strings.Contains(f.Note, "one task") {
			t.Fatalf("%+v", f)
		}
	})
	t.Run("same bytes", func(t *testing.T) {
		f := fitOf(t, [2]float64{128e6, 3}, [2]float64{128e6, 5}, [2]float64{128e6, 4})
		if f.Overhead != 4 || !math.IsNaN(f.Rate) || f.Separable() || !strings.Contains(f.Note, "same bytes") || f.R2 != 0 {
			t.Fatalf("%+v", f)
		}
	})
	t.Run("negative slope", func(t *testing.T) {
		f := fitOf(t, [2]float64{0, 10}, [2]float64{1e6, 8}, [2]float64{2e6, 6})
		if f.Overhead != 8 || !math.IsInf(f.Rate, 1) || f.Separable() || !strings.Contains(f.Note, "does not grow") {
			t.Fatalf("%+v", f)
		}
	})
	t.Run("negative overhead", func(t *testing.T) {
		// 0 s at 1 MB, 2 s at 2 MB, 4 s at 3 MB: the free fit is -2 s +
		// 2 s/MB; constrained to overhead 0 the slope is sum(xy)/sum(xx).
		f := fitOf(t, [2]float64{1e6, 0}, [2]float64{2e6, 2}, [2]float64{3e6, 4})
		want := (1e6*0 + 2e6*2 + 3e6*4) / (1e12 + 4e12 + 9e12)
		if f.Overhead != 0 || math.Abs(f.Rate-1/want) > 1e-6*f.Rate || !strings.Contains(f.Note, "negative overhead") {
			t.Fatalf("%+v, want rate %g", f, 1/want)
		}
	})
	t.Run("exact", func(t *testing.T) {
		f := fitOf(t, [2]float64{0, 1}, [2]float64{100e6, 2}, [2]float64{300e6, 4})
		if math.Abs(f.Overhead-1) > 1e-12 || math.Abs(f.Rate-100e6) > 1e-3 || f.R2 < 1-1e-12 || f.RMS > 1e-6 || f.Note != "" {
			t.Fatalf("%+v", f)
		}
	})
}

func TestOptionsLine(t *testing.T) {
	fits := []Fit{
		{Kind: "map", Rate: 98.7654321e6, Overhead: 1.23456789},
		{Kind: "reduce", Rate: math.NaN(), Overhead: 4},
		{Kind: "sort", Rate: 5e6, Overhead: 1},
	}
	line, ok := Options(fits)
	if want := "options: {map_rate: 98.7654MB/s, map_overhead: 1.23457s}"; !ok || line != want {
		t.Fatalf("got %q, want %q", line, want)
	}
	if _, ok := Options(fits[1:]); ok {
		t.Fatal("options from kinds without a map or reduce rate")
	}
	if got := SecondsString(0.0000123); got != "0.0000123s" {
		t.Fatalf("small durations must not use an exponent: %q", got)
	}
}

// TestConstrainedFitIsOptimal draws small logs, many of which break the
// constraints (falling times, large intercepts or none), and checks that
// no feasible (overhead >= 0, slope >= 0) pair near the fit has a smaller
// squared error.
func TestConstrainedFitIsOptimal(t *testing.T) {
	for seed := range 500 {
		rng := rand.New(rand.NewPCG(uint64(seed), 3))
		n := 2 + rng.IntN(8)
		xs, ys := make([]float64, n), make([]float64, n)
		var fit Fitter
		slope, icept := rng.NormFloat64(), 5*rng.NormFloat64()
		for i := range xs {
			xs[i] = float64(rng.IntN(10))
			ys[i] = max(0, icept+slope*xs[i]+rng.NormFloat64())
			fit.Add("k", xs[i], ys[i])
		}
		f := fit.Fits()[0]
		if !f.Separable() && !math.IsInf(f.Rate, 1) {
			continue // bytes all equal: nothing to optimise over the slope
		}
		b := 0.0
		if !math.IsInf(f.Rate, 1) {
			b = 1 / f.Rate
		}
		sse := func(a, b float64) float64 {
			s := 0.0
			for i := range xs {
				r := ys[i] - a - b*xs[i]
				s += r * r
			}
			return s
		}
		best := sse(f.Overhead, b)
		if f.Overhead < 0 || b < 0 || math.Abs(best/float64(n)-f.RMS*f.RMS) > 1e-9*(1+best) {
			t.Fatalf("seed %d: infeasible or inconsistent fit %+v (sse %g)", seed, f, best)
		}
		for range 200 {
			a2 := max(0, f.Overhead+rng.NormFloat64())
			b2 := max(0, b+0.3*rng.NormFloat64())
			if s := sse(a2, b2); s < best-1e-9*(1+best) {
				t.Fatalf("seed %d: fit %+v has sse %g, but overhead %g slope %g gives %g", seed, f, best, a2, b2, s)
			}
		}
	}
}
