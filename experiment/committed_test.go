package experiment

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The cheap catalog entries, rerun, give byte for byte the results and
// sweep file committed under docs/reproductions: a change to the engine, a
// scheduler or the catalog that moves a published number fails here until
// the entry is regenerated (`netsched reproduce ENTRY --update-docs`) and
// the claims ledger with it. The other entries, too slow for every test
// run, are listed with their cost in docs/reproductions/README.md and
// rerun by `netsched reproduce --verify all`. Entries that read a shared
// trace skip without it.
func TestCommittedReproductionsUnchanged(t *testing.T) {
	t.Chdir("..") // catalog trace paths are relative to the repository root
	for _, c := range []struct {
		name  string
		trace string // "" when the entry needs no file
	}{
		{"delay/locality", ""},
		{"dawn/motivation", ""},
		{"dawn/fig9", ""},
		{"compare/heterogeneous", ""},
		{"pushbox/queues-multi", "../shared/traces/FB2010-1Hr-150-0.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.trace != "" {
				if _, err := os.Stat(c.trace); err != nil {
					t.Skipf("%s is not here (the shared traces sit beside the repository): %v", c.trace, err)
				}
			}
			tmp := t.TempDir()
			_, err := Reproduce(c.name, ReproduceOptions{
				Options:   Options{Out: filepath.Join(tmp, "out")},
				ReportDir: filepath.Join(tmp, "report"),
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"results.csv", "sweep.yaml"} {
				got, err := os.ReadFile(filepath.Join(tmp, "report", f))
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join("docs", "reproductions", filepath.FromSlash(c.name), f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the committed docs/reproductions/%s/%s; rerun `netsched reproduce %s --update-docs`, then `netsched reproduce --verify %s --committed --update-docs`, and explain the change in the commit", f, c.name, f, c.name, c.name)
				}
			}
		})
	}
}
