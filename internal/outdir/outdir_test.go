package outdir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteAllOrNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, []File{{Name: "a.txt", Data: []byte("a")}, {Name: "sub/b.txt", Data: []byte("b")}}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sub/b.txt")); err != nil || string(b) != "b" {
		t.Fatalf("b.txt: %q %v", b, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "a.txt")); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", st.Mode().Perm())
	}
	// A file whose directory cannot be created fails the whole write and
	// leaves no temporaries behind.
	blocker := filepath.Join(dir, "blocked")
	os.WriteFile(blocker, nil, 0o644)
	err := Write(dir, []File{{Name: "c.txt", Data: []byte("c")}, {Name: "blocked/d.txt", Data: []byte("d")}})
	if err == nil {
		t.Fatal("expected an error")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == "c.txt" || e.Name() != ManifestFile && e.Name()[0] == '.' {
			t.Fatalf("left %s behind", e.Name())
		}
	}
}

func files(names ...string) []File {
	var fs []File
	for _, n := range names {
		fs = append(fs, File{Name: n, Data: []byte(n)})
	}
	return fs
}

func open(t *testing.T, dir string, opts Options) *Dir {
	t.Helper()
	d, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func replace(t *testing.T, dir string, opts Options, fs []File) error {
	t.Helper()
	d, err := Open(dir, opts)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Replace(fs)
}

func TestReplace(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := replace(t, dir, Options{}, files("summary.json", "tasks.csv")); err != nil {
		t.Fatal(err)
	}
	// The user's file beside the run is kept; a second run without
	// tasks.csv leaves no stale tasks.csv behind.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	if err := replace(t, dir, Options{}, files("summary.json", "jobs.csv")); err != nil {
		t.Fatal(err)
	}
	if got := list(t, dir); got != ".netsched-files jobs.csv notes.txt summary.json" {
		t.Fatalf("after the second run: %s", got)
	}
	// A run into a sweep's directory leaves the sweep's table.
	sweep := filepath.Join(root, "sweep")
	if err := replace(t, sweep, Options{}, files("results.csv", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if err := replace(t, sweep, Options{}, files("summary.json")); err != nil {
		t.Fatal(err)
	}
	if got := list(t, sweep); got != ".netsched-files manifest.json results.csv summary.json" {
		t.Fatalf("a run into a sweep's directory: %s", got)
	}
	if err := Write(sweep, files("results.csv")); err != nil {
		t.Fatalf("the sweep's table is no longer netsched's: %v", err)
	}
	os.RemoveAll(sweep)
	// A failed write (a file name that cannot be created) keeps the previous run.
	if err := replace(t, dir, Options{}, []File{{Name: "summary.json"}, {Name: "bad\x00name"}}); err == nil {
		t.Fatal("a bad file name was written")
	}
	if got := list(t, dir); got != ".netsched-files jobs.csv notes.txt summary.json" {
		t.Fatalf("after a failed run: %s", got)
	}
	// Nothing is left beside the directory.
	if got := list(t, root); got != "out" {
		t.Fatalf("left beside: %s", got)
	}
}

// A directory holding only the user's files is refused without Force,
// naming them; with Force netsched's files go beside them, and a file of
// the user's is never replaced, forced or not.
func TestForeignFilesAreNeverReplaced(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte("mine"), 0o644)
	err := replace(t, dir, Options{}, files("summary.json"))
	if err == nil || !strings.Contains(err.Error(), "holds files netsched did not write (jobs.csv, notes.txt)") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("refusal: %v", err)
	}
	if got := list(t, dir); got != "jobs.csv notes.txt" {
		t.Fatalf("a refused open changed the directory: %s", got)
	}
	err = replace(t, dir, Options{Force: true}, files("summary.json", "jobs.csv"))
	if err == nil || !strings.Contains(err.Error(), "netsched did not write jobs.csv (not listed in .netsched-files)") {
		t.Fatalf("replacing the user's jobs.csv: %v", err)
	}
	if got := list(t, dir); got != ".netsched-files jobs.csv notes.txt" { // forced, it is an output directory now
		t.Fatalf("a refused write changed the directory: %s", got)
	}
	if err := replace(t, dir, Options{Force: true}, files("summary.json")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "jobs.csv")); string(b) != "mine" {
		t.Fatalf("the user's jobs.csv: %q", b)
	}
	// A directory or a link where netsched's file goes is not replaced either.
	os.Remove(filepath.Join(dir, "summary.json"))
	os.Symlink("notes.txt", filepath.Join(dir, "summary.json"))
	if err := replace(t, dir, Options{}, files("summary.json")); err == nil {
		t.Fatal("a link in the place of summary.json was replaced")
	}
}

// A directory written before manifests existed (it holds summary.json, a
// sweep's manifest.json or report.html) is netsched's: the files of the
// names written now are replaced, nothing else is touched.
func TestLegacyOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"report.html", "results.csv", "notes.txt", "figures/a.svg"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, n)), 0o755)
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	if err := Write(dir, files("report.html", "results.csv", "figures/a.svg")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "figures/a.svg")); string(b) != "figures/a.svg" {
		t.Fatalf("figures/a.svg: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "old" {
		t.Fatalf("notes.txt: %q", b)
	}
	if err := Write(dir, files("report.html", "notes.txt")); err == nil {
		t.Fatal("notes.txt was replaced")
	}
}

