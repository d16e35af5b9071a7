package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := "cell_id,scheduler,seed,metric,value,error\n" +
		"a,fair,1,jct.mean,10,\n" + "b,fair,2,jct.mean,20,\n" +
		"c,x,1,jct.mean,5,\n" + "d,x,2,jct.mean,12,\n" +
		"e,y,1,jct.mean,,y cannot run: no rack links\n"
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := readWorkload(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := write(&b, []workload{w}, "fair", []string{"jct.mean", "makespan"}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	// x: ratios 0.5 and 0.6: geometric mean sqrt(0.3) = 0.548; the log-ratios'
	// sd is ln(1.2)/sqrt 2, t(1) = 12.706: exp(±1.158) gives [0.17, 1.74],
	// which contains 1: a tie.
	for _, want := range []string{"| *fair, absolute* | 15s |", "| x | tie 0.55 [0.17, 1.74] |", "| y | n/a |", "- y on wl: y cannot run: no rack links"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "makespan") {
		t.Errorf("a table for a metric without values:\n%s", got)
	}
	if err := write(&b, []workload{w}, "nope", []string{"jct.mean"}); err == nil {
		t.Error("an absent baseline accepted")
	}
}

// docs/comparison.md's tables are comparetab's output on the committed
// results: nothing in them is typed by hand, and a regenerated workload
// that was not carried into the page fails here.
func TestComparisonPageFollowsResults(t *testing.T) {
	root := filepath.Join("..", "..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "comparison.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range comparisonBlocks {
		var ws []workload
		for _, name := range b.workloads {
			w, err := readWorkload(filepath.Join(root, "docs", "reproductions", "compare", name))
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
		var out strings.Builder
		if err := write(&out, ws, "fair", b.metrics); err != nil {
			t.Fatal(err)
		}
		want, err := replaceBlock("docs/comparison.md", string(page), b.name, out.String())
		if err != nil {
			t.Fatal(err)
		}
		if want != string(page) {
			t.Errorf("docs/comparison.md's block %q is not comparetab's output on the committed results; rerun\n  go run ./cmd/comparetab -page docs/comparison.md -block %s -metrics %s %s",
				b.name, b.name, strings.Join(b.metrics, ","), strings.Join(b.dirs(), " "))
		}
	}
}
