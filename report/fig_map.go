package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// sweepMaps: for every pair of swept parameters with two or more values
// each, every metric and every scheduler but the baseline, a heat map of
// the scheduler's mean over seeds divided by the baseline's at each grid
// point (the other parameters at the focus point), the focus point framed.
// A regime map: where a scheduler gains over the baseline and where not.
func (g *gen) sweepMaps() []*Figure {
	var figs []*Figure
	keys := g.r.Table.Params
	swept := map[int][]string{}
	for k := range keys {
		var vals []string
		for _, v := range g.r.paramValues(k) {
			for _, c := range g.r.Cells {
				if c.Error == "" && c.Params[k] == v {
					vals = append(vals, v)
					break
				}
			}
		}
		if len(vals) >= 2 {
			swept[k] = vals
		}
	}
	for kx := range keys {
		for ky := kx + 1; ky < len(keys); ky++ {
			if swept[kx] == nil || swept[ky] == nil {
				continue
			}
			for _, m := range g.r.Metrics {
				for _, s := range g.r.Schedulers {
					if s == g.baseline {
						continue
					}
					if f := g.sweepMap(s, m, kx, ky, swept[kx], swept[ky]); f != nil {
						figs = append(figs, f)
					}
				}
			}
		}
	}
	return figs
}

func (g *gen) sweepMap(s, metric string, kx, ky int, xs, ys []string) *Figure {
	keys := g.r.Table.Params
	grid := g.ratioGrid(s, metric, kx, ky, xs, ys)
	if grid == nil {
		return nil
	}
	title := fmt.Sprintf("%s: %s / %s's", s, MetricLabel(metric), g.baseline)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = keys[kx], keys[ky]
	p.X.Tick.Marker, p.Y.Tick.Marker = labelTicks(xs), labelTicks(ys)
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	p.Add(grid)
	name := fmt.Sprintf("map-%s-%s-%s-%s", fileStem(keys[kx]), fileStem(keys[ky]), fileStem(metric), fileStem(s))
	caption := fmt.Sprintf("Mean of %s over seeds under %s divided by %s's at each point of %s x %s "+
		"(blue below 1, orange above; lower is better except throughput and locality); the framed cell is the report's point.%s",
		metric, s, g.baseline, keys[kx], keys[ky], g.focusTextExceptTwo(kx, ky))
	f := figure(name, title, caption, p)
	f.w = vg.Length(math.Max(5, 1.1*float64(len(xs))+1.5)) * vg.Inch
	f.h = vg.Length(math.Max(3.5, 0.6*float64(len(ys))+1.5)) * vg.Inch
	return f
}

// ratioGrid is s's mean of metric over seeds divided by the baseline's at
// each point of xs x ys (nil when no point has both).
func (g *gen) ratioGrid(s, metric string, kx, ky int, xs, ys []string) *ratioGrid {
	grid := &ratioGrid{cols: len(xs), rows: len(ys), markCol: -1, markRow: -1}
	mean := func(sched string, point []string) float64 {
		var vs []float64
		for _, c := range g.r.okCells(sched, point, -1) {
			if v, ok := c.Values[metric]; ok {
				vs = append(vs, v)
			}
		}
		m, _, _ := meanSD(vs)
		return m
	}
	drawn := false
	for r, yv := range ys {
		row := make([]float64, len(xs))
		for c, xv := range xs {
			point := append([]string(nil), g.focus...)
			point[kx], point[ky] = xv, yv
			row[c] = mean(s, point) / mean(g.baseline, point)
			if !math.IsNaN(row[c]) && !math.IsInf(row[c], 0) {
				drawn = true
			}
			if xv == g.focus[kx] && yv == g.focus[ky] {
				grid.markCol, grid.markRow = c, r
			}
		}
		grid.val = append(grid.val, row)
	}
	if !drawn {
		return nil
	}
	return grid
}

func (g *gen) focusTextExceptTwo(a, b int) string {
	var parts []string
	for k, name := range g.r.Table.Params {
		if k != a && k != b {
			parts = append(parts, name+"="+g.focus[k])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Other parameters: " + strings.Join(parts, ", ") + "."
}

// ratioGrid draws one coloured, labelled cell per grid point.
type ratioGrid struct {
	cols, rows       int
	val              [][]float64 // [row][col]; NaN: no run
	markCol, markRow int
}

// ratioColor is white at 1, deepening to blue below and orange above
// (Okabe-Ito blue and orange: colour-blind safe), saturated at 4x either way.
func ratioColor(r float64) color.Color {
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
		return color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	}
	f := math.Min(math.Abs(math.Log2(r))/2, 1)
	base := palette[0] // orange
	if r < 1 {
		base = palette[3] // blue
	}
	return lighten(base, 1-0.85*f)
}

func (g *ratioGrid) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	font := p.X.Tick.Label
	font.XAlign, font.YAlign = draw.XCenter, draw.YCenter
	for r := range g.rows {
		for col := range g.cols {
			x0, x1 := trX(float64(col)-0.5), trX(float64(col)+0.5)
			y0, y1 := trY(float64(r)-0.5), trY(float64(r)+0.5)
			v := g.val[r][col]
			c.FillPolygon(ratioColor(v), []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			label := "n/a"
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				label = fmt.Sprintf("%.2f", v)
			}
			c.FillText(font, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, label)
		}
	}
	if g.markCol >= 0 {
		x0, x1 := trX(float64(g.markCol)-0.5), trX(float64(g.markCol)+0.5)
		y0, y1 := trY(float64(g.markRow)-0.5), trY(float64(g.markRow)+0.5)
		ls := draw.LineStyle{Color: color.Black, Width: vg.Points(3)}
		c.StrokeLines(ls, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	}
}

func (g *ratioGrid) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(g.cols) - 0.5, -0.5, float64(g.rows) - 0.5
}
