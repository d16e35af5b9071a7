package report

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A 3 x 2 grid, two schedulers, two seeds: the heat map holds the ratio of
// the means over seeds at every point, framed at the report's point, and
// renders as SVG.
func TestSweepMapRatios(t *testing.T) {
	tbl := &Table{Params: []string{"a", "b"}}
	value := func(s, a, b string, seed uint64) float64 {
		v := 10 * float64(len(a)+len(b)) // any function of the point
		if s == "nas" {
			v *= 1 + float64(len(a))/10
		}
		return v + float64(seed)
	}
	id := 0
	for _, a := range []string{"x", "xx", "xxx"} {
		for _, b := range []string{"1", "22"} {
			for _, s := range []string{"fair", "nas"} {
				for _, seed := range []uint64{1, 2} {
					tbl.Rows = append(tbl.Rows, Row{CellID: fmt.Sprint(id), Params: []string{a, b}, Scheduler: s, Seed: seed, Metric: "jct.mean", Value: value(s, a, b, seed)})
					id++
				}
			}
		}
	}
	r := NewResults(t.TempDir(), tbl)
	g := &gen{r: r, baseline: "fair"}
	var err error
	if g.focus, err = r.focus(map[string]string{"a": "xx", "b": "22"}); err != nil {
		t.Fatal(err)
	}
	figs := g.sweepMaps()
	if len(figs) != 1 || figs[0].Name != "map-a-b-jct_mean-nas" {
		t.Fatalf("figures %v, want one heat map of nas over fair", figs)
	}
	grid := g.ratioGrid("nas", "jct.mean", 0, 1, []string{"x", "xx", "xxx"}, []string{"1", "22"})
	for r, b := range []string{"1", "22"} {
		for c, a := range []string{"x", "xx", "xxx"} {
			want := (value("nas", a, b, 1) + value("nas", a, b, 2)) / (value("fair", a, b, 1) + value("fair", a, b, 2))
			if got := grid.val[r][c]; math.Abs(got-want) > 1e-12 {
				t.Errorf("a=%s b=%s: ratio %v, want %v", a, b, got, want)
			}
		}
	}
	if grid.markCol != 1 || grid.markRow != 1 {
		t.Errorf("framed cell (%d, %d), want the report's point (1, 1)", grid.markCol, grid.markRow)
	}
	svg, err := figs[0].Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), ">1.09<") { // nas/fair at a=x, b=1: 47/43
		t.Errorf("the SVG does not show the ratios")
	}
}