// One process holds an output directory at a time; parts of one sweep
// share it, but the same part twice does not. The locks go with Close.
func TestOutputDirectoryLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d := open(t, dir, Options{})
	for _, opts := range []Options{{}, {Part: "part-0-of-2"}} {
		if _, err := Open(dir, opts); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "is in use by another netsched process") {
			t.Fatalf("second writer %+v: %v", opts, err)
		}
	}
	d.Close()
	p0 := open(t, dir, Options{Part: "part-0-of-2"})
	open(t, dir, Options{Part: "part-1-of-2"})
	if _, err := Open(dir, Options{Part: "part-0-of-2"}); !errors.Is(err, ErrInUse) {
		t.Fatalf("the same part twice: %v", err)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrInUse) {
		t.Fatalf("the whole directory while parts are written: %v", err)
	}
	p0.Close()
	open(t, dir, Options{Part: "part-0-of-2"})
}

// Holding the whole directory, Open removes what killed writers left: the
// temporaries of files, and the directories that earlier versions swapped
// in (.NAME.new-*) or set aside (.NAME.old-* holding a run).
func TestOpenRemovesDeadWritersTemporaries(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	os.MkdirAll(filepath.Join(dir, "cells", "c1"), 0o755)
	os.WriteFile(filepath.Join(dir, "summary.json"), nil, 0o644)
	stale := []string{filepath.Join(dir, ".summary.json.tmp-1"), filepath.Join(dir, "cells", "c1", ".jobs.csv.tmp-2")}
	for _, s := range stale {
		os.WriteFile(s, nil, 0o644)
	}
	for _, s := range []string{".out.new-1", ".out.old-2", ".out.old-3"} {
		os.MkdirAll(filepath.Join(root, s), 0o755)
	}
	os.WriteFile(filepath.Join(root, ".out.old-2", "summary.json"), nil, 0o644)
	os.WriteFile(filepath.Join(root, ".out.old-3", "thesis.tex"), nil, 0o644) // a forced user directory, set aside
	d := open(t, dir, Options{})
	if err := d.Write(files("cells/c1/jobs.csv", "cells/c1/summary.json")); err != nil {
		t.Fatal(err)
	}
	if got := list(t, root); got != ".out.old-3 out" {
		t.Errorf("beside: %s", got)
	}
	for _, s := range stale {
		if _, err := os.Stat(s); !os.IsNotExist(err) {
			t.Errorf("%s is still there", s)
		}
	}
}

// A link as the output directory is written through and stays a link; a
// file or a dangling link is refused.
func TestOpenFollowsALink(t *testing.T) {
	root := t.TempDir()
	target, link := filepath.Join(root, "target"), filepath.Join(root, "link")
	os.MkdirAll(target, 0o755)
	os.Symlink(target, link)
	if err := replace(t, link, Options{}, files("summary.json")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if got := list(t, target); got != ".netsched-files summary.json" {
		t.Fatalf("target: %s", got)
	}
	os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "dangling"))
	os.WriteFile(filepath.Join(root, "file"), nil, 0o644)
	for _, p := range []string{"dangling", "file"} {
		if _, err := Open(filepath.Join(root, p), Options{Force: true}); err == nil {
			t.Errorf("%s: opened", p)
		}
	}
	// A directory Open created and nothing was written into goes with Close.
	d := open(t, filepath.Join(root, "new"), Options{})
	d.Close()
	if _, err := os.Stat(filepath.Join(root, "new")); !os.IsNotExist(err) {
		t.Errorf("an unused new directory stayed: %v", err)
	}
}

func list(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// A streamed file is written as its Bytes; a stream that fails fails the
// whole write and leaves neither the file nor a temporary behind.
func TestStreamedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	big := strings.Repeat("row,1,2\n", 300000) // past the write buffer
	stream := File{Name: "big.csv", Stream: func(w io.Writer) error {
		_, err := io.WriteString(w, big)
		return err
	}}
	if string(stream.Bytes()) != big {
		t.Fatal("Bytes differs from the stream")
	}
	if err := Write(dir, []File{{Name: "a.txt", Data: []byte("a")}, stream}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "big.csv")); err != nil || string(b) != big {
		t.Fatalf("big.csv: %d bytes, %v; want %d", len(b), err, len(big))
	}
	failing := File{Name: "bad.csv", Stream: func(w io.Writer) error {
		io.WriteString(w, big)
		return errors.New("disk full")
	}}
	if err := Write(dir, []File{{Name: "c.txt", Data: []byte("c")}, failing}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("a failing stream: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); n != "a.txt" && n != "big.csv" && n != ManifestFile {
			t.Fatalf("left behind: %s", n)
		}
	}
}

// A writer killed with SIGKILL leaves no lock: the operating system
// releases it, and the next Open succeeds.
func TestLockGoesWithAKilledProcess(t *testing.T) {
	if dir := os.Getenv("OUTDIR_TEST_HOLD"); dir != "" {
		if _, err := Open(dir, Options{}); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("held")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	dir := filepath.Join(t.TempDir(), "out")
	child := exec.Command(os.Args[0], "-test.run=^TestLockGoesWithAKilledProcess$")
	child.Env = append(os.Environ(), "OUTDIR_TEST_HOLD="+dir)
	stdout, _ := child.StdoutPipe()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "held\n" {
		child.Process.Kill()
		t.Fatalf("child: %q", line)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrInUse) {
		t.Fatalf("while the child holds it: %v", err)
	}
	child.Process.Kill() // SIGKILL
	child.Wait()
	open(t, dir, Options{})
}
