package experiment

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// topFiles are the sweep-level outputs compared byte for byte.
var topFiles = []string{"results.csv", "results.parquet", "cells.jsonl", "manifest.json"}

func loadSmall(t *testing.T) *Sweep {
	t.Helper()
	sw, err := Load("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

func runSweep(t *testing.T, sw *Sweep, opts Options) *Outcome {
	t.Helper()
	if opts.Out == "" {
		opts.Out = t.TempDir()
	}
	o, err := Run(sw, opts)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(a, n))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", n, a, b)
		}
	}
}

func TestSweepTwiceGivesIdenticalTables(t *testing.T) {
	sw := loadSmall(t)
	a, b := t.TempDir(), t.TempDir()
	oa := runSweep(t, sw, Options{Out: a, Workers: 4})
	runSweep(t, sw, Options{Out: b, Workers: 1})
	sameFiles(t, a, b, topFiles...)
	for _, c := range oa.Manifest.Cells {
		sameFiles(t, a, b, filepath.Join(CellDir(c.ID), "summary.json"), filepath.Join(CellDir(c.ID), "jobs.csv"))
	}
	// 2 rack counts x 2 network policies x 2 seeds, 5 metrics each.
	if n := len(oa.Manifest.Cells); n != 8 || len(oa.Table.Rows) != 40 || oa.Ran != 8 || oa.Resumed != 0 {
		t.Errorf("%d cells, %d rows, ran %d, resumed %d", n, len(oa.Table.Rows), oa.Ran, oa.Resumed)
	}
	head, _, _ := strings.Cut(string(oa.Table.CSV()), "\n")
	if head != "cell_id,cluster.racks,scheduler.params.network,scheduler,seed,metric,value,error" {
		t.Errorf("header %s", head)
	}
	// Small runs keep tasks.csv (auto) and the timeline.
	for _, f := range []string{"tasks.csv", "timeline.csv", "scenario.yaml", "timing.json"} {
		if _, err := os.Stat(filepath.Join(a, CellDir(oa.Manifest.Cells[0].ID), f)); err != nil {
			t.Error(err)
		}
	}
}

func TestResumeAfterLostCells(t *testing.T) {
	sw := loadSmall(t)
	full, out := t.TempDir(), t.TempDir()
	ref := runSweep(t, sw, Options{Out: full})
	runSweep(t, sw, Options{Out: out})
	// Lose three cells' results and the tables, as a crash would.
	for _, c := range ref.Manifest.Cells[2:5] {
		if err := os.RemoveAll(filepath.Join(out, CellDir(c.ID))); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range topFiles {
		os.Remove(filepath.Join(out, f))
	}
	o := runSweep(t, sw, Options{Out: out, Resume: true})
	if o.Ran != 3 || o.Resumed != 5 {
		t.Errorf("ran %d, resumed %d; want 3 and 5", o.Ran, o.Resumed)
	}
	sameFiles(t, full, out, topFiles...)
}

func TestResumeAfterKilledRun(t *testing.T) {
	sw := loadSmall(t)
	full, out := t.TempDir(), t.TempDir()
	runSweep(t, sw, Options{Out: full})
	if _, err := Run(sw, Options{Out: out, Workers: 2, stopAfter: 3}); !errors.Is(err, errStopped) {
		t.Fatalf("stopped run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "results.csv")); !os.IsNotExist(err) {
		t.Errorf("a killed run wrote results.csv (%v)", err)
	}
	o := runSweep(t, sw, Options{Out: out, Resume: true})
	if o.Ran != 5 || o.Resumed != 3 {
		t.Errorf("ran %d, resumed %d; want 5 and 3", o.Ran, o.Resumed)
	}
	sameFiles(t, full, out, topFiles...)
}

func TestInvalidCellIsRecordedNotFatal(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\ngrid:\n  cluster.racks: [2, 0]\nmetrics: [jct.mean, makespan]\n")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	o := runSweep(t, sw, Options{Out: out})
	m := o.Manifest
	if len(m.Cells) != 2 || m.Cells[0].Status != "ok" || m.Cells[1].Status != "failed" {
		t.Fatalf("cells %+v", m.Cells)
	}
	id := m.Cells[1].ID
	want := "cells/" + id + "/scenario.yaml:4:10: cluster.racks: expected an integer between 1 and 100000, got 0"
	if m.Cells[1].Error != want {
		t.Errorf("error %q\nwant  %q", m.Cells[1].Error, want)
	}
	// The error's file and line point at the cell's scenario as written.
	text, err := os.ReadFile(filepath.Join(out, CellDir(id), "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if line := strings.Split(string(text), "\n")[3]; line != "  racks: 0" {
		t.Errorf("line 4 of the cell's scenario is %q", line)
	}
	if _, err := os.Stat(filepath.Join(out, CellDir(id), "summary.json")); !os.IsNotExist(err) {
		t.Error("a failed cell has a summary.json")
	}
	rows := o.Table.Rows
	if len(rows) != 4 || math.IsNaN(rows[0].Value) || rows[0].Error != "" || !math.IsNaN(rows[2].Value) || rows[2].Error != want || rows[3].Metric != "makespan" {
		t.Errorf("rows %+v", rows)
	}
	if csv := string(o.Table.CSV()); !strings.Contains(csv, id+",0,fifo,7,jct.mean,,\""+want+"\"\n") {
		t.Errorf("results.csv lacks the failed row:\n%s", csv)
	}
	// Resuming runs failed cells again (they have no summary.json).
	if o := runSweep(t, sw, Options{Out: out, Resume: true}); o.Ran != 1 || o.Resumed != 1 {
		t.Errorf("resume: ran %d, resumed %d", o.Ran, o.Resumed)
	}
}

func TestRunNeedsAnOutputDirectory(t *testing.T) {
	if _, err := Run(loadSmall(t), Options{}); err == nil || err.Error() != "sweep small: no output directory" {
		t.Errorf("got %v", err)
	}
}

func TestProgressLogLines(t *testing.T) {
	var b bytes.Buffer
	runSweep(t, loadSmall(t), Options{Progress: &b})
	if got := b.String(); !strings.HasPrefix(got, "sweep small: 8/8 cells done, 0 failed, ") || strings.Count(got, "\n") != 1 {
		t.Errorf("progress %q", got)
	}
}
