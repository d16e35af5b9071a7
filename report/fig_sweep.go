package report

import (
	"fmt"
	"github.com/netsched/netsched/stats"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// sweepLines: for every swept parameter with two or more values and every
// metric of the table, one line per scheduler of the metric's mean over
// seeds, with error bars of one sample standard deviation; the other
// parameters stay at the focus point. A scheduler the parameter does not
// apply to (an empty column, e.g. fair under scheduler.params.skips) is a
// dashed flat line.
func (g *gen) sweepLines() []*Figure {
	var figs []*Figure
	for k, key := range g.r.Table.Params {
		var vals []string // values some run finished at: a line needs two
		for _, v := range g.r.paramValues(k) {
			if slices.ContainsFunc(g.r.Cells, func(c Cell) bool { return c.Error == "" && c.Params[k] == v }) {
				vals = append(vals, v)
			}
		}
		if len(vals) < 2 {
			continue
		}
		xs, numeric := numericValues(vals)
		for _, m := range g.r.Metrics {
			if f := g.sweepLine(k, key, vals, xs, numeric, m); f != nil {
				figs = append(figs, f)
			}
		}
	}
	return figs
}

func (g *gen) sweepLine(k int, key string, vals []string, xs []float64, numeric bool, metric string) *Figure {
	title := fmt.Sprintf("%s vs %s", MetricLabel(metric), key)
	p := newPlot(title, key, axisLabel(metric))
	drawn := 0
	for i, s := range g.r.Schedulers {
		var pts plotter.XYs
		var errs plotter.YErrors
		flat := true
		for v, val := range vals {
			point := append([]string(nil), g.focus...)
			point[k] = val
			var ys []float64
			for _, c := range g.r.okCells(s, point, -1) {
				if c.Params[k] != "" {
					flat = false
				}
				if y, ok := c.Values[metric]; ok {
					ys = append(ys, y)
				}
			}
			m := stats.MeanInterval(finite(ys))
			if m.N == 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: xs[v], Y: m.Mean})
			errs = append(errs, struct{ Low, High float64 }{m.Mean - m.Low, m.High - m.Mean})
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			g.skip("%s: %v", title, err)
			return nil
		}
		l.LineStyle = lineStyle(i, flat)
		sc.GlyphStyle.Color = seriesColor(i)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			g.skip("%s: %v", title, err)
			return nil
		}
		eb.LineStyle.Color = seriesColor(i)
		label := s
		if flat {
			label += " (not swept)"
		}
		p.Add(l, sc, eb)
		p.Legend.Add(label, l, sc)
		drawn++
	}
	if drawn == 0 {
		g.skip("%s: no successful run has this metric", title)
		return nil
	}
	if !numeric {
		p.X.Tick.Marker = labelTicks(vals)
		p.X.Min, p.X.Max = -0.5, float64(len(vals))-0.5
	} else {
		pad := 0.05 * (p.X.Max - p.X.Min)
		p.X.Min, p.X.Max = p.X.Min-pad, p.X.Max+pad
	}
	name := "sweep-" + fileStem(key) + "-" + fileStem(metric)
	others := g.focusTextExcept(k)
	return figure(name, title, fmt.Sprintf("Mean of %s over seeds along %s; error bars: the mean's 95%% Student-t interval over seeds (none with one seed).%s", metric, key, others), p)
}

func (g *gen) focusTextExcept(skip int) string {
	if p := g.focusPairs(skip); p != "" {
		return " Other parameters: " + p + "."
	}
	return ""
}

// numericValues places values on the x axis: at their numbers when all are
// numbers, else at 0, 1, 2, ... in sweep order.
func numericValues(vals []string) ([]float64, bool) {
	xs := make([]float64, len(vals))
	for i, v := range vals {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			for j := range xs {
				xs[j] = float64(j)
			}
			return xs, false
		}
		xs[i] = x
	}
	return xs, true
}

func labelTicks(labels []string) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(labels))
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	return ticks
}
