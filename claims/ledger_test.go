package claims_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/claims"
	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/report"
)

// The committed ledger and the pages' claims tables are what the claims
// give on the committed results: no verdict, value or interval in them is
// typed by hand, and a changed claim or result that was not carried into
// the ledger and the pages fails here. (That the committed results are
// what the code gives is TestCommittedReproductionsUnchanged's job.)
func TestLedgerFollowsCommittedResults(t *testing.T) {
	root := filepath.Join("..")
	files, err := claims.Load(experiment.CatalogFS)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*report.Table{}
	for _, e := range claims.Entries(files) {
		path := filepath.Join(root, "docs", "reproductions", filepath.FromSlash(e), "results.csv")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("claims read %s, which has no committed results: %v", e, err)
		}
		if tables[e], err = report.ReadCSV(path, data); err != nil {
			t.Fatal(err)
		}
	}
	// A claim reads a metric its entry records (a claim whose committed
	// results predate the metric judges "no data" until the entry is rerun).
	for _, f := range files {
		for _, c := range f.Claims {
			sw, err := experiment.LoadCatalog(f.Paper + "/" + c.Entry)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range claims.MetricParts(c.Metric) {
				if !slices.Contains(sw.Metrics, m) {
					t.Errorf("%s claim %s reads %s, which entry %s/%s does not record (metrics: %v)", f.Paper, c.ID, m, f.Paper, c.Entry, sw.Metrics)
				}
			}
		}
	}
	results, err := claims.EvaluateAll(files, tables)
	if err != nil {
		t.Fatal(err)
	}
	ledgerPath := filepath.Join(root, "docs", "reproductions", "claims.csv")
	committed, err := os.ReadFile(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	// The commit column says where the results came from; take it as committed.
	commitCol := slices.Index(claims.LedgerColumns, "commit")
	recs, err := csv.NewReader(strings.NewReader(string(committed))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	commits := map[string]string{}
	for _, r := range recs[1:] {
		commits[r[0]+"/"+r[1]] = r[commitCol]
	}
	for i := range results {
		results[i].Commit = commits[results[i].Paper+"/"+results[i].Claim.ID]
	}
	if got := claims.LedgerCSV(results); string(got) != string(committed) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(committed), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("docs/reproductions/claims.csv line %d is\n  %s\nthe claims on the committed results give\n  %s", i+1, w, g)
				break
			}
		}
		t.Error("rerun `netsched reproduce --verify all --committed --update-docs` (or --verify ENTRY --update-docs after a model change)")
	}
	for _, f := range files {
		rs, err := claims.FromLedger(f, committed)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(root, "docs", "reproductions", f.Page)
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := claims.UpdatePage(path, string(page), claims.PageTable(rs))
		if err != nil {
			t.Fatal(err)
		}
		if want != string(page) {
			t.Errorf("%s's claims table is not the one claims.csv gives; rerun `netsched reproduce --verify %s --committed --update-docs`", path, f.Paper)
		}
	}
}
