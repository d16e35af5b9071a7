package experiment

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/netsched/netsched/report"
)

func TestCatalogEntriesLoad(t *testing.T) {
	names := Catalog()
	if !slices.Contains(names, "delay/locality") {
		t.Fatalf("catalog %v lacks the worked example delay/locality", names)
	}
	for _, n := range names {
		sw, err := LoadCatalog(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if len(Expand(sw)) == 0 || sw.Description == "" {
			t.Errorf("%s: no cells or no description", n)
		}
	}
	if _, err := LoadCatalog("delay/nope"); err == nil {
		t.Error("a missing entry loaded")
	}
}

func TestDelayLocalityExpansion(t *testing.T) {
	sw, err := LoadCatalog("delay/locality")
	if err != nil {
		t.Fatal(err)
	}
	// fair does not take skips: 10 seeds; delay: 6 skip counts x 10 seeds.
	cells := Expand(sw)
	fair := 0
	for _, c := range cells {
		if c.Scheduler == "fair" {
			fair++
			if c.Params[0] != "" {
				t.Errorf("fair cell %s has skips %q", c.ID, c.Params[0])
			}
		}
	}
	if len(cells) != 70 || fair != 10 {
		t.Errorf("%d cells (%d fair), want 70 (10 fair)", len(cells), fair)
	}
}

// TestReproduceWritesEveryFigure runs the worked example end to end: the
// sweep, then a report with every figure, in temporary directories.
func TestReproduceWritesEveryFigure(t *testing.T) {
	docs := t.TempDir()
	r, err := Reproduce("delay/locality", ReproduceOptions{ReportDir: docs, Options: Options{Out: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Outcome.Manifest.Failed(); len(f) > 0 {
		t.Fatalf("failed cells: %+v", f)
	}
	want := []string{"jct-cdf", "jct-normalized", "jct-by-size"}
	for _, m := range r.Sweep.Metrics {
		want = append(want, "sweep-scheduler_params_skips-"+fileStemForTest(m))
	}
	want = append(want, "utilization", "gantt-fair", "gantt-delay")
	var got []string
	for _, f := range r.Report.Figures {
		got = append(got, f.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("figures %v\nwant    %v", got, want)
	}
	for _, name := range want {
		data, err := os.ReadFile(filepath.Join(docs, "figures", name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := report.SVGSize(data); err != nil {
			t.Errorf("%s.svg: %v", name, err)
		}
	}
	for _, f := range []string{"report.html", "results.csv", "sweep.yaml"} {
		if st, err := os.Stat(filepath.Join(docs, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The paper's effect: waiting for locality raises node locality.
	res := report.NewResults(docs, r.Outcome.Table)
	at := func(skips string) float64 {
		cmp, err := res.Compare([]string{"node_locality"}, "fair", map[string]string{"scheduler.params.skips": skips})
		if err != nil {
			t.Fatal(err)
		}
		return cmp[1].Mean[0] // [0] is the baseline, fair
	}
	if lo, hi := at("0"), at("20"); !(hi > lo+0.5) {
		t.Errorf("node locality with D=0: %.3f, D=20: %.3f; expected a large rise", lo, hi)
	}
}

func fileStemForTest(m string) string {
	out := []byte(m)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			out[i] = '_'
		}
	}
	return string(out)
}

func TestCatalogPathsAreRelativeToTheWorkingDirectory(t *testing.T) {
	fsys := fstest.MapFS{"p/f.yaml": {Data: []byte("base: {cluster: {racks: 1}, workload: {trace: traces/x.txt}}\n")}}
	sw, err := LoadFS(fsys, "p/f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sw.BaseDir != "." || sw.BaseName != "p/f.yaml (base)" {
		t.Errorf("base dir %q, name %q", sw.BaseDir, sw.BaseName)
	}
	sw, err = Load("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sw.BaseDir != "testdata" || sw.BaseName != "testdata/tiny.yaml" {
		t.Errorf("file: base dir %q, name %q", sw.BaseDir, sw.BaseName)
	}
}
