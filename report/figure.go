package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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

// Render draws the figure as "png" or "svg". The legend, if any, goes in a
// column right of the plotting area, where it covers no data.
func (f *Figure) Render(format string) ([]byte, error) {
	var wt io.WriterTo
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(f.width(), f.h), vgimg.UseDPI(pngDPI))
		f.draw(draw.New(c))
		wt = vgimg.PngCanvas{Canvas: c}
	case "svg":
		c := vgsvg.New(f.width(), f.h)
		f.draw(draw.New(c))
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

// legendGap separates the plotting area from the legend column.
const legendGap = vg.Length(8)

// legendWidth is the width of the legend column (0 without a legend).
func (f *Figure) legendWidth() vg.Length {
	r := f.plot.Legend.Rectangle(draw.New(vgimg.New(f.w, f.h)))
	if w := r.Max.X - r.Min.X; w > 0 {
		return w + legendGap
	}
	return 0
}

// width is the figure's total width: the plot's plus the legend column.
func (f *Figure) width() vg.Length { return f.w + f.legendWidth() }

// draw draws the plot into the left f.w of c and the legend right of it.
func (f *Figure) draw(c draw.Canvas) {
	lw := f.legendWidth()
	if lw == 0 {
		f.plot.Draw(c)
		return
	}
	legend := f.plot.Legend
	f.plot.Legend = plot.NewLegend() // drawn apart below
	f.plot.Draw(draw.Crop(c, 0, -lw, 0, 0))
	f.plot.Legend = legend
	legend.Top, legend.Left = true, true
	legend.YOffs = -f.plot.Title.TextStyle.Height(f.plot.Title.Text) - f.plot.Title.Padding
	legend.Draw(draw.Crop(c, f.w+legendGap, 0, 0, 0))
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// The plotting area is wide enough to read on a laptop screen at 96 dpi.
func figure(name, title, caption string, p *plot.Plot) *Figure {
	return &Figure{Name: name, Title: title, Caption: caption, plot: p, w: 8 * vg.Inch, h: 4.5 * vg.Inch}
}

// palette is colour-blind safe and gives 12 distinct colours: the
// Okabe-Ito eight (with black last, a grey-blue in place of yellow on
// white) and four darker tones from Paul Tol's muted scheme.
var palette = []color.Color{
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.RGBA{0x88, 0x22, 0x55, 0xff}, // wine
	color.RGBA{0x11, 0x77, 0x33, 0xff}, // green
	color.RGBA{0x33, 0x22, 0x88, 0xff}, // indigo
	color.RGBA{0x99, 0x99, 0x33, 0xff}, // olive
	color.RGBA{0x44, 0xaa, 0x99, 0xff}, // teal
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// seriesColor gives scheduler i its color in every figure; past 12 the
// colours repeat and seriesDashes tells the series apart.
func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// seriesDashes is series i's line pattern: solid for the first 12, then
// dashed, then dotted.
func seriesDashes(i int) []vg.Length {
	switch (i / len(palette)) % 3 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

func lineStyle(i int, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.5), Dashes: seriesDashes(i)}
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
	case strings.HasPrefix(metric, "jct") || metric == "makespan" || strings.HasPrefix(metric, "cct") ||
		strings.HasPrefix(metric, "workflows.wct") || strings.HasPrefix(metric, "reducer_wait"):
		return MetricLabel(metric) + " (s)"
	case strings.HasPrefix(metric, "bytes."):
		return MetricLabel(metric) + " (bytes)"
	case metric == "throughput":
		return "throughput (jobs/s)"
	}
	return MetricLabel(metric)
}

// SVGSize reads the width and height, in points, of an SVG figure this
// package wrote (for tests and tools that check figures).
func SVGSize(data []byte) (w, h float64, err error) {
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Height  string `xml:"height,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil {
		return 0, 0, fmt.Errorf("not an SVG document: %w", err)
	}
	if root.XMLName.Local != "svg" {
		return 0, 0, fmt.Errorf("root element %q, not svg", root.XMLName.Local)
	}
	for _, d := range []struct {
		s   string
		dst *float64
	}{{root.Width, &w}, {root.Height, &h}} {
		v, err := strconv.ParseFloat(strings.TrimSuffix(d.s, "pt"), 64)
		if err != nil {
			return 0, 0, fmt.Errorf("size %q: expected points like 576pt", d.s)
		}
		*d.dst = v
	}
	return w, h, nil
}
