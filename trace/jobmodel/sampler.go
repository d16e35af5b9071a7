package jobmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/netsched/netsched/workload"
)

// Sampler is a workload.Dist or, when P is set, an empirical distribution
// given by quantiles: P[i] is a cumulative probability (0 = the minimum,
// 1 = the maximum, increasing) and V[i] the value at it (non-decreasing).
// Between two points a draw is interpolated geometrically (log-linearly)
// when both values are positive, linearly otherwise, which suits sizes
// that span many orders of magnitude (SWIM's do).
type Sampler struct {
	Dist workload.Dist
	P, V []float64
}

// Sample draws one value.
func (s *Sampler) Sample(r *rand.Rand) float64 {
	if len(s.P) == 0 {
		return s.Dist.Sample(r, 0, 1)
	}
	u := r.Float64()
	i := sort.SearchFloat64s(s.P, u) // first P[i] >= u
	if i == 0 {
		return s.V[0]
	}
	if i >= len(s.P) {
		return s.V[len(s.V)-1]
	}
	a, b := s.V[i-1], s.V[i]
	f := (u - s.P[i-1]) / (s.P[i] - s.P[i-1])
	if a > 0 && b > 0 {
		return a * math.Pow(b/a, f)
	}
	return a + (b-a)*f
}

// Validate checks an empirical table's shape.
func (s *Sampler) Validate() error {
	if len(s.P) == 0 {
		return s.Dist.Validate()
	}
	if len(s.P) != len(s.V) || len(s.P) < 2 {
		return fmt.Errorf("an empirical distribution needs p and values of the same length >= 2, got %d and %d", len(s.P), len(s.V))
	}
	if s.P[0] != 0 || s.P[len(s.P)-1] != 1 {
		return fmt.Errorf("p must start at 0 and end at 1")
	}
	for i := range s.P {
		if s.V[i] < 0 {
			return fmt.Errorf("value %g is negative", s.V[i])
		}
		if i > 0 && (s.P[i] <= s.P[i-1] || s.V[i] < s.V[i-1]) {
			return fmt.Errorf("p must increase and values must not decrease (at index %d)", i)
		}
	}
	return nil
}

// Sampler reads a distribution like Dist does, or an empirical one:
// {dist: empirical, p: [0, 0.5, 1], values: [0, 10MB, 1TB]}.
func (o *Options) Sampler(key string, q Quantity, def Sampler) Sampler {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	m, isMap := asMap(raw)
	if !isMap || m["dist"] != "empirical" {
		return Sampler{Dist: o.Dist(key, q, def.Dist)}
	}
	s, err := parseEmpirical(m, q)
	if err != nil {
		o.Fail(key, "%v", err)
		return def
	}
	return s
}

func parseEmpirical(m map[string]any, q Quantity) (Sampler, error) {
	for k := range m {
		if k != "dist" && k != "p" && k != "values" {
			return Sampler{}, fmt.Errorf("key %q does not apply to an empirical distribution (it takes p and values)", k)
		}
	}
	var s Sampler
	for _, f := range []struct {
		key   string
		dst   *[]float64
		parse Quantity
	}{{"p", &s.P, Unitless}, {"values", &s.V, q}} {
		list, ok := m[f.key].([]any)
		if !ok {
			return Sampler{}, fmt.Errorf("an empirical distribution needs a list %q", f.key)
		}
		for i, e := range list {
			d, err := parseDist(e, f.parse)
			if err != nil || d.Kind != workload.Const {
				return Sampler{}, fmt.Errorf("%s[%d]: %v is not a value", f.key, i, e)
			}
			*f.dst = append(*f.dst, d.A)
		}
	}
	return s, s.Validate()
}
