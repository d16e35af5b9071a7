package workload

import (
	"fmt"
	"math"
)

// Limits on what a workload may state. They keep every quantity and sum the
// engine forms finite and a run's memory bounded: a value beyond them is an
// error naming its field, never clamped. They are far beyond any real
// cluster (docs/scenario.md lists them).
const (
	MaxBytes         = 1e18       // one task's input or output (1 EB)
	MaxSeconds       = 1e9        // a compute time or an arrival (about 31.7 years)
	MaxTasksPerStage = 10_000_000 // tasks of one stage
	MaxRatio         = 1e6        // output_ratio
	MaxShare         = 1e18       // a task's share weight (importers use bytes as weights)
	MaxPerByte       = 1e3        // per_byte, seconds per byte
	MaxSigma         = 10         // lognormal sigma: e^(10 x 8) spans 35 orders of magnitude
	MinParetoShape   = 0.5        // smaller shapes overflow float64 in the tail
)

// within reports an error when v is not a finite number in [0, max].
func within(name string, v, max float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%s %g is not a finite number", name, v)
	case v < 0:
		return fmt.Errorf("%s %g is negative", name, v)
	case v > max:
		return fmt.Errorf("%s %g is beyond the limit %g", name, v, max)
	}
	return nil
}

// Bounded reports a distribution whose location exceeds max (its values
// are then mostly beyond it): the const value, the uniform maximum, the
// exponential mean, the lognormal median or the Pareto scale.
func (d Dist) Bounded(max float64) error {
	var loc float64
	switch d.Kind {
	case "", Const, Exponential, LogNormal, Pareto:
		loc = d.A
	case Uniform:
		loc = d.B
	default:
		return nil
	}
	if loc > max {
		return fmt.Errorf("%s %g is beyond the limit %g", d.locationName(), loc, max)
	}
	return nil
}

func (d Dist) locationName() string {
	switch d.Kind {
	case Uniform:
		return "uniform max"
	case Exponential:
		return "exponential mean"
	case LogNormal:
		return "lognormal median"
	case Pareto:
		return "pareto scale"
	}
	return "value"
}

// checkPerByte bounds the seconds per byte of processing, which files give
// as a processing rate (bytes/s) = 1/PerByte.
func checkPerByte(perByte float64) error {
	if err := within("per_byte", perByte, MaxPerByte); err != nil {
		return fmt.Errorf("processing rate %g bytes/s is below the limit of 1 byte per %g s", 1/perByte, float64(MaxPerByte))
	}
	return nil
}
