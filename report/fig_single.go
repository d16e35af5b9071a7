package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// gen builds the figures of one report.
type gen struct {
	r        *Results
	focus    []string
	baseline string
	skipped  []string // figures not drawn, and why
}

func (g *gen) skip(format string, args ...any) {
	g.skipped = append(g.skipped, fmt.Sprintf(format, args...))
}

// focusPairs lists the focus point as "key=value, ..." leaving out
// parameter skip (-1: none).
func (g *gen) focusPairs(skip int) string {
	var parts []string
	for k, name := range g.r.Table.Params {
		if k != skip {
			parts = append(parts, name+"="+g.focus[k])
		}
	}
	return strings.Join(parts, ", ")
}

// focusText ends captions of single-point figures ("" without a grid).
func (g *gen) focusText() string {
	if p := g.focusPairs(-1); p != "" {
		return " At " + p + "."
	}
	return ""
}

// cdf: the empirical CDF of job completion time per scheduler, with the
// jobs of every seed at the focus point pooled.
func (g *gen) cdf() *Figure {
	p := newPlot("Job completion time CDF", "job completion time (s)", "fraction of jobs")
	drawn := 0
	for i, s := range g.r.Schedulers {
		var jcts []float64
		for _, c := range g.r.okCells(s, g.focus, -1) {
			jobs, err := readJobs(g.r.cellDir(c))
			if err != nil {
				g.skip("JCT CDF of %s: %v", s, err)
				continue
			}
			for _, j := range jobs {
				jcts = append(jcts, j.jct)
			}
		}
		if len(jcts) == 0 {
			continue
		}
		slices.Sort(jcts)
		n := float64(len(jcts))
		pts := plotter.XYs{{X: jcts[0], Y: 0}}
		for k, x := range jcts {
			pts = append(pts, plotter.XY{X: x, Y: float64(k) / n}, plotter.XY{X: x, Y: float64(k+1) / n})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			g.skip("JCT CDF of %s: %v", s, err)
			continue
		}
		l.LineStyle = lineStyle(i, false)
		p.Add(l)
		p.Legend.Add(s, l)
		drawn++
	}
	if drawn == 0 {
		g.skip("JCT CDF: no cell has a readable jobs.csv")
		return nil
	}
	p.Y.Min, p.Y.Max = 0, 1
	return figure("jct-cdf", "Job completion time CDF",
		"Empirical CDF of every job's completion time, jobs of all seeds pooled."+g.focusText(), p)
}

// groupedBars draws one bar per scheduler in each group, normalized
// values; intervals, when given for a scheduler, are drawn as error bars
// ([low, high] per group; NaN: none).
func (g *gen) groupedBars(title string, groups []string, vals map[string][]float64, intervals map[string][][2]float64) *Figure {
	p := newPlot(title, "", "normalized to "+g.baseline)
	var present []string
	for _, s := range g.r.Schedulers {
		if _, ok := vals[s]; ok {
			present = append(present, s)
		}
	}
	w := vg.Points(min(60, 300/float64(max(1, len(present)*len(groups)))))
	for k, s := range present {
		v := vals[s]
		ys := make(plotter.Values, len(v))
		for i, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				x = 0 // no bar rather than no figure
			}
			ys[i] = x
		}
		b, err := plotter.NewBarChart(ys, w)
		if err != nil {
			g.skip("%s: %v", title, err)
			return nil
		}
		b.Color = seriesColor(slices.Index(g.r.Schedulers, s))
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(k)-float64(len(present)-1)/2)
		p.Add(b)
		p.Legend.Add(s, b)
		if eb := barErrors(intervals[s], ys); eb != nil {
			p.Add(offsetPlotter{eb, b.Offset})
		}
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(one)
	p.NominalX(groups...)
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	p.Y.Min = 0
	return figure("", title, "", p)
}

