package claims

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/report"
)

func est(geo, lo, hi float64) Estimate { return Estimate{N: 10, Value: geo, Low: lo, High: hi} }

// The verdict rules on hand-made cases.
func TestJudge(t *testing.T) {
	ratio := func(paper string) *Claim { return &Claim{Kind: KindRatio, Paper: paper} }
	value := func(paper, bound string) *Claim { return &Claim{Kind: KindValue, Paper: paper, Bound: bound} }
	for _, c := range []struct {
		name  string
		claim *Claim
		est   Estimate
		want  string
	}{
		// paper -27% (0.73): effect band on the log scale 0.315 ± 50% = ratios 0.624..0.855
		{"within the band", ratio("0.73"), est(0.75, 0.72, 0.78), Reproduced},
		{"interval reaches the band", ratio("0.73"), est(0.9, 0.85, 0.95), Reproduced},
		{"same side, short of the band", ratio("0.73"), est(0.93, 0.9, 0.96), DirectionOnly},
		{"same side, beyond the band", ratio("0.73"), est(0.3, 0.28, 0.33), DirectionOnly},
		{"opposite side", ratio("0.73"), est(1.18, 1.16, 1.19), NotReproduced},
		{"interval contains 1", ratio("0.73"), est(0.8, 0.6, 1.05), Tie},
		{"interval touches 1", ratio("0.73"), est(0.9, 0.8, 1), Tie},
		{"gain claim reproduced", ratio("1.73"), est(1.6, 1.5, 1.7), Reproduced},
		{"gain much larger than the paper's", ratio("1.73"), est(2.73, 2.6, 2.9), DirectionOnly},
		{"direction word, same side", ratio("lower"), est(0.5, 0.4, 0.6), Reproduced},
		{"direction word, opposite", ratio("higher"), est(0.5, 0.4, 0.6), NotReproduced},
		{"direction word, tie", ratio("higher"), est(1.1, 0.9, 1.3), Tie},
		{"paper says no difference, tie", ratio("same"), est(1.01, 0.95, 1.07), Reproduced},
		{"paper says no difference, a difference", ratio("same"), est(1.3, 1.2, 1.4), NotReproduced},
		{"paper ratio 1 is no difference", ratio("1"), est(1.01, 0.95, 1.07), Reproduced},
		{"one seed", ratio("0.73"), Estimate{N: 1, Value: 0.73, Low: 0.73, High: 0.73}, OneSeed},
		{"no data", ratio("0.73"), Estimate{Value: math.NaN(), Low: math.NaN(), High: math.NaN()}, NoData},
		// values: ±10%
		{"value within 10%", value("100", ""), est(108, 105, 111), Reproduced},
		{"value off", value("100", ""), est(150, 140, 160), NotReproduced},
		{"bound at-least met", value("0.96", "at-least"), est(0.99, 0.98, 1), Reproduced},
		{"bound at-least missed", value("0.96", "at-least"), est(0.2, 0.17, 0.21), NotReproduced},
		{"bound at-most met", value("10", "at-most"), est(3, 2, 4), Reproduced},
		{"bound at-most missed", value("10", "at-most"), est(30, 20, 40), NotReproduced},
	} {
		got, err := Judge(c.claim, c.est)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: paper %s, netsched %v: got %q, want %q", c.name, c.claim.Paper, c.est, got, c.want)
		}
	}
}

func table(rows ...report.Row) *report.Table {
	return &report.Table{Params: []string{"x"}, Rows: rows}
}

func row(x, sched string, seed uint64, metric string, v float64) report.Row {
	return report.Row{CellID: x + sched, Params: []string{x}, Scheduler: sched, Seed: seed, Metric: metric, Value: v}
}

