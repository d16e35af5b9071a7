package experiment

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
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
	m, err := Merge(dirs, out, false)
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
	if _, err := Merge([]string{shared}, shared, false); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, whole, shared, topFiles...)
}

func TestMergeDetectsDuplicateAndMissingShards(t *testing.T) {
	sw := loadSmall(t)
	dirs := runShards(t, sw, 3)
	out := t.TempDir()

	_, err := Merge([]string{dirs[0], dirs[2]}, out, false)
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

	_, err = Merge([]string{dirs[0], dirs[1], dirs[2], dirs[1]}, out, false)
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
	if _, err := Merge([]string{a[0], b[1]}, t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "different sweeps (fingerprints") {
		t.Errorf("mixing sweeps: %v", err)
	}
	empty := t.TempDir()
	want := "merge: " + empty + " has no shard manifest (manifest-I-of-N.json); was it written by `netsched sweep --shard`?"
	if _, err := Merge([]string{empty}, t.TempDir(), false); err == nil || err.Error() != want {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Merge(nil, t.TempDir(), false); err == nil {
		t.Error("merging nothing succeeded")
	}
}

// mergeInPlaceOver runs the shards of sw into one directory, then lets
// change alter it, and merges it in place.
func mergeInPlaceOver(t *testing.T, sw *Sweep, change func(dir string)) error {
	t.Helper()
	dir := t.TempDir()
	for i := range 2 {
		runSweep(t, sw, Options{Out: dir, Shard: Shard{i, 2}})
	}
	change(dir)
	_, err := Merge([]string{dir}, dir, false)
	return err
}

// Results of another sweep, or newer results than the parts, are not
// replaced by the merge; results equal to the merge are (merging twice is
// harmless).
func TestMergeKeepsNewerResults(t *testing.T) {
	sw := loadSmall(t)
	other, err := parseText("scenario: tiny.yaml\nseeds: 4\n")
	if err != nil {
		t.Fatal(err)
	}
	err = mergeInPlaceOver(t, sw, func(dir string) { runSweep(t, other, Options{Out: dir}) })
	if err == nil || !strings.Contains(err.Error(), "manifest.json holds the results of another sweep") {
		t.Errorf("over another sweep's results: %v", err)
	}
	var dir string
	err = mergeInPlaceOver(t, sw, func(d string) {
		dir = d
		runSweep(t, sw, Options{Out: d})
		csv := filepath.Join(d, "results.csv")
		b, _ := os.ReadFile(csv)
		os.WriteFile(csv, append(b, b[bytes.IndexByte(b, '\n')+1:]...), 0o644) // newer results: not the parts' merge
		hourAgo := time.Now().Add(-time.Hour)
		for i := range 2 {
			os.Chtimes(filepath.Join(d, "manifest"+Shard{i, 2}.suffix()+".json"), hourAgo, hourAgo)
		}
	})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "manifest-0-of-2.json")+" is older than the results it would replace") {
		t.Errorf("older parts over newer results: %v", err)
	}
	if err := mergeInPlaceOver(t, sw, func(d string) { runSweep(t, sw, Options{Out: d}) }); err != nil {
		t.Errorf("over equal results: %v", err)
	}
}

// A part's table with a repeated row or a value that is not a finite
// number is refused, naming the file and line.
func TestMergeRejectsDuplicateRowsAndNonFiniteValues(t *testing.T) {
	sw := loadSmall(t)
	for _, tc := range []struct {
		name string
		edit func(lines []string) []string
		want string
	}{
		{"duplicate", func(l []string) []string { return append(l, l[1]) }, ":LAST: row for cell "},
		{"NaN", func(l []string) []string { l[2] = replaceValue(l[2], "NaN"); return l }, ":3: value \"NaN\" is not a finite number"},
		{"Inf", func(l []string) []string { l[2] = replaceValue(l[2], "+Inf"); return l }, ":3: value \"+Inf\" is not a finite number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dirs := runShards(t, sw, 2)
			part := filepath.Join(dirs[0], "part-0-of-2.csv")
			b, _ := os.ReadFile(part)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			edited := tc.edit(lines)
			os.WriteFile(part, []byte(strings.Join(edited, "\n")+"\n"), 0o644)
			want := part + strings.ReplaceAll(tc.want, "LAST", strconv.Itoa(len(edited)))
			_, err := Merge(dirs, t.TempDir(), false)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want %q", err, want)
			}
		})
	}
}

// replaceValue sets the value column (the second last) of a CSV line.
func replaceValue(line, v string) string {
	f := strings.Split(line, ",")
	f[len(f)-2] = v
	return strings.Join(f, ",")
}
