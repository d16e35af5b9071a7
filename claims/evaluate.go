package claims

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/netsched/netsched/report"
	"github.com/netsched/netsched/stats"
)

// Verdicts.
const (
	Reproduced    = "reproduced"     // the paper's direction, and its size within the tolerance
	DirectionOnly = "direction only" // the paper's direction, outside the tolerance
	NotReproduced = "not reproduced" // the opposite direction (or a value outside the tolerance)
	Tie           = "tie"            // the interval contains "no difference"
	OneSeed       = "one seed"       // a single pair: no interval, no verdict
	NoData        = "no data"        // no cell with a value, or results that do not record the metric
)

// Estimate is netsched's side of a claim: for ratios and trends the
// geometric-mean ratio and its interval; for values the mean and its
// interval.
type Estimate struct {
	N                int
	Value, Low, High float64
	Seeds            []uint64
}

// Result is one judged claim.
type Result struct {
	Paper   string // the paper's catalog directory
	Claim   Claim
	Est     Estimate
	Verdict string
	Commit  string // the code the results were produced with
}

// Judge applies the verdict rules to an estimate. For ratios and trends:
// an interval that contains 1 is a tie (unless the paper says "same",
// when it is the reproduction); an interval on the other side of 1 from the
// paper is not reproduced; on the paper's side it is reproduced when the
// interval of the log-ratio meets the paper's log-ratio ± tolerance x its
// size (or when the paper gives only a direction), direction only when it
// does not. For values: reproduced when the interval meets the paper's
// value ± tolerance x its size (or lies beyond it, for a bound), otherwise
// not reproduced.
func Judge(c *Claim, est Estimate) (string, error) {
	p, dir, err := c.paperValue()
	if err != nil {
		return "", err
	}
	switch {
	case est.N == 0:
		return NoData, nil
	case est.N == 1:
		return OneSeed, nil
	}
	tol := c.tolerance()
	if c.Kind == KindValue {
		lo, hi := p-tol*math.Abs(p), p+tol*math.Abs(p)
		switch c.Bound {
		case "at-least":
			hi = math.Inf(1)
		case "at-most":
			lo = math.Inf(-1)
		}
		if est.High >= lo && est.Low <= hi {
			return Reproduced, nil
		}
		return NotReproduced, nil
	}
	tie := est.Low <= 1 && 1 <= est.High
	numeric := !math.IsNaN(p)
	if numeric {
		dir = sign(math.Log(p))
	}
	if dir == 0 {
		if tie {
			return Reproduced, nil
		}
		return NotReproduced, nil
	}
	if tie {
		return Tie, nil
	}
	if sign(math.Log(est.Value)) != dir {
		return NotReproduced, nil
	}
	if !numeric {
		return Reproduced, nil
	}
	lp := math.Log(p)
	blo, bhi := lp*(1-tol), lp*(1+tol)
	if blo > bhi {
		blo, bhi = bhi, blo
	}
	if math.Log(est.High) >= blo && math.Log(est.Low) <= bhi {
		return Reproduced, nil
	}
	return DirectionOnly, nil
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Evaluate judges one claim on its entry's results table.
func Evaluate(paper string, c *Claim, t *report.Table) (Result, error) {
	r := Result{Paper: paper, Claim: *c}
	fail := func(err error) (Result, error) {
		if errors.Is(err, errNotRecorded) {
			r.Est = Estimate{Value: math.NaN(), Low: math.NaN(), High: math.NaN()}
			r.Verdict = NoData
			return r, nil
		}
		return r, fmt.Errorf("%s/%s claim %s: %w", paper, c.Entry, c.ID, err)
	}
	at := merge(c.At, c.Cell.At)
	switch c.Kind {
	case KindRatio:
		treat, err := pick(t, c.Metric, c.Cell.Scheduler, at)
		if err != nil {
			return fail(err)
		}
		base, err := pick(t, c.Metric, c.Against.Scheduler, merge(c.At, c.Against.At))
		if err != nil {
			return fail(err)
		}
		r.Est = ratioOf(treat, base)
	case KindTrend:
		if _, ok := at[c.Along.Param]; ok {
			return fail(fmt.Errorf("%s is the trend's axis; it cannot also be fixed in at", c.Along.Param))
		}
		from, err := pick(t, c.Metric, c.Cell.Scheduler, merge(at, map[string]string{c.Along.Param: c.Along.From}))
		if err != nil {
			return fail(err)
		}
		to, err := pick(t, c.Metric, c.Cell.Scheduler, merge(at, map[string]string{c.Along.Param: c.Along.To}))
		if err != nil {
			return fail(err)
		}
		r.Est = ratioOf(to, from)
	case KindValue:
		vals, err := pick(t, c.Metric, c.Cell.Scheduler, at)
		if err != nil {
			return fail(err)
		}
		var xs []float64
		for _, s := range sortedSeeds(vals) {
			if v := vals[s]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				xs = append(xs, v)
				r.Est.Seeds = append(r.Est.Seeds, s)
			}
		}
		m := stats.MeanInterval(xs)
		r.Est.N, r.Est.Value, r.Est.Low, r.Est.High = m.N, m.Mean, m.Low, m.High
	}
	v, err := Judge(c, r.Est)
	if err != nil {
		return fail(err)
	}
	r.Verdict = v
	return r, nil
}

