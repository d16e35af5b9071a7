package experiment

import (
	"os"
	"path/filepath"
	"strings"
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

// A catalog entry whose trace is missing stops before any cell runs, with
// an error that names the file and the two ways to provide it; the data
// directory (NETSCHED_DATA, or `reproduce --data`) is where it is then
// looked for.
func TestCatalogTraceMissingOrElsewhere(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(DataEnv, empty)
	sw, err := LoadCatalog("compare/fb2009")
	if err != nil {
		t.Fatal(err)
	}
	if sw.DataDir != empty {
		t.Errorf("DataDir %q, want %q from %s", sw.DataDir, empty, DataEnv)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, err = Reproduce("compare/fb2009", ReproduceOptions{Options: Options{Out: out}})
	if err == nil {
		t.Fatal("ran without its trace")
	}
	for _, want := range []string{"FB-2009_samples_24_times_1hr_0.tsv", empty, "--data", DataEnv} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a cell ran before the missing trace was found: %v", err)
	}

	// The trace found in the data directory, from outside any checkout.
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "FB-2009_samples_24_times_1hr_0.tsv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(DataEnv, data)
	t.Chdir(t.TempDir())
	if sw, err = LoadCatalog("compare/fb2009"); err != nil {
		t.Fatal(err)
	}
	if err := checkTraces("compare/fb2009", sw); err != nil {
		t.Errorf("trace in the data directory not found: %v", err)
	}
}

// A committed report directory written before netsched listed its files
// (report.html, figures, results.csv, sweep.yaml, and a hand-written
// README.md beside them) is updated in one step: the reproduction's files
// are replaced, the README kept.
func TestReproduceUpdatesAnOlderReportDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	dir := "report"
	for name, text := range map[string]string{"report.html": "old", "results.csv": "old", "sweep.yaml": "old", "README.md": "mine", "figures/x.svg": "old"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Reproduce("delay/locality", ReproduceOptions{ReportDir: dir}); err != nil {
		t.Fatal(err)
	}
	for name, old := range map[string]bool{"results.csv": true, "sweep.yaml": true, "report.html": true, "README.md": false} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if replaced := string(data) != "old" && string(data) != "mine"; replaced != old {
			t.Errorf("%s: replaced %v, want %v", name, replaced, old)
		}
	}
}
