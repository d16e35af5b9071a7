package outdir

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		if e.Name() == "c.txt" || len(e.Name()) > 0 && e.Name()[0] == '.' {
			t.Fatalf("left %s behind", e.Name())
		}
	}
}

func TestReplace(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	run := func(names ...string) []File {
		var fs []File
		for _, n := range names {
			fs = append(fs, File{Name: n, Data: []byte(n)})
		}
		return fs
	}
	if err := Replace(dir, run("summary.json", "tasks.csv"), false); err != nil {
		t.Fatal(err)
	}
	// A second run without tasks.csv leaves no stale tasks.csv behind.
	if err := Replace(dir, run("summary.json", "jobs.csv"), false); err != nil {
		t.Fatal(err)
	}
	if got := list(t, dir); got != "jobs.csv summary.json" {
		t.Fatalf("after the second run: %s", got)
	}
	// A directory that holds something else is refused, then replaced with force.
	other := filepath.Join(root, "mine")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("keep"), 0o644)
	if err := Replace(other, run("summary.json"), false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("refusal: %v", err)
	}
	if got := list(t, other); got != "notes.txt" {
		t.Fatalf("a refused replace changed the directory: %s", got)
	}
	if err := Replace(other, run("summary.json"), true); err != nil || list(t, other) != "summary.json" {
		t.Fatalf("forced replace: %v, %s", err, list(t, other))
	}
	// A failed write (a file name that cannot be created) keeps the previous run.
	if err := Replace(dir, []File{{Name: "summary.json"}, {Name: "bad\x00name"}}, false); err == nil {
		t.Fatal("a bad file name was written")
	}
	if got := list(t, dir); got != "jobs.csv summary.json" {
		t.Fatalf("after a failed run: %s", got)
	}
	// Nothing is left beside the directory.
	if got := list(t, root); got != "mine out" {
		t.Fatalf("left beside: %s", got)
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
		if n := e.Name(); n != "a.txt" && n != "big.csv" {
			t.Fatalf("left behind: %s", n)
		}
	}
}
