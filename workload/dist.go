package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DistKind names a distribution family.
type DistKind string

const (
	Const       DistKind = "const"       // A
	Uniform     DistKind = "uniform"     // in [A, B)
	Exponential DistKind = "exponential" // mean A
	LogNormal   DistKind = "lognormal"   // median A, sigma B (of the log)
	Pareto      DistKind = "pareto"      // scale (minimum) A, shape B
	Zipf        DistKind = "zipf"        // rank-based weights: the i-th draw of n is proportional to 1/i^A
)

// Dist is a distribution of non-negative values. The zero Dist is the constant 0.
type Dist struct {
	Kind DistKind
	A, B float64
}

// absent reports the zero Dist, which TaskGen.Share reads as "not given"
// (every share 1), unlike ConstDist(0).
func (d Dist) absent() bool { return d == Dist{} }

// ConstDist is a convenience for a fixed value.
func ConstDist(v float64) Dist { return Dist{Kind: Const, A: v} }

// Validate reports parameters that cannot describe a non-negative distribution.
func (d Dist) Validate() error {
	if math.IsNaN(d.A) || math.IsInf(d.A, 0) || math.IsNaN(d.B) || math.IsInf(d.B, 0) {
		return fmt.Errorf("%s parameters must be finite numbers, got %g, %g", d.Kind, d.A, d.B)
	}
	switch d.Kind {
	case "", Const:
		if d.A < 0 {
			return fmt.Errorf("const value %g is negative", d.A)
		}
	case Uniform:
		if d.A < 0 || d.B < d.A {
			return fmt.Errorf("uniform needs 0 <= min <= max, got [%g, %g]", d.A, d.B)
		}
	case Exponential:
		if d.A < 0 {
			return fmt.Errorf("exponential mean %g is negative", d.A)
		}
	case LogNormal:
		if d.A <= 0 || d.B < 0 {
			return fmt.Errorf("lognormal needs median > 0 and sigma >= 0, got %g, %g", d.A, d.B)
		}
		if d.B > MaxSigma {
			return fmt.Errorf("lognormal sigma %g is beyond the limit %d (values would span more than 35 orders of magnitude)", d.B, MaxSigma)
		}
	case Pareto:
		if d.A <= 0 || d.B < MinParetoShape {
			return fmt.Errorf("pareto needs scale > 0 and shape >= %g (a smaller shape overflows in the tail), got %g, %g", MinParetoShape, d.A, d.B)
		}
	case Zipf:
		if d.A < 0 {
			return fmt.Errorf("zipf exponent %g is negative", d.A)
		}
	default:
		return fmt.Errorf("unknown distribution %q (want const, uniform, exponential, lognormal, pareto, zipf)", d.Kind)
	}
	return nil
}

// Sample draws the i-th of n values. i and n matter only for Zipf, whose
// values are deterministic rank weights (shuffled by the caller if wanted).
func (d Dist) Sample(r *rand.Rand, i, n int) float64 {
	switch d.Kind {
	case "", Const:
		return d.A
	case Uniform:
		return d.A + (d.B-d.A)*r.Float64()
	case Exponential:
		return d.A * r.ExpFloat64()
	case LogNormal:
		return d.A * math.Exp(d.B*r.NormFloat64())
	case Pareto:
		return d.A / math.Pow(1-r.Float64(), 1/d.B)
	case Zipf:
		return 1 / math.Pow(float64(i+1), d.A)
	}
	panic("workload: Sample on invalid Dist " + string(d.Kind))
}

// Mean is the distribution's mean (for Zipf: the mean weight over n draws).
func (d Dist) Mean(n int) float64 {
	switch d.Kind {
	case "", Const:
		return d.A
	case Uniform:
		return (d.A + d.B) / 2
	case Exponential:
		return d.A
	case LogNormal:
		return d.A * math.Exp(d.B*d.B/2)
	case Pareto:
		if d.B <= 1 {
			return math.Inf(1)
		}
		return d.A * d.B / (d.B - 1)
	case Zipf:
		s := 0.0
		for i := 0; i < n; i++ {
			s += d.Sample(nil, i, n)
		}
		return s / float64(max(n, 1))
	}
	return math.NaN()
}
