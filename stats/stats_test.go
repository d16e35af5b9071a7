package stats

import (
	"math"
	"testing"
)

// tPDF is Student's t density, written from its formula.
func tPDF(t, v float64) float64 {
	lg1, _ := math.Lgamma((v + 1) / 2)
	lg2, _ := math.Lgamma(v / 2)
	return math.Exp(lg1-lg2) / math.Sqrt(v*math.Pi) * math.Pow(1+t*t/v, -(v+1)/2)
}

// simpsonCDF integrates the density from 0 to t (Simpson's rule) and adds
// the half below 0: a second way to the CDF that shares no code with TCDF.
func simpsonCDF(t, v float64) float64 {
	const n = 20000
	h := t / n
	sum := tPDF(0, v) + tPDF(t, v)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * tPDF(float64(i)*h, v)
	}
	return 0.5 + sum*h/3
}

func TestTCDFMatchesIntegratedDensity(t *testing.T) {
	for _, df := range []int{1, 2, 3, 4, 9, 19, 29, 100} {
		for _, x := range []float64{0.1, 0.5, 1, 2, 2.262, 4.303, 8} {
			got, want := TCDF(x, df), simpsonCDF(x, float64(df))
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("TCDF(%g, %d) = %.12f, integrated density %.12f", x, df, got, want)
			}
			if sym := TCDF(-x, df); math.Abs(sym-(1-got)) > 1e-12 {
				t.Errorf("TCDF(-%g, %d) = %g, want 1 - TCDF = %g", x, df, sym, 1-got)
			}
		}
	}
}

// The 0.975 quantiles printed in every statistics table.
func TestTQuantileTable(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {9, 2.262}, {19, 2.093}, {29, 2.045}, {1000, 1.962}} {
		if got := TQuantile(0.975, c.df); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("TQuantile(0.975, %d) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
	if got := TQuantile(0.025, 9); math.Abs(got+2.262) > 5e-4 {
		t.Errorf("TQuantile(0.025, 9) = %g, want -2.262", got)
	}
}

// The interval of a geometric-mean ratio, against the same quantity
// computed another way: the geometric mean as the n-th root of the product
// of ratios, and the quantile by root-finding on the integrated density.
func TestPairedRatioAgainstReference(t *testing.T) {
	treat := []float64{10, 12, 9, 11, 30}
	base := []float64{20, 18, 20, 19, 25}
	got, err := PairedRatio(treat, base)
	if err != nil {
		t.Fatal(err)
	}
	prod := 1.0
	for i := range treat {
		prod *= treat[i] / base[i]
	}
	n := float64(len(treat))
	geo := math.Pow(prod, 1/n)
	// sample sd of the log-ratios, two-pass
	m := math.Log(geo)
	ss := 0.0
	for i := range treat {
		d := math.Log(treat[i]/base[i]) - m
		ss += d * d
	}
	sd := math.Sqrt(ss / (n - 1))
	// quantile: secant on simpsonCDF
	q0, q1 := 2.0, 3.0
	for range 50 {
		f0, f1 := simpsonCDF(q0, n-1)-0.975, simpsonCDF(q1, n-1)-0.975
		if f1 == f0 {
			break
		}
		q0, q1 = q1, q1-f1*(q1-q0)/(f1-f0)
	}
	half := q1 * sd / math.Sqrt(n)
	want := Ratio{N: 5, Geo: geo, Low: geo * math.Exp(-half), High: geo * math.Exp(half)}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"geo", got.Geo, want.Geo}, {"low", got.Low, want.Low}, {"high", got.High, want.High}} {
		if math.Abs(c.got-c.want) > 1e-8*c.want {
			t.Errorf("%s = %.12g, reference %.12g", c.name, c.got, c.want)
		}
	}
	if got.N != 5 || got.Dropped != 0 {
		t.Errorf("N=%d Dropped=%d, want 5 and 0", got.N, got.Dropped)
	}
}

func TestPairedRatioTiesAndDrops(t *testing.T) {
	// Per-seed ratios 19.1, 8.1, 1.8 (comparison.md's Dawn on fb2009):
	// large but scattered, so over three seeds the interval contains 1.
	r, _ := PairedRatio([]float64{19.1, 8.1, 1.8}, []float64{1, 1, 1})
	if !(r.Low < r.Geo && r.Geo < r.High) {
		t.Errorf("geometric mean %g outside its interval [%g, %g]", r.Geo, r.Low, r.High)
	}
	if math.Abs(r.Geo-math.Cbrt(19.1*8.1*1.8)) > 1e-12 {
		t.Errorf("geo %g, want the cube root of the product", r.Geo)
	}
	if !r.Tie() {
		t.Errorf("ratios 19.1, 8.1, 1.8 over 3 seeds give [%g, %g]: the interval contains 1, a tie", r.Low, r.High)
	}
	// Identical ratios: a zero-width interval that excludes 1.
	r, _ = PairedRatio([]float64{2, 4, 6}, []float64{1, 2, 3})
	if math.Abs(r.Geo-2) > 1e-12 || math.Abs(r.Low-2) > 1e-12 || math.Abs(r.High-2) > 1e-12 || r.Tie() {
		t.Errorf("constant ratio 2: got %+v", r)
	}
	// Zeros, NaN and negative values are dropped and counted.
	r, _ = PairedRatio([]float64{1, 0, math.NaN(), -1, 2}, []float64{2, 0, 1, 1, 4})
	if r.N != 2 || r.Dropped != 3 {
		t.Errorf("N=%d Dropped=%d, want 2 and 3", r.N, r.Dropped)
	}
	if _, err := PairedRatio([]float64{1}, []float64{1, 2}); err == nil {
		t.Error("unequal lengths: want an error")
	}
	if one, _ := PairedRatio([]float64{3}, []float64{1}); !one.Tie() || one.Format(2) != "3.00" {
		t.Errorf("one pair: %v tie=%v; one seed shows no difference", one.Format(2), one.Tie())
	}
	if got := (Ratio{N: 3, Geo: 1.02, Low: 0.9, High: 1.1}).Format(3); got != "tie 1.020 [0.900, 1.100]" {
		t.Errorf("tie: %q", got)
	}
	if got := (Ratio{N: 3, Geo: 0.5, Low: 0.4, High: 0.6}).Format(2); got != "0.50 [0.40, 0.60]" {
		t.Errorf("difference: %q", got)
	}
	// PairedBySeed pairs on common seeds and lists those it used.
	r, seeds := PairedBySeed(map[uint64]float64{1: 2, 2: 4, 3: 0, 5: 1}, map[uint64]float64{1: 1, 2: 2, 3: 1, 4: 9})
	if r.N != 2 || r.Dropped != 1 || len(seeds) != 2 || seeds[0] != 1 || seeds[1] != 2 || math.Abs(r.Geo-2) > 1e-12 {
		t.Errorf("PairedBySeed: %+v seeds %v", r, seeds)
	}
}
