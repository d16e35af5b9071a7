package jobmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/netsched/netsched/internal/units"
)

// Strata selects a fixed number of trace jobs so that one of their sizes
// follows given quantiles: the bands between consecutive Values receive
// the share of jobs between the matching cumulative probabilities P, each
// band filled by a uniform draw (without replacement) from the trace's jobs
// whose size falls in it. A paper that reports only a few percentiles of
// the jobs it ran (JobPacker Table 1: shuffle p5 / p50 / p95 = 0.1 / 2.5 /
// 82 GB for 1,000 SWIM jobs) is matched at exactly those percentiles, while
// the jobs inside each band keep the trace's own shape and the real
// combination of input, shuffle and output of each job.
type Strata struct {
	P      []float64 // cumulative probabilities, 0 first, 1 last, increasing
	Values []float64 // band edges in bytes (the trace's, before size_scale), increasing
}

// ParseStrata reads key as {p: [0, ...], values: [size, ...]}; ok is false
// when the key is absent.
func ParseStrata(o *Options, key string) (s Strata, ok bool) {
	m := o.Map(key)
	if m == nil {
		return Strata{}, false
	}
	s.P = m.numbers("p", parseNumber)
	s.Values = m.numbers("values", units.ParseBytes)
	if *o.err != nil {
		return Strata{}, true
	}
	if err := s.Validate(); err != nil {
		o.Fail(key, "%v", err)
		return Strata{}, true
	}
	return s, true
}

// Validate checks the shape: at least two points, p from 0 to 1 and both
// lists strictly increasing.
func (s Strata) Validate() error {
	switch {
	case len(s.P) < 2 || len(s.P) != len(s.Values):
		return fmt.Errorf("p and values need the same number of points, at least 2 (got %d and %d)", len(s.P), len(s.Values))
	case s.P[0] != 0 || s.P[len(s.P)-1] != 1:
		return fmt.Errorf("p must start at 0 and end at 1, got %v", s.P)
	}
	for i := 1; i < len(s.P); i++ {
		if !(s.P[i] > s.P[i-1]) || !(s.Values[i] > s.Values[i-1]) {
			return fmt.Errorf("p and values must be strictly increasing (point %d)", i)
		}
	}
	return nil
}

// Counts splits n jobs over the bands by their probability mass, rounding
// by largest remainder (equal remainders: the lower band first) so that
// they sum to n.
func (s Strata) Counts(n int) []int {
	bands := len(s.P) - 1
	counts := make([]int, bands)
	rem := make([]float64, bands)
	left := n
	for k := range bands {
		x := float64(n) * (s.P[k+1] - s.P[k])
		counts[k] = int(math.Floor(x))
		rem[k] = x - float64(counts[k])
		left -= counts[k]
	}
	order := make([]int, bands)
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for i := 0; i < left; i++ {
		counts[order[i%bands]]++
	}
	return counts
}

// Band is the band of a size: k for Values[k] <= size < Values[k+1] (the
// last band includes its upper edge), -1 outside.
func (s Strata) Band(size float64) int {
	last := len(s.Values) - 1
	if size < s.Values[0] || size > s.Values[last] {
		return -1
	}
	k := sort.SearchFloat64s(s.Values, size) // first edge >= size
	if k < len(s.Values) && s.Values[k] == size {
		return min(k, last-1)
	}
	return k - 1
}

// Pick chooses n of the sizes (trace jobs in file order) band by band and
// returns their indexes in ascending order. A band with fewer candidates
// than its count is an error naming it.
func (s Strata) Pick(sizes []float64, n int, r *rand.Rand) ([]int, error) {
	cand := make([][]int, len(s.P)-1)
	for i, x := range sizes {
		if k := s.Band(x); k >= 0 {
			cand[k] = append(cand[k], i)
		}
	}
	var out []int
	for k, want := range s.Counts(n) {
		c := cand[k]
		if len(c) < want {
			return nil, fmt.Errorf("band [%s, %s) needs %d jobs, the trace has %d", units.FormatBytes(s.Values[k]), units.FormatBytes(s.Values[k+1]), want, len(c))
		}
		for i := range want { // partial Fisher-Yates: the first want are a uniform sample
			j := i + r.IntN(len(c)-i)
			c[i], c[j] = c[j], c[i]
		}
		out = append(out, c[:want]...)
	}
	slices.Sort(out)
	return out, nil
}

// numbers reads a list of quantities (plain numbers or strings parsed by
// parse), each finite and >= 0.
func (o *Options) numbers(key string, parse func(string) (float64, error)) []float64 {
	raw, ok := o.get(key)
	if !ok {
		o.Fail(key, "missing: expected a list")
		return nil
	}
	list, isList := raw.([]any)
	if !isList {
		o.Fail(key, "expected a list, got %v", raw)
		return nil
	}
	out := make([]float64, len(list))
	for i, e := range list {
		v, err := toQuantity(e, parse)
		if err == nil && v < 0 {
			err = fmt.Errorf("%v is negative", e)
		}
		if err != nil {
			o.Fail(fmt.Sprintf("%s[%d]", key, i), "%v", err)
			return nil
		}
		out[i] = v
	}
	return out
}

// Arrivals replaces a trace's submit times: "trace" keeps them (shifted by
// the window and time_scale), "batch" submits every job at 0 (a batch,
// JobPacker §5.2.1), "uniform" draws each arrival uniformly in [0, Window)
// (JobPacker §5.2.2: [0, 90 min]); jobs are then replayed in arrival order,
// ties in trace order.
type Arrivals struct {
	Mode   string
	Window float64 // seconds, uniform only
}

// ParseArrivals reads arrival (trace, batch, uniform) and arrival_window.
func ParseArrivals(o *Options) Arrivals {
	a := Arrivals{Mode: o.Choice("arrival", "trace", "trace", "batch", "uniform"), Window: o.Duration("arrival_window", 0)}
	switch {
	case a.Mode == "uniform" && a.Window == 0:
		o.Fail("arrival_window", "arrival: uniform needs a window > 0 (e.g. 90m)")
	case a.Mode != "uniform" && o.Has("arrival_window"):
		o.Fail("arrival_window", "applies only to arrival: uniform")
	}
	return a
}

// Draw gives the arrival of each of n jobs whose trace arrivals are given,
// from r for uniform arrivals.
func (a Arrivals) Draw(trace []float64, r *rand.Rand) []float64 {
	out := make([]float64, len(trace))
	switch a.Mode {
	case "batch":
	case "uniform":
		for i := range out {
			out[i] = r.Float64() * a.Window
		}
	default:
		copy(out, trace)
	}
	return out
}