// Evaluate pairs by seed, reads the cells a claim names and refuses a claim
// that leaves a varying grid parameter open.
func TestEvaluate(t *testing.T) {
	var rows []report.Row
	for s := uint64(1); s <= 4; s++ {
		f := float64(s)
		rows = append(rows,
			row("1", "a", s, "m", 10*f), row("1", "b", s, "m", 20*f),
			row("2", "a", s, "m", 40*f), row("2", "b", s, "m", 20*f))
	}
	rows = append(rows, row("1", "b", 9, "m", 1)) // no partner: left out
	tb := table(rows...)
	c := &Claim{ID: "r", Entry: "e", Kind: KindRatio, Metric: "m", At: map[string]string{"x": "1"},
		Cell: Select{Scheduler: "a"}, Against: &Select{Scheduler: "b"}, Paper: "0.5"}
	r, err := Evaluate("p", c, tb)
	if err != nil {
		t.Fatal(err)
	}
	if r.Est.N != 4 || math.Abs(r.Est.Value-0.5) > 1e-12 || r.Verdict != Reproduced || SeedList(r.Est.Seeds) != "1-4" {
		t.Errorf("ratio: %+v %s", r.Est, r.Verdict)
	}
	tr := &Claim{ID: "t", Entry: "e", Kind: KindTrend, Metric: "m", Cell: Select{Scheduler: "a"},
		Along: &Axis{Param: "x", From: "1", To: "2"}, Paper: "higher"}
	if r, err := Evaluate("p", tr, tb); err != nil || math.Abs(r.Est.Value-4) > 1e-12 || r.Verdict != Reproduced {
		t.Errorf("trend: %+v %s %v", r.Est, r.Verdict, err)
	}
	open := *c
	open.At = nil
	if _, err := Evaluate("p", &open, tb); err == nil || !strings.Contains(err.Error(), "depends on the grid parameter x") {
		t.Errorf("open grid parameter: got %v", err)
	}
	// Results made before the entry recorded a metric: no data, not an error.
	missing := *c
	missing.Metric = "nope"
	if r, err := Evaluate("p", &missing, tb); err != nil || r.Verdict != NoData {
		t.Errorf("unrecorded metric: got %q, %v; want %q", r.Verdict, err, NoData)
	}
	// A metric recorded for other schedulers only is an error naming it.
	only := table(append(slices.Clone(rows), row("1", "b", 1, "m2", 3))...)
	m2 := *c
	m2.Metric = "m2"
	if _, err := Evaluate("p", &m2, only); err == nil || !strings.Contains(err.Error(), `no metric "m2" for a`) {
		t.Errorf("metric of another scheduler: got %v", err)
	}
	// A quotient "A / B" divides two metrics of one cell seed by seed: here
	// a's m at x=1 over a's m at x=1 plus a constant share.
	var qrows []report.Row
	for s := uint64(1); s <= 4; s++ {
		qrows = append(qrows, row("1", "a", s, "part", float64(s)), row("1", "a", s, "whole", 4*float64(s)))
	}
	share := &Claim{ID: "q", Entry: "e", Kind: KindValue, Metric: "part / whole", At: map[string]string{"x": "1"},
		Cell: Select{Scheduler: "a"}, Paper: "0.96", Bound: "at-least"}
	if r, err := Evaluate("p", share, table(qrows...)); err != nil || math.Abs(r.Est.Value-0.25) > 1e-12 || r.Verdict != NotReproduced {
		t.Errorf("quotient: %+v %s %v; want 0.25, %s", r.Est, r.Verdict, err, NotReproduced)
	}
}

func TestParseRejects(t *testing.T) {
	head := "paper: p\ntitle: T\npage: p.md\nclaims:\n"
	for _, c := range []struct{ yaml, want string }{
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: ratio, cell: {scheduler: x}, paper: '0.5'}\n", "against"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: ratio, cell: {scheduler: x}, against: {scheduler: y}, paper: 'big'}\n", "expected a number"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: value, cell: {scheduler: x}, paper: lower}\n", "needs a number"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: trend, cell: {scheduler: x}, paper: lower}\n", "along"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: value, cell: {scheduler: x}, paper: '1', tolerance: 0.3}\n", "tolerance_why"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: value, cell: {scheduler: x}, paper: '1', colour: red}\n", "colour"},
		{"  - {id: a, figure: F, entry: e, says: s, metric: m, kind: value, cell: {scheduler: x}, paper: '1'}\n  - {id: a, figure: F, entry: e, says: s, metric: m, kind: value, cell: {scheduler: x}, paper: '2'}\n", "twice"},
	} {
		_, err := Parse("c.yaml", []byte(head+c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error about %q", c.yaml, err, c.want)
		}
	}
}
