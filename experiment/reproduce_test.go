package experiment

import (
	"os"
	"path/filepath"
	"testing"
)

// reproduce writes under out/ of the working directory unless asked to
// update the docs: a new user's first run replaces no tracked file.
func TestReproduceWritesUnderOut(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir(tmp)
	r, err := Reproduce("delay/locality", ReproduceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("out", "reproduce", "delay", "locality", "report")
	if r.Report.Dir != want {
		t.Errorf("report written to %s, want %s", r.Report.Dir, want)
	}
	for _, f := range []string{"results.csv", "sweep.yaml", "report.html"} {
		if _, err := os.Stat(filepath.Join(tmp, want, f)); err != nil {
			t.Error(err)
		}
	}
}

// Catalog trace paths are relative to the repository root from any working
// directory inside the checkout.
func TestCatalogTracesFromAnyDirectory(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "docs", "reproductions"))
	sw, err := LoadCatalog("compare/fb2009")
	if err != nil {
		t.Fatal(err)
	}
	if sw.BaseDir != root {
		t.Errorf("BaseDir = %q, want the repository root %q", sw.BaseDir, root)
	}
	t.Chdir(t.TempDir()) // outside a checkout: relative to the working directory
	if sw, err = LoadCatalog("compare/fb2009"); err != nil || sw.BaseDir != "." {
		t.Errorf("outside a checkout: BaseDir %q, err %v; want \".\"", sw.BaseDir, err)
	}
}
