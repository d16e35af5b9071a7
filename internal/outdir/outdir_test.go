package outdir

import (
	"os"
	"path/filepath"
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
