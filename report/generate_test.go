package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func figureNames(figs []*Figure) []string {
	var out []string
	for _, f := range figs {
		out = append(out, f.Name)
	}
	return out
}

func TestGenerateHTMLDrawsEveryFigure(t *testing.T) {
	dir := fixture(t)
	r, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(r, Options{Title: "fixture"})
	if err != nil {
		t.Fatal(err)
	}
	if got := figureNames(out.Figures); !slices.Equal(got, fixtureFigures) {
		t.Fatalf("figures %v, want %v", got, fixtureFigures)
	}
	if len(out.Skipped) > 0 {
		t.Errorf("skipped: %v", out.Skipped)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range fixtureFigures {
		data, err := os.ReadFile(filepath.Join(dir, "figures", name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		w, h, err := SVGSize(data)
		if err != nil {
			t.Fatalf("%s.svg: %v", name, err)
		}
		if w < 500 || h < 250 { // points: wide enough for a laptop screen
			t.Errorf("%s.svg is %gx%g pt", name, w, h)
		}
		if !bytes.Contains(html, []byte(`data-figure="`+name+`"`)) {
			t.Errorf("report.html lacks figure %s", name)
		}
	}
	if n := bytes.Count(html, []byte(`src="data:image/svg`)); n != len(fixtureFigures) { // html/template writes + as &#43;
		t.Errorf("report.html embeds %d SVGs, want %d", n, len(fixtureFigures))
	}
	if bytes.Contains(html, []byte("http://")) || bytes.Contains(html, []byte("https://")) {
		t.Error("report.html refers to the network")
	}
	// The comparison table: fair 21.5 s mean JCT (baseline), delay 17.5 s;
	// per seed 17/21 and 18/22, geometric mean 0.814, 95% interval
	// exp(mean ± 12.706 sd/sqrt 2) of the log-ratios = [0.761, 0.871].
	for _, want := range []string{"<td>21.5s (1.000)</td>", "<td>17.5s (0.814 [0.761, 0.871])</td>", "scheduler.params.skips=0"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

func TestGenerateSVGAndPNGOnly(t *testing.T) {
	dir := fixture(t)
	r, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"svg", "png"} {
		out := t.TempDir()
		res, err := Generate(r, Options{Out: out, Format: format, Baseline: "delay", At: map[string]string{"scheduler.params.skips": "5"}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, n := range fixtureFigures {
			want = append(want, "figures/"+n+"."+format)
		}
		slices.Sort(want)
		if !slices.Equal(res.Files, want) {
			t.Errorf("%s: files %v, want %v", format, res.Files, want)
		}
		data, err := os.ReadFile(filepath.Join(out, "figures", "jct-cdf."+format))
		if err != nil {
			t.Fatal(err)
		}
		if format == "svg" && !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("jct-cdf.svg is not SVG: %.60q", data)
		}
		if _, err := os.Stat(filepath.Join(out, "report.html")); !os.IsNotExist(err) {
			t.Errorf("%s: report.html written (%v)", format, err)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	r, err := LoadResults(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Format: "pdf"}, `report format "pdf": expected one of html, png, svg`},
		{Options{Baseline: "fifo"}, `baseline "fifo" is not a scheduler of these results (fair, delay)`},
		{Options{At: map[string]string{"scheduler.params.skips": "1"}}, "report at scheduler.params.skips=1: not a value of the sweep (values: [0 5])"},
	} {
		tc.opts.Out = t.TempDir()
		if _, err := Generate(r, tc.opts); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
	if _, err := LoadResults(t.TempDir()); err == nil || !strings.Contains(err.Error(), "the output directory of a sweep, a merge or a comparison?") {
		t.Errorf("missing results.csv: %v", err)
	}
}

func TestSkippedFiguresAreExplained(t *testing.T) {
	dir := fixture(t)
	for _, id := range []string{"c00", "c01", "c02", "c03", "c04", "c05"} {
		os.Remove(filepath.Join(dir, "cells", id, "timeline.csv"))
		os.Remove(filepath.Join(dir, "cells", id, "tasks.csv"))
	}
	r, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(r, Options{Format: "png"})
	if err != nil {
		t.Fatal(err)
	}
	if got := figureNames(out.Figures); slices.Contains(got, "utilization") || slices.Contains(got, "gantt-fair") {
		t.Errorf("figures %v drawn without their files", got)
	}
	want := []string{
		"network utilization timeline: no cell has timeline samples (set record.timeline: true in the sweep)",
		"Gantt chart of fair: no tasks.csv (kept for runs of at most 5000 tasks, or with record.tasks: always)",
		"Gantt chart of delay: no tasks.csv (kept for runs of at most 5000 tasks, or with record.tasks: always)",
	}
	if !slices.Equal(out.Skipped, want) {
		t.Errorf("skipped %q\nwant %q", out.Skipped, want)
	}
}

func TestAssignSlots(t *testing.T) {
	tasks := []task{
		{job: "A", machine: 0, start: 0, finish: 3},
		{job: "B", machine: 0, start: 1, finish: 4},
		{job: "C", machine: 0, start: 3, finish: 5}, // A's slot is free again at 3
		{job: "D", machine: 2, start: 2, finish: 6},
	}
	rows, first := assignSlots(tasks)
	if !slices.Equal(rows, []int{0, 1, 0, 2}) {
		t.Errorf("rows %v, want [0 1 0 2]", rows)
	}
	if first[0] != 0 || first[2] != 2 || len(first) != 2 {
		t.Errorf("machine rows %v, want map[0:0 2:2]", first)
	}
}

// The normalized bars carry their paired interval as error bars: one per
// finite interval, spanning [low, high] around the bar's height.
func TestBarErrorsSpanTheInterval(t *testing.T) {
	eb := barErrors([][2]float64{{0.8, 1.1}, {math.NaN(), math.NaN()}, {1.5, 2.5}}, plotter.Values{1, 1, 2})
	if eb == nil || len(eb.XYs) != 2 {
		t.Fatalf("error bars %+v, want two (the NaN interval has none)", eb)
	}
	for i, want := range [][3]float64{{0, 0.8, 1.1}, {2, 1.5, 2.5}} {
		x, y, e := eb.XYs[i].X, eb.XYs[i].Y, eb.YErrors[i]
		if x != want[0] || math.Abs(y-e.Low-want[1]) > 1e-12 || math.Abs(y+e.High-want[2]) > 1e-12 {
			t.Errorf("bar %d: x %g, [%g, %g], want x %g, [%g, %g]", i, x, y-e.Low, y+e.High, want[0], want[1], want[2])
		}
	}
	if barErrors([][2]float64{{math.NaN(), 1}}, plotter.Values{1}) != nil {
		t.Error("no finite interval should draw nothing")
	}
}
