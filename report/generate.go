package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/netsched/netsched/internal/outdir"
	"gonum.org/v1/plot/vg"
)

// Options control a report.
type Options struct {
	Out         string            // directory for report.html and figures/ (default: the results directory)
	Format      string            // html (default: the page, with SVG figures also saved), png or svg (figure files only)
	Baseline    string            // scheduler label bars are normalized to (default: the first)
	At          map[string]string // grid point of the single-point figures (default: each parameter's first value)
	Title       string            // default: "netsched report: <dir>"
	Description string
	// Extra files are written with the report, in the same step (a
	// reproduction's results.csv and sweep file): a directory that an
	// older netsched wrote then takes them all as its own at once.
	Extra []outdir.File
}

// Output lists what Generate wrote.
type Output struct {
	Dir     string
	Files   []string // relative to Dir
	Figures []*Figure
	Skipped []string // figures not drawn, and why
}

// Formats are the accepted Options.Format values.
var Formats = []string{"html", "png", "svg"}

// Generate draws every figure the results allow and writes them (and, for
// html, report.html with the figures embedded, which needs no network).
func Generate(r *Results, opts Options) (*Output, error) {
	if opts.Format == "" {
		opts.Format = "html"
	}
	if !slices.Contains(Formats, opts.Format) {
		return nil, fmt.Errorf("report format %q: expected one of %s", opts.Format, strings.Join(Formats, ", "))
	}
	if opts.Out == "" {
		opts.Out = r.Dir
	}
	if len(r.Schedulers) == 0 {
		return nil, fmt.Errorf("%s: the results table has no rows", r.Dir)
	}
	g := &gen{r: r, baseline: opts.Baseline}
	if g.baseline == "" {
		// The first scheduler with a successful run: a failed one cannot be a reference.
		g.baseline = r.Schedulers[0]
		for _, s := range r.Schedulers {
			if slices.ContainsFunc(r.Cells, func(c Cell) bool { return c.Scheduler == s && c.Error == "" }) {
				g.baseline = s
				break
			}
		}
	} else if !slices.Contains(r.Schedulers, g.baseline) {
		return nil, fmt.Errorf("baseline %q is not a scheduler of these results (%s)", g.baseline, strings.Join(r.Schedulers, ", "))
	}
	var err error
	if g.focus, err = r.focus(opts.At); err != nil {
		return nil, err
	}
	figs := g.figures()
	imgFormat := opts.Format
	if imgFormat == "html" {
		imgFormat = "svg" // crisp at any zoom, and smaller than a sharp PNG
	}
	var files []outdir.File
	var pageFigs []pageFigure
	for _, f := range figs {
		data, err := f.Render(imgFormat)
		if err != nil {
			return nil, err
		}
		files = append(files, outdir.File{Name: filepath.Join("figures", f.Name+"."+imgFormat), Data: data})
		pageFigs = append(pageFigs, pageFigure{Name: f.Name, Title: f.Title, Caption: f.Caption, Src: dataURI(imgFormat, data), Width: int(f.width() / vg.Inch * 96)})
	}
	if opts.Format == "html" {
		html, err := renderPage(g.page(opts, pageFigs))
		if err != nil {
			return nil, err
		}
		files = append(files, outdir.File{Name: "report.html", Data: html})
	}
	files = append(files, opts.Extra...)
	if err := outdir.Write(opts.Out, files); err != nil {
		return nil, err
	}
	return &Output{Dir: opts.Out, Files: outdir.Names(files), Figures: figs, Skipped: g.skipped}, nil
}

// figures lists every figure in page order, leaving out those that cannot
// be drawn (g.skipped says why).
func (g *gen) figures() []*Figure {
	var out []*Figure
	for _, f := range []*Figure{g.cdf(), g.normalizedJCT(), g.bySize()} {
		if f != nil {
			out = append(out, f)
		}
	}
	out = append(out, g.sweepLines()...)
	out = append(out, g.sweepMaps()...)
	if f := g.utilization(); f != nil {
		out = append(out, f)
	}
	return append(out, g.gantts()...)
}

func (g *gen) page(opts Options, figs []pageFigure) *page {
	r := g.r
	title := opts.Title
	if title == "" {
		title = "netsched report: " + filepath.Base(r.Dir)
	}
	failed := 0
	var failedRows [][]string
	for _, c := range r.Cells {
		if c.Error != "" {
			failed++
			var ps []string
			for k, name := range r.Table.Params {
				ps = append(ps, name+"="+c.Params[k])
			}
			failedRows = append(failedRows, []string{c.ID, c.Scheduler, strings.Join(ps, ", "), fmt.Sprint(c.Seed), c.Error})
		}
	}
	p := &page{
		Title: title, Description: opts.Description, Baseline: g.baseline, Figures: figs, Failed: failedRows,
		Meta: fmt.Sprintf("%d runs (%d failed); schedulers: %s; metrics: %d", len(r.Cells), failed, strings.Join(r.Schedulers, ", "), len(r.Metrics)),
	}
	if len(r.Table.Params) > 0 {
		p.Meta += "; swept: " + strings.Join(r.Table.Params, ", ")
		p.Focus = g.focusPairs(-1)
	}
	cmp, err := r.Compare(r.Metrics, g.baseline, opts.At)
	if err != nil {
		g.skip("comparison table: %v", err)
	}
	p.CompareHead, p.Compare = compareRows(cmp, r.Metrics)
	p.PointsHead, p.Points, p.PointsCut = pointRows(r)
	p.Skipped = g.skipped
	return p
}
