package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runShards runs every shard of the sweep into its own directory.
func runShards(t *testing.T, sw *Sweep, n int) []string {
	t.Helper()
	var dirs []string
	for i := range n {
		d := t.TempDir()
		o := runSweep(t, sw, Options{Out: d, Shard: Shard{i, n}})
		suffix := Shard{i, n}.suffix()
		want := []string{"cells" + suffix + ".jsonl", "manifest" + suffix + ".json", "part" + suffix + ".csv", "part" + suffix + ".parquet"}
		if !slices.Equal(o.Files, want) {
			t.Fatalf("shard %d wrote %v, want %v", i, o.Files, want)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func TestMergeEqualsUnshardedSweep(t *testing.T) {
	sw := loadSmall(t)
	whole := t.TempDir()
	ref := runSweep(t, sw, Options{Out: whole})
	dirs := runShards(t, sw, 3)
	out := t.TempDir()
	m, err := Merge(dirs, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != 8 {
		t.Errorf("merged %d cells", len(m.Cells))
	}
	sameFiles(t, whole, out, topFiles...)
	// Cell files are copied next to the merged table, for reports.
	for _, c := range ref.Manifest.Cells {
		sameFiles(t, whole, out, filepath.Join(CellDir(c.ID), "summary.json"), filepath.Join(CellDir(c.ID), "jobs.csv"))
	}
}

func TestMergeInPlace(t *testing.T) {
	sw := loadSmall(t)
	whole, shared := t.TempDir(), t.TempDir()
	runSweep(t, sw, Options{Out: whole})
	for i := range 2 {
		runSweep(t, sw, Options{Out: shared, Shard: Shard{i, 2}})
	}
	if _, err := Merge([]string{shared}, shared); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, whole, shared, topFiles...)
}

func TestMergeDetectsDuplicateAndMissingShards(t *testing.T) {
	sw := loadSmall(t)
	dirs := runShards(t, sw, 3)
	out := t.TempDir()

	_, err := Merge([]string{dirs[0], dirs[2]}, out)
	var me *MergeError
	if !errors.As(err, &me) {
		t.Fatalf("missing shard: %v", err)
	}
	// Shard 1 of 3 holds cells 1, 4 and 7 of the 8.
	if !slices.Equal(me.MissingShards, []int{1}) || !slices.Equal(me.MissingCells, []int{1, 4, 7}) || len(me.Duplicates) != 0 {
		t.Errorf("missing: %+v", me)
	}
	if want := "merge: missing shard(s) 1; missing 3 cell(s): 1, 4, 7"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}

	_, err = Merge([]string{dirs[0], dirs[1], dirs[2], dirs[1]}, out)
	if !errors.As(err, &me) {
		t.Fatalf("duplicate shard: %v", err)
	}
	want := "shard 1/3: in " + filepath.Join(dirs[1], "manifest-1-of-3.json") + " and " + filepath.Join(dirs[1], "manifest-1-of-3.json")
	if len(me.MissingShards)+len(me.MissingCells) != 0 || !slices.Equal(me.Duplicates, []string{want}) {
		t.Errorf("duplicate: %+v", me)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a failed merge wrote %d entries", len(entries))
	}
}

func TestMergeRejectsOtherSweepsAndEmptyDirs(t *testing.T) {
	sw := loadSmall(t)
	a := runShards(t, sw, 2)
	other, err := parseText("scenario: tiny.yaml\nseeds: 4\n")
	if err != nil {
		t.Fatal(err)
	}
	b := runShards(t, other, 2)
	if _, err := Merge([]string{a[0], b[1]}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "different sweeps (fingerprints") {
		t.Errorf("mixing sweeps: %v", err)
	}
	empty := t.TempDir()
	want := "merge: " + empty + " has no shard manifest (manifest-I-of-N.json); was it written by `netsched sweep --shard`?"
	if _, err := Merge([]string{empty}, t.TempDir()); err == nil || err.Error() != want {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Merge(nil, t.TempDir()); err == nil {
		t.Error("merging nothing succeeded")
	}
}
