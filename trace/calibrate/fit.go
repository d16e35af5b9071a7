// Package calibrate fits the task-time model of the MapReduce importers,
// compute seconds = overhead + bytes / rate, to measured task times by least
// squares, one fit per task kind (stage name). It reads netsched's own
// tasks.csv and a generic kind,bytes,seconds CSV, streaming both, and turns
// the map and reduce fits into the SWIM importer's options (map_rate,
// map_overhead, reduce_rate, reduce_overhead). See docs/workloads.md,
// "Calibrating task times".
package calibrate

import (
	"math"
	"sort"
)

// Fit is the least-squares fit of one task kind.
type Fit struct {
	Kind string
	N    int // tasks
	// Overhead is the fitted seconds at zero bytes (>= 0).
	Overhead float64
	// Rate is the fitted bytes per second (> 0); +Inf when the time does
	// not grow with bytes (a constant fits best), NaN when the bytes do not
	// vary enough to separate the overhead from the rate.
	Rate float64
	// R2 is the coefficient of determination of the fit (NaN when every
	// task took the same time and the fit is not exact).
	R2 float64
	// RMS is the root-mean-square residual in seconds.
	RMS float64
	// OverheadErr and RateErr are one standard error of the unconstrained
	// fit (NaN when it is constrained, degenerate or has fewer than three
	// tasks).
	OverheadErr, RateErr   float64
	MeanBytes, MeanSeconds float64
	MinBytes, MaxBytes     float64
	// Note says how a constrained or degenerate fit was resolved ("" for
	// an ordinary fit).
	Note string
}

// Separable reports whether the fit determined both the overhead and a
// finite rate, so both can be written as importer options.
func (f Fit) Separable() bool { return !math.IsNaN(f.Rate) && !math.IsInf(f.Rate, 0) }

// Fitter accumulates samples per kind in O(1) memory per kind (running
// means and co-moments, numerically stable for large byte counts).
type Fitter struct {
	acc map[string]*moments
}

type moments struct {
	n             int
	mx, my        float64 // means
	sxx, sxy, syy float64 // centred second moments
	minX, maxX    float64
}

// Add records one task: its kind, the bytes it processed and its compute
// seconds. Callers validate that both are finite and >= 0.
func (f *Fitter) Add(kind string, bytes, seconds float64) {
	if f.acc == nil {
		f.acc = map[string]*moments{}
	}
	m := f.acc[kind]
	if m == nil {
		m = &moments{minX: bytes, maxX: bytes}
		f.acc[kind] = m
	}
	m.n++
	n := float64(m.n)
	dx, dy := bytes-m.mx, seconds-m.my
	m.mx += dx / n
	m.my += dy / n
	// Welford's update: the new deviation from the updated mean times the
	// old one.
	m.sxx += dx * (bytes - m.mx)
	m.sxy += dx * (seconds - m.my)
	m.syy += dy * (seconds - m.my)
	m.minX, m.maxX = min(m.minX, bytes), max(m.maxX, bytes)
}

// Fits returns one fit per kind: map first, then reduce, then the other
// kinds by name.
func (f *Fitter) Fits() []Fit {
	kinds := make([]string, 0, len(f.acc))
	for k := range f.acc {
		kinds = append(kinds, k)
	}
	rank := func(k string) int {
		switch k {
		case "map":
			return 0
		case "reduce":
			return 1
		}
		return 2
	}
	sort.Slice(kinds, func(i, j int) bool {
		if rank(kinds[i]) != rank(kinds[j]) {
			return rank(kinds[i]) < rank(kinds[j])
		}
		return kinds[i] < kinds[j]
	})
	out := make([]Fit, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, f.acc[k].fit(k))
	}
	return out
}

// spreadTolerance is the relative byte spread below which the bytes are
// taken as constant: the slope would be fitted to rounding noise.
const spreadTolerance = 1e-9

func (m *moments) fit(kind string) Fit {
	n := float64(m.n)
	f := Fit{Kind: kind, N: m.n, MeanBytes: m.mx, MeanSeconds: m.my, MinBytes: m.minX, MaxBytes: m.maxX,
		OverheadErr: math.NaN(), RateErr: math.NaN()}
	// sse is the sum of squared residuals of seconds = a + b*bytes.
	sse := func(a, b float64) float64 {
		d := m.my - a - b*m.mx
		return max(0, m.syy-2*b*m.sxy+b*b*m.sxx+n*d*d)
	}
	var a, b float64
	switch {
	case m.maxX-m.minX <= spreadTolerance*max(m.maxX, 1):
		// One task, or every task processed the same bytes: any split of
		// the mean time between overhead and bytes/rate fits equally well.
		a, b = m.my, math.NaN()
		f.Note = "every task processed the same bytes: overhead and rate cannot be separated; the overhead is the mean time and no rate is fitted"
		if m.n == 1 {
			f.Note = "one task: overhead and rate cannot be separated; the overhead is its time and no rate is fitted"
		}
	default:
		b = m.sxy / m.sxx
		a = m.my - b*m.mx
		if a >= 0 && b > 0 {
			if m.n > 2 {
				s2 := sse(a, b) / (n - 2)
				seB := math.Sqrt(s2 / m.sxx)
				f.OverheadErr = math.Sqrt(s2 * (1/n + m.mx*m.mx/m.sxx))
				f.RateErr = seB / (b * b)
			}
			break
		}
		// The unconstrained optimum breaks overhead >= 0 or rate > 0; the
		// objective is convex, so the constrained optimum lies on an edge:
		// through the origin (overhead 0) or flat (slope 0, a constant).
		sxxRaw := m.sxx + n*m.mx*m.mx
		sxyRaw := m.sxy + n*m.mx*m.my
		b0 := max(0, sxyRaw/sxxRaw)
		a1 := max(0, m.my)
		if b0 > 0 && sse(0, b0) <= sse(a1, 0) {
			f.Note = "the unconstrained fit has a negative overhead; fitted with overhead 0"
			if b <= 0 {
				f.Note = "the unconstrained fit has a negative slope; fitted with overhead 0, which fits better than a constant"
			}
			a, b = 0, b0
		} else {
			a, b = a1, 0
			f.Note = "the time does not grow with bytes (the best fit with overhead >= 0 and slope >= 0 is a constant): the rate is unbounded"
		}
	}
	f.Overhead = a
	switch {
	case math.IsNaN(b):
		f.Rate = math.NaN()
		b = 0
	case b == 0:
		f.Rate = math.Inf(1)
	default:
		f.Rate = 1 / b
	}
	res := sse(a, b)
	f.RMS = math.Sqrt(res / n)
	switch {
	case m.syy > 0:
		f.R2 = 1 - res/m.syy
	case res == 0:
		f.R2 = 1
	default:
		f.R2 = math.NaN()
	}
	return f
}