// normalizedJCT: mean, p95 and p99 JCT, each scheduler's paired by seed
// with the baseline's: the geometric mean of the per-seed ratios, with its
// 95% interval as an error bar (stats.PairedBySeed, as the tables).
func (g *gen) normalizedJCT() *Figure {
	metricsShown := []struct{ label, metric string }{
		{"mean JCT", "jct.mean"}, {"p95 JCT", "jct.p95"}, {"p99 JCT", "jct.p99"}}
	perSeed := map[string][3]map[uint64]float64{}
	for _, s := range g.r.Schedulers {
		var per [3]map[uint64]float64
		for k := range per {
			per[k] = map[uint64]float64{}
		}
		for _, c := range g.r.okCells(s, g.focus, -1) {
			sum, err := readSummary(g.r.cellDir(c))
			if err != nil {
				g.skip("normalized JCT of %s: %v", s, err)
				continue
			}
			for k, v := range []float64{sum.JCT.Mean, sum.JCT.P95, sum.JCT.P99} {
				per[k][c.Seed] = v
			}
		}
		if len(per[0]) > 0 {
			perSeed[s] = per
		}
	}
	base, ok := perSeed[g.baseline]
	if !ok {
		g.skip("normalized JCT: the baseline %s has no readable summary.json", g.baseline)
		return nil
	}
	norm, intervals := map[string][]float64{}, map[string][][2]float64{}
	for s, per := range perSeed {
		for k := range per {
			r, _ := stats.PairedBySeed(per[k], base[k])
			norm[s] = append(norm[s], r.Geo)
			intervals[s] = append(intervals[s], [2]float64{r.Low, r.High})
		}
	}
	var groups []string
	for _, m := range metricsShown {
		groups = append(groups, m.label)
	}
	f := g.groupedBars("Mean and tail JCT, normalized to "+g.baseline, groups, norm, intervals)
	if f != nil {
		f.Name = "jct-normalized"
		f.Caption = "Each run's mean, p95 and p99 job completion time divided by " + g.baseline + "'s on the same seed; bars are the geometric mean of these ratios, error bars its 95% interval (t on the log scale; none with one seed); below 1 is faster." + g.focusText()
	}
	return f
}

// barErrors draws [low, high] intervals over bars; nil when none is finite.
func barErrors(iv [][2]float64, ys plotter.Values) *plotter.YErrorBars {
	pts := make(plotter.XYs, 0, len(iv))
	errs := make(plotter.YErrors, 0, len(iv))
	for i, lh := range iv {
		if i >= len(ys) || math.IsNaN(lh[0]) || math.IsNaN(lh[1]) || math.IsInf(lh[0], 0) || math.IsInf(lh[1], 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(i), Y: ys[i]})
		errs = append(errs, struct{ Low, High float64 }{ys[i] - lh[0], lh[1] - ys[i]})
	}
	if len(pts) == 0 {
		return nil
	}
	return &plotter.YErrorBars{XYs: pts, YErrors: errs, LineStyle: plotter.DefaultLineStyle, CapWidth: vg.Points(4)}
}

// offsetPlotter draws p shifted sideways by off, as a bar chart's Offset
// shifts its bars, so error bars sit on their bar within a group.
type offsetPlotter struct {
	*plotter.YErrorBars
	off vg.Length
}

func (o offsetPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	c.Push()
	defer c.Pop()
	c.Translate(vg.Point{X: o.off})
	o.YErrorBars.Plot(c, p)
}

// bySize: mean JCT per job-size bin (bins of metrics.SizeBins, from each
// run's summary), jobs of all seeds pooled, normalized to the baseline.
func (g *gen) bySize() *Figure {
	type acc struct{ n, sum float64 }
	per := map[string]map[string]acc{}
	for _, s := range g.r.Schedulers {
		for _, c := range g.r.okCells(s, g.focus, -1) {
			sum, err := readSummary(g.r.cellDir(c))
			if err != nil {
				g.skip("JCT by size of %s: %v", s, err)
				continue
			}
			if per[s] == nil {
				per[s] = map[string]acc{}
			}
			for _, b := range sum.JCTByBin {
				a := per[s][b.Bin]
				a.n += float64(b.Count)
				a.sum += float64(b.Count) * b.Mean
				per[s][b.Bin] = a
			}
		}
	}
	base := per[g.baseline]
	var bins []string
	for _, b := range metrics.SizeBins {
		if base[b.Name].n > 0 {
			bins = append(bins, b.Name)
		}
	}
	if len(bins) == 0 {
		g.skip("JCT by job size: the baseline %s has no per-bin JCT", g.baseline)
		return nil
	}
	norm := map[string][]float64{}
	for s, m := range per {
		for _, b := range bins {
			v := math.NaN()
			if m[b].n > 0 {
				v = ratio(m[b].sum/m[b].n, base[b].sum/base[b].n)
			}
			norm[s] = append(norm[s], v)
		}
	}
	f := g.groupedBars("Mean JCT by job size, normalized to "+g.baseline, bins, norm, nil)
	if f != nil {
		f.Name = "jct-by-size"
		f.plot.X.Label.Text = "job size (bytes read)"
		f.Caption = "Mean job completion time per size bin (bytes the job read), jobs of all seeds pooled, divided by " + g.baseline + "'s in the same bin; a missing bar means no job of that size." + g.focusText()
	}
	return f
}
