package gen

import (
	"math"
	"testing"
)

// burstyCounts parses synthetic options with bursty arrivals and counts
// one pass's arrivals per 4-hour window of the span (times count from the
// span's start), for seeds 1..seeds.
func burstyCounts(t *testing.T, opts map[string]any, seeds int) [][3]float64 {
	t.Helper()
	opts["arrival"] = "bursty"
	s, err := ParseSynthetic(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Count != 0 {
		t.Fatalf("bursty arrivals default to count %d, want 0 (the whole span)", s.Count)
	}
	var out [][3]float64
	for seed := 1; seed <= seeds; seed++ {
		c := s.Arrivals.start(rngFor(uint64(seed), syntheticStream, streamArrivals), 0)
		var n [3]float64
		prev := 0.0
		for {
			at, ok := c.next()
			if !ok {
				break
			}
			if at < prev || at >= s.Arrivals.Bursty.Length {
				t.Fatalf("arrival %g after %g, span %g", at, prev, s.Arrivals.Bursty.Length)
			}
			prev = at
			n[int(at/googleWindow)]++
		}
		out = append(out, n)
	}
	return out
}

// The count of a span is Poisson with the paper's total as its mean
// (Dawn §2.4, §5.2: 1,417 in 12 h, 310 in the first 4 h, 581 in the last
// 4 h, so 526 in the middle), whatever the bursts drawn. The mean over n
// seeds has standard deviation sqrt(total / n); the tolerance is 4 of
// those. The sample variance must be Poisson's too: its relative standard
// error is sqrt(2 / (n - 1)), allowed 4 times.
func TestBurstyCounts(t *testing.T) {
	const n = 300
	check := func(what string, counts []float64, total float64) {
		t.Helper()
		mean, sq := 0.0, 0.0
		for _, c := range counts {
			mean += c / n
		}
		for _, c := range counts {
			sq += (c - mean) * (c - mean) / (n - 1)
		}
		if tol := 4 * math.Sqrt(total/n); math.Abs(mean-total) > tol {
			t.Errorf("%s: mean count %.2f, want %g +- %.2f", what, mean, total, tol)
		}
		if tol := 4 * math.Sqrt(2.0/(n-1)); math.Abs(sq/total-1) > tol {
			t.Errorf("%s: count variance %.1f, want %g (+- %.0f%%)", what, sq, total, 100*tol)
		}
	}
	column := func(cs [][3]float64, w int) []float64 {
		var out []float64
		for _, c := range cs {
			out = append(out, c[w])
		}
		return out
	}
	all := burstyCounts(t, map[string]any{}, n)
	var sum []float64
	for _, c := range all {
		sum = append(sum, c[0]+c[1]+c[2])
	}
	check("all 12 h", sum, 1417)
	check("hours 0-4 of all", column(all, 0), 310)
	check("hours 4-8 of all", column(all, 1), 526)
	check("hours 8-12 of all", column(all, 2), 581)
	check("span first4h", column(burstyCounts(t, map[string]any{"span": "first4h"}, n), 0), 310)
	check("span last4h", column(burstyCounts(t, map[string]any{"span": "last4h"}, n), 0), 581)
	check("span middle4h, flat", column(burstyCounts(t, map[string]any{"span": "middle4h", "burst": 0}, n), 0), 526)
	// Hours 7-9: the last hour of the middle window and the first of the
	// last one, at their flat rates.
	check("span 7h-9h", column(burstyCounts(t, map[string]any{"span_start": "7h", "span_length": "2h", "burst": 0}, n), 0), 526.0/4+581.0/4)
}

// Bin rates: flat within each window without bursts; with bursts they
// vary from bin to bin, but every window still integrates to its total;
// the same seed draws the same profile.
func TestBurstyProfile(t *testing.T) {
	for _, burst := range []float64{0, 0.5} {
		b := Bursty{Start: 0, Length: googleSpan, Bin: 600, Burst: burst}
		c := b.start(rngFor(7, 0, 0))
		if len(c.rates) != 72 {
			t.Fatalf("%d bins, want 72 of 10 minutes", len(c.rates))
		}
		for w, total := range googleWindowTotals {
			sum, lo, hi := 0.0, math.Inf(1), 0.0
			for _, r := range c.rates[w*24 : (w+1)*24] {
				sum += r * 600
				lo, hi = min(lo, r), max(hi, r)
			}
			if math.Abs(sum/total-1) > 1e-12 {
				t.Errorf("burst %g: window %d integrates to %g, want %g", burst, w, sum, total)
			}
			if flat := hi/lo < 1+1e-12; flat != (burst == 0) {
				t.Errorf("burst %g: window %d rates from %g to %g", burst, w, lo, hi)
			}
		}
		again := b.start(rngFor(7, 0, 0))
		for i := range c.rates {
			if c.rates[i] != again.rates[i] {
				t.Fatalf("burst %g: bin %d differs between two starts with one seed", burst, i)
			}
		}
	}
}
