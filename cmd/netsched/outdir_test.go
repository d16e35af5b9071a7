package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/outdir"
)

const quickstart = "../../examples/quickstart.yaml"

// userFiles writes the user's own files into dir and returns a check that
// they are still there, unchanged.
func userFiles(t *testing.T, dir string) func() {
	t.Helper()
	files := map[string]string{"scen.yaml": "scheduler: fifo\n", "notes.txt": "my notes\n"}
	os.MkdirAll(dir, 0o755)
	for n, text := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		t.Helper()
		for n, text := range files {
			if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != text {
				t.Errorf("the user's %s: %q, %v; want it kept", n, b, err)
			}
		}
	}
}

// A run into a directory holding an earlier run and the user's files
// replaces the run and keeps the user's files.
func TestRunKeepsTheUsersFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := execute(t, "run", quickstart, "--out", dir); err != nil {
		t.Fatal(err)
	}
	kept := userFiles(t, dir)
	if _, err := execute(t, "run", quickstart, "--out", dir); err != nil {
		t.Fatal(err)
	}
	kept()
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
}

// A directory netsched did not write is refused without --force, naming
// the files; --force writes beside them and still keeps them.
func TestRunIntoAForeignDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	kept := userFiles(t, dir)
	_, err := execute(t, "run", quickstart, "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "notes.txt, scen.yaml") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("got %v, want a refusal naming notes.txt, scen.yaml and --force", err)
	}
	if _, err := execute(t, "run", quickstart, "--out", dir, "--force"); err != nil {
		t.Fatal(err)
	}
	kept()
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
	// The directory is netsched's output now: a second run needs no --force.
	if _, err := execute(t, "run", quickstart, "--out", dir); err != nil {
		t.Fatal(err)
	}
	kept()
}

// A symlinked --out is written through; the link stays a link.
func TestRunThroughASymlink(t *testing.T) {
	root := t.TempDir()
	target, link := filepath.Join(root, "target"), filepath.Join(root, "link")
	os.MkdirAll(target, 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	for range 2 {
		if _, err := execute(t, "run", quickstart, "--out", link); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(target, "summary.json")); err != nil {
		t.Error(err)
	}
}

// Temporaries left by killed writers are removed by the next run.
func TestRunCleansDeadTemporaries(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if _, err := execute(t, "run", quickstart, "--out", dir); err != nil {
		t.Fatal(err)
	}
	stale := []string{filepath.Join(root, ".out.new-123"), filepath.Join(dir, ".jobs.csv.tmp-456")}
	os.MkdirAll(stale[0], 0o755)
	os.WriteFile(filepath.Join(stale[0], "summary.json"), nil, 0o644)
	os.WriteFile(stale[1], nil, 0o644)
	if _, err := execute(t, "run", quickstart, "--out", dir); err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		if _, err := os.Stat(s); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", s, err)
		}
	}
}

// sweep, compare and coflow refuse a directory netsched did not write.
func TestSweepCompareCoflowRefuseForeignDirectories(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "../../experiment/testdata/small.yaml"},
		{"compare", quickstart, "--schedulers", "fifo", "--no-report"},
		{"coflow", writeTrace(t), "--policy", "fair"},
	} {
		dir := filepath.Join(t.TempDir(), "mine")
		kept := userFiles(t, dir)
		_, err := execute(t, append(args, "--out", dir)...)
		if err == nil || !strings.Contains(err.Error(), "notes.txt, scen.yaml") || !strings.Contains(err.Error(), "--force") {
			t.Errorf("%s: got %v, want a refusal naming notes.txt, scen.yaml and --force", args[0], err)
		}
		kept()
		if _, err := execute(t, append(args, "--out", dir, "--force")...); err != nil {
			t.Errorf("%s --force: %v", args[0], err)
		}
		kept()
	}
}

// A directory another netsched process is writing is refused, saying so.
func TestRunRefusesADirectoryInUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	held, err := outdir.Open(dir, outdir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	_, err = execute(t, "run", quickstart, "--out", dir)
	if err == nil || !strings.Contains(err.Error(), dir+" is in use by another netsched process") {
		t.Fatalf("got %v", err)
	}
}
