package report

import (
	"fmt"
	"github.com/netsched/netsched/stats"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// Results is a results directory as the report reads it: the tidy table
// (results.csv) and, under cells/<id>/, each cell's run files.
type Results struct {
	Dir        string
	Table      *Table
	Cells      []Cell   // in table order
	Schedulers []string // labels, in order of first appearance
	Metrics    []string // in order of first appearance
}

// Cell is one run as the table describes it.
type Cell struct {
	ID        string
	Params    []string
	Scheduler string
	Seed      uint64
	Error     string
	Values    map[string]float64
}

// Dir is the cell's run-file directory.
func (r *Results) cellDir(c *Cell) string { return filepath.Join(r.Dir, "cells", c.ID) }

// LoadResults reads dir/results.csv.
func LoadResults(dir string) (*Results, error) {
	path := filepath.Join(dir, "results.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (is %s the output directory of a sweep, a merge or a comparison?)", err, dir)
	}
	t, err := ReadCSV(path, data)
	if err != nil {
		return nil, err
	}
	return NewResults(dir, t), nil
}

// NewResults indexes a table whose cells' run files are under dir/cells.
func NewResults(dir string, t *Table) *Results {
	r := &Results{Dir: dir, Table: t}
	at := map[string]int{}
	for _, row := range t.Rows {
		i, ok := at[row.CellID]
		if !ok {
			i = len(r.Cells)
			at[row.CellID] = i
			r.Cells = append(r.Cells, Cell{ID: row.CellID, Params: row.Params, Scheduler: row.Scheduler, Seed: row.Seed, Error: row.Error, Values: map[string]float64{}})
		}
		r.Cells[i].Values[row.Metric] = row.Value
		if !slices.Contains(r.Schedulers, row.Scheduler) {
			r.Schedulers = append(r.Schedulers, row.Scheduler)
		}
		if !slices.Contains(r.Metrics, row.Metric) {
			r.Metrics = append(r.Metrics, row.Metric)
		}
	}
	return r
}

// paramValues lists the values of parameter k in order of appearance,
// without "" (not applicable).
func (r *Results) paramValues(k int) []string {
	var out []string
	for _, c := range r.Cells {
		if v := c.Params[k]; v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// focus is one value per parameter: the grid point that single-point
// figures (CDF, bars, timeline, Gantt) show.
func (r *Results) focus(at map[string]string) ([]string, error) {
	f := make([]string, len(r.Table.Params))
	for k, name := range r.Table.Params {
		vals := r.paramValues(k)
		if v, ok := at[name]; ok {
			if !slices.Contains(vals, v) {
				return nil, fmt.Errorf("report at %s=%s: not a value of the sweep (values: %v)", name, v, vals)
			}
			f[k] = v
		} else if len(vals) > 0 {
			f[k] = vals[0]
		}
	}
	for name := range at {
		if !slices.Contains(r.Table.Params, name) {
			return nil, fmt.Errorf("report at %s: not a swept parameter (parameters: %v)", name, r.Table.Params)
		}
	}
	return f, nil
}

// matches reports whether a cell is at the point p, ignoring parameter
// skip (-1 for none) and parameters that do not apply to the cell.
func matches(c *Cell, p []string, skip int) bool {
	for k, v := range c.Params {
		if k != skip && v != "" && v != p[k] {
			return false
		}
	}
	return true
}

// okCells lists the successful cells of a scheduler at point p.
func (r *Results) okCells(sched string, p []string, skip int) []*Cell {
	var out []*Cell
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Scheduler == sched && c.Error == "" && matches(c, p, skip) {
			out = append(out, c)
		}
	}
	return out
}

// finite keeps the values that are neither NaN nor infinite.
func finite(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// meanSD is the mean and sample standard deviation of the finite values.
func meanSD(xs []float64) (mean, sd float64, n int) {
	sum := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean = sum / float64(n)
	if n == 1 {
		return mean, 0, 1
	}
	ss := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			ss += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(ss / float64(n-1)), n
}

// Comparison is one scheduler's metrics at a point, averaged over seeds,
// and the same divided by the baseline's.
type Comparison struct {
	Scheduler string
	Seeds     int // successful runs averaged
	Mean, SD  []float64
	Ratio     []stats.Ratio // paired by seed with the baseline: geometric-mean ratio and its 95% interval
}

// Compare averages each scheduler's metrics over seeds at the point at
// (nil: the first grid point), in scheduler order, normalized to baseline
// ("" means the first scheduler). Schedulers without a successful run at
// that point are left out.
func (r *Results) Compare(metricNames []string, baseline string, at map[string]string) ([]Comparison, error) {
	p, err := r.focus(at)
	if err != nil {
		return nil, err
	}
	var out []Comparison
	for _, s := range r.Schedulers {
		cells := r.okCells(s, p, -1)
		if len(cells) == 0 {
			continue
		}
		c := Comparison{Scheduler: s, Seeds: len(cells)}
		for _, m := range metricNames {
			xs := make([]float64, len(cells))
			for i, cl := range cells {
				v, ok := cl.Values[m]
				if !ok {
					v = math.NaN()
				}
				xs[i] = v
			}
			mean, sd, _ := meanSD(xs)
			c.Mean, c.SD = append(c.Mean, mean), append(c.SD, sd)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, nil
	}
	bi := 0
	if baseline != "" {
		bi = slices.IndexFunc(out, func(c Comparison) bool { return c.Scheduler == baseline })
		if bi < 0 {
			return nil, fmt.Errorf("baseline %q has no successful run at this point (schedulers: %v)", baseline, r.Schedulers)
		}
	}
	baseCells := r.okCells(out[bi].Scheduler, p, -1)
	for i := range out {
		cells := r.okCells(out[i].Scheduler, p, -1)
		for _, m := range metricNames {
			out[i].Ratio = append(out[i].Ratio, pairedRatio(cells, baseCells, m))
		}
	}
	if bi != 0 { // the baseline leads every table
		b := out[bi]
		out = append([]Comparison{b}, slices.Delete(out, bi, bi+1)...)
	}
	return out, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return math.NaN()
	}
	return a / b
}

// pairedRatio compares a scheduler's cells with the baseline's on the same
// seeds (stats.PairedBySeed).
func pairedRatio(cells, base []*Cell, metric string) stats.Ratio {
	r, _ := stats.PairedBySeed(bySeed(cells, metric), bySeed(base, metric))
	return r
}

func bySeed(cells []*Cell, metric string) map[uint64]float64 {
	out := map[uint64]float64{}
	for _, c := range cells {
		if v, ok := c.Values[metric]; ok {
			out[c.Seed] = v
		}
	}
	return out
}