// ratioOf pairs two cells' values by seed.
func ratioOf(num, den map[uint64]float64) Estimate {
	r, seeds := stats.PairedBySeed(num, den)
	return Estimate{N: r.N, Value: r.Geo, Low: r.Low, High: r.High, Seeds: seeds}
}

func sortedSeeds(m map[uint64]float64) []uint64 {
	return slices.Sorted(maps.Keys(m))
}

func merge(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, b)
	return out
}

// errNotRecorded: the results hold no row of the metric at all (results
// made before the entry recorded it); the claim has no data until the
// entry is rerun.
var errNotRecorded = errors.New("the results do not record the metric")

// quotientSep joins the two metrics of a quotient ("A / B").
const quotientSep = " / "

// MetricParts are the results.csv metrics a claim's metric reads: itself,
// or the two of a quotient.
func MetricParts(metric string) []string { return strings.Split(metric, quotientSep) }

// pick returns the metric's value per seed (see pickMetric); a metric
// written "A / B" is the quotient of two metrics of the same cell, seed by
// seed (the OCS's share of the cross-rack bytes: bytes.ocs_bytes /
// bytes.total.cross_rack).
func pick(t *report.Table, metric, sched string, at map[string]string) (map[uint64]float64, error) {
	num, den, quotient := strings.Cut(metric, quotientSep)
	if !quotient {
		return pickMetric(t, metric, sched, at)
	}
	a, err := pickMetric(t, num, sched, at)
	if err != nil {
		return nil, err
	}
	b, err := pickMetric(t, den, sched, at)
	if err != nil {
		return nil, err
	}
	out := map[uint64]float64{}
	for seed, x := range a {
		if y, ok := b[seed]; ok {
			out[seed] = x / y
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s and %s of %s share no seed", num, den, sched)
	}
	return out, nil
}

// pickMetric returns the metric's value per seed for the one cell per seed that
// has the scheduler and the grid values of at. A grid parameter that at
// leaves open and that varies among the matching rows is an error naming
// its values: a claim always says which grid point it reads.
func pickMetric(t *report.Table, metric, sched string, at map[string]string) (map[uint64]float64, error) {
	col := map[string]int{}
	for i, p := range t.Params {
		col[p] = i
	}
	for k := range at {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("grid parameter %q is not in the results (parameters: %s)", k, strings.Join(t.Params, ", "))
		}
	}
	out := map[uint64]float64{}
	open := map[int]map[string]bool{}
	scheds, metrics, recorded := map[string]bool{}, map[string]bool{}, false
	for _, r := range t.Rows {
		scheds[r.Scheduler] = true
		recorded = recorded || r.Metric == metric
		if r.Scheduler != sched {
			continue
		}
		metrics[r.Metric] = true
		if r.Metric != metric {
			continue
		}
		ok := true
		for k, v := range at {
			if r.Params[col[k]] != v {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for i, v := range r.Params {
			if _, fixed := at[t.Params[i]]; !fixed {
				if open[i] == nil {
					open[i] = map[string]bool{}
				}
				open[i][v] = true
			}
		}
		if _, dup := out[r.Seed]; dup {
			continue // reported below as an open parameter
		}
		out[r.Seed] = r.Value
	}
	for i, vs := range open {
		if len(vs) > 1 {
			return nil, fmt.Errorf("%s's %s depends on the grid parameter %s (values %s): fix it in at",
				sched, metric, t.Params[i], strings.Join(slices.Sorted(maps.Keys(vs)), ", "))
		}
	}
	if len(out) == 0 {
		switch {
		case !recorded:
			return nil, fmt.Errorf("%w: %s", errNotRecorded, metric)
		case !scheds[sched]:
			return nil, fmt.Errorf("no scheduler %q in the results (have %s)", sched, strings.Join(slices.Sorted(maps.Keys(scheds)), ", "))
		case !metrics[metric]:
			return nil, fmt.Errorf("no metric %q for %s in the results (have %s)", metric, sched, strings.Join(slices.Sorted(maps.Keys(metrics)), ", "))
		}
		return nil, fmt.Errorf("no cell of %s at %v; the grid's values are: %s", sched, at, gridValues(t))
	}
	return out, nil
}

func gridValues(t *report.Table) string {
	var parts []string
	for i, p := range t.Params {
		vs := map[string]bool{}
		for _, r := range t.Rows {
			vs[r.Params[i]] = true
		}
		parts = append(parts, p+" in {"+strings.Join(slices.Sorted(maps.Keys(vs)), ", ")+"}")
	}
	if len(parts) == 0 {
		return "(no grid)"
	}
	return strings.Join(parts, "; ")
}
