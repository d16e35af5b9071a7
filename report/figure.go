package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is one plot of the report.
type Figure struct {
	Name    string // file stem, unique in the report
	Title   string
	Caption string // what is drawn and how it was computed
	plot    *plot.Plot
	w, h    vg.Length
}

// pngDPI keeps text sharp on high-density screens at a modest file size.
const pngDPI = 144

// Render draws the figure as "png" or "svg".
func (f *Figure) Render(format string) ([]byte, error) {
	var wt io.WriterTo
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(f.w, f.h), vgimg.UseDPI(pngDPI))
		f.plot.Draw(draw.New(c))
		wt = vgimg.PngCanvas{Canvas: c}
	case "svg":
		c := vgsvg.New(f.w, f.h)
		f.plot.Draw(draw.New(c))
		wt = c
	default:
		return nil, fmt.Errorf("figure %s: unknown image format %q (png or svg)", f.Name, format)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

func figure(name, title, caption string, p *plot.Plot) *Figure {
	if p.Legend.Top && p.Y.Max > p.Y.Min {
		p.Y.Max += 0.3 * (p.Y.Max - p.Y.Min) // room for the legend above the data
	}
	return &Figure{Name: name, Title: title, Caption: caption, plot: p, w: 7 * vg.Inch, h: 4 * vg.Inch}
}

// seriesColor gives scheduler i its color in every figure.
func seriesColor(i int) color.Color { return plotutil.DarkColors[i%len(plotutil.DarkColors)] }

func lineStyle(i int, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.5)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	return ls
}

// lighten mixes c with white (f = 0 keeps c, 1 gives white).
func lighten(c color.Color, f float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*(1-f) + 255*f) }
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// fileStem makes a file-name-safe stem of free text.
func fileStem(s string) string { return unsafeName.ReplaceAllString(s, "_") }

// axisLabel names a metric's axis with its unit.
func axisLabel(metric string) string {
	switch {
	case strings.HasPrefix(metric, "jct") || metric == "makespan":
		return MetricLabel(metric) + " (s)"
	case strings.HasPrefix(metric, "bytes."):
		return MetricLabel(metric) + " (bytes)"
	case metric == "throughput":
		return "throughput (jobs/s)"
	}
	return MetricLabel(metric)
}
