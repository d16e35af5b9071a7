// Package stats holds the one statistics procedure netsched uses to compare
// two schedulers (or two settings) over seeds: pair the runs by seed, take
// the log of each pair's ratio, and give the mean of the log-ratios with its
// 95% Student-t interval, shown on the ratio scale as a geometric-mean ratio
// [low, high]. An interval that contains 1 is a tie.
//
// Logs, not ratios: the arithmetic mean of ratios is biased towards the
// larger ratio (1/2 and 2 average to 1.25, not 1), and a ratio's interval
// computed on the linear scale can reach below zero. On the log scale a
// 2x gain and a 2x loss are symmetric, and the interval maps back to
// positive ratios.
package stats

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
)

// Level is the confidence level of every interval netsched prints.
const Level = 0.95

// Ratio is the paired comparison of a treatment with a baseline over seeds.
type Ratio struct {
	N         int     // pairs with a finite positive value on both sides
	Geo       float64 // geometric mean of the per-seed ratios (exp of the mean log-ratio)
	Low, High float64 // the 95% interval of Geo; equal to Geo when N < 2 or the ratios agree
	Dropped   int     // pairs left out: a value missing, zero, negative or not finite
}

// Tie reports whether the interval contains 1 (no difference shown). With
// one pair there is no interval, and no difference can be shown either.
func (r Ratio) Tie() bool {
	if r.N < 2 {
		return true
	}
	return r.Low <= 1 && 1 <= r.High
}

// Format renders the ratio with digits decimals: "0.873 [0.812, 0.938]"
// over several seeds, "tie 0.980 [0.910, 1.050]" when the interval
// contains 1, the ratio alone for one seed or when every seed gives the
// same ratio, and "-" without a pair.
func (r Ratio) Format(digits int) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', digits, 64) }
	switch {
	case r.N == 0:
		return "-"
	case r.N == 1 || (r.Low == r.Geo && r.High == r.Geo):
		return f(r.Geo)
	}
	s := fmt.Sprintf("%s [%s, %s]", f(r.Geo), f(r.Low), f(r.High))
	if r.Tie() {
		s = "tie " + s
	}
	return s
}

// PairedBySeed compares treatment and baseline values keyed by seed on the
// seeds both have (PairedRatio); seeds lists the pairs it used, in order.
func PairedBySeed(treatment, baseline map[uint64]float64) (r Ratio, seeds []uint64) {
	var a, b []float64
	for _, s := range slices.Sorted(maps.Keys(treatment)) {
		v, ok := baseline[s]
		if !ok {
			continue
		}
		if positive(treatment[s]) && positive(v) {
			seeds = append(seeds, s)
		}
		a, b = append(a, treatment[s]), append(b, v)
	}
	r, _ = PairedRatio(a, b) // equal lengths by construction
	return r, seeds
}

// PairedRatio compares treatment[i] with baseline[i], where index i is the
// same seed on both sides. Pairs with a value that is not finite and
// positive on both sides are dropped and counted (a ratio with a zero has
// no logarithm); two zeros are not a difference either, so they are dropped
// as well rather than counted as a ratio of 1.
func PairedRatio(treatment, baseline []float64) (Ratio, error) {
	if len(treatment) != len(baseline) {
		return Ratio{}, fmt.Errorf("paired ratio: %d treatment values against %d baseline values", len(treatment), len(baseline))
	}
	logs := make([]float64, 0, len(treatment))
	dropped := 0
	for i := range treatment {
		t, b := treatment[i], baseline[i]
		if !positive(t) || !positive(b) {
			dropped++
			continue
		}
		logs = append(logs, math.Log(t)-math.Log(b))
	}
	r := LogMean(logs)
	r.Dropped = dropped
	return r, nil
}

// LogMean turns log-ratios into a Ratio: exp of their mean and of the ends
// of its t interval.
func LogMean(logs []float64) Ratio {
	m := MeanInterval(logs)
	if m.N == 0 {
		return Ratio{Geo: math.NaN(), Low: math.NaN(), High: math.NaN()}
	}
	return Ratio{N: m.N, Geo: math.Exp(m.Mean), Low: math.Exp(m.Low), High: math.Exp(m.High)}
}

// Mean is a sample mean with its 95% Student-t interval.
type Mean struct {
	N               int
	Mean, Low, High float64
}

// MeanInterval is the mean of xs with the 95% interval
// mean ± t(0.975, n-1) · s / sqrt(n), s the sample standard deviation.
// With one value the interval is that value; with none every field is NaN.
func MeanInterval(xs []float64) Mean {
	n := len(xs)
	if n == 0 {
		return Mean{Mean: math.NaN(), Low: math.NaN(), High: math.NaN()}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return Mean{N: 1, Mean: mean, Low: mean, High: mean}
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := TQuantile(1-(1-Level)/2, n-1) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	return Mean{N: n, Mean: mean, Low: mean - half, High: mean + half}
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) }

// TQuantile is the p quantile of Student's t distribution with df degrees
// of freedom (0 < p < 1, df >= 1), found by bisection on TCDF.
func TQuantile(p float64, df int) float64 {
	if p <= 0 || p >= 1 || df < 1 {
		return math.NaN()
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for TCDF(hi, df) < p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if TCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TCDF is the cumulative distribution function of Student's t with df
// degrees of freedom: for t >= 0, 1 - I_x(df/2, 1/2)/2 with x = df/(df+t²),
// I the regularized incomplete beta function.
func TCDF(t float64, df int) float64 {
	v := float64(df)
	tail := 0.5 * regIncBeta(v/(v+t*t), v/2, 0.5)
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// regIncBeta is I_x(a, b) by its continued fraction (Lentz's method),
// evaluated where it converges fast and mirrored otherwise.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(x, a, b) / a
	}
	return 1 - front*betaFraction(1-x, b, a)/b
}

func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 1000; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= c * d
		}
		if math.Abs(c*d-1) < 1e-15 {
			break
		}
	}
	return f
}
