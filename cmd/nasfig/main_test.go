package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two cells of a sweep (fair and nas) with the same run files: nas's class
// throughputs divided by fair's are 1, and the cluster is read from the
// cells' scenarios (2 machines: a task on machine 2 would be an error).
func TestRunTable(t *testing.T) {
	dir := t.TempDir()
	jobs := "job_id,arrival,finish,jct,shuffle_bytes\nA,0,20,20,200000000\nB,0,10,10,0\n"
	tasks := "job_id,stage,index,machine,start,finish,output_bytes\nA,map,0,0,0,10,100000000\nA,map,1,1,0,10,100000000\nA,reduce,0,1,10,20,0\nB,map,0,1,0,10,0\n"
	var lines []string
	for _, c := range []struct{ id, sched string }{{"c1", "fair"}, {"c2", "nas"}} {
		d := filepath.Join(dir, "cells", c.id)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "jobs.csv"), []byte(jobs), 0o644)
		os.WriteFile(filepath.Join(d, "tasks.csv"), []byte(tasks), 0o644)
		lines = append(lines, `{"index":0,"id":"`+c.id+`","params":{},"scheduler":"`+c.sched+`","seed":1,"scenario":{"cluster":{"racks":1,"machines_per_rack":2,"slots_per_machine":1}}}`)
	}
	os.WriteFile(filepath.Join(dir, "cells.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	var out strings.Builder
	if err := run(&out, []string{dir}, "1MB", "100MB", 5, "fair"); err != nil {
		t.Fatal(err)
	}
	// A's reducer saw both maps done: 3d = 1. Light (B) and heavy (A) have
	// one job each, medium none.
	want := "| nas |  seed=1 | 2 | 1.000 |"
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "1.000 / - / 1.000") {
		t.Fatalf("table:\n%s\nwant a row starting %q with throughput ratios 1.000 / - / 1.000", out.String(), want)
	}
	if err := run(&out, []string{dir}, "lots", "100MB", 5, "fair"); err == nil || !strings.Contains(err.Error(), "-light") {
		t.Fatalf("bad -light accepted: %v", err)
	}
}

// Run directories of `netsched run`: the cluster and scheduler come from
// summary.json; a run without tasks.csv gets 3d from jobs.csv and no 3e.
func TestRunDirectories(t *testing.T) {
	dir := t.TempDir()
	jobs := "job_id,arrival,finish,jct,shuffle_bytes,map_progress_at_first_reduce\nA,0,20,20,200000000,0.5\nB,0,10,10,0,\n"
	tasks := "job_id,stage,index,machine,start,finish,output_bytes\nA,map,0,0,0,10,100000000\nA,map,1,1,0,10,100000000\nA,reduce,0,1,10,20,0\nB,map,0,1,0,10,0\n"
	summary := `{"scheduler":"SCHED","seed":1,"scenario":{"Cluster":{"Racks":1,"MachinesPerRack":2,"SlotsPerMachine":1,"Machines":null}}}`
	var dirs []string
	for _, s := range []string{"fair", "nas"} {
		d := filepath.Join(dir, "out-"+s)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "jobs.csv"), []byte(jobs), 0o644)
		os.WriteFile(filepath.Join(d, "summary.json"), []byte(strings.Replace(summary, "SCHED", s, 1)), 0o644)
		if s == "fair" {
			os.WriteFile(filepath.Join(d, "tasks.csv"), []byte(tasks), 0o644)
		}
		dirs = append(dirs, d)
	}
	var out strings.Builder
	if err := run(&out, dirs, "1MB", "100MB", 5, "fair"); err != nil {
		t.Fatal(err)
	}
	// fair from its tasks (A's reducer saw both maps done: 1), nas from
	// jobs.csv (A's recorded 0.5; B has no reducer) without 3e.
	for _, want := range []string{"| fair |  seed=1 | 2 | 1.000 | 0.", "| nas |  seed=1 | 2 | 0.500 | - | 1 / 0 / 1 |", "1.000 / - / 1.000 |"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("table:\n%s\nwant %q", out.String(), want)
		}
	}
	if err := run(&out, []string{dir}, "1MB", "100MB", 5, "fair"); err == nil || !strings.Contains(err.Error(), "summary.json") {
		t.Fatalf("a directory that is neither a sweep nor a run: %v", err)
	}
}

// A run stopped by engine.until lists in tasks.csv the started tasks of
// jobs that jobs.csv leaves out: as many such jobs as summary.json's
// unfinished_jobs are left out and named below the table, one more is an
// error.
func TestStoppedRun(t *testing.T) {
	d := t.TempDir()
	jobs := "job_id,arrival,finish,jct,shuffle_bytes\nA,0,20,20,200000000\n"
	tasks := "job_id,stage,index,machine,start,finish,output_bytes\nA,map,0,0,0,10,100000000\nA,map,1,1,0,10,100000000\nA,reduce,0,1,10,20,0\nC,map,0,1,20,30,0\nD,map,0,0,25,30,0\n"
	summary := `{"scheduler":"fair","seed":1,"unfinished_jobs":UNF,"scenario":{"Cluster":{"Racks":1,"MachinesPerRack":2,"SlotsPerMachine":1,"Machines":null}}}`
	os.WriteFile(filepath.Join(d, "jobs.csv"), []byte(jobs), 0o644)
	os.WriteFile(filepath.Join(d, "tasks.csv"), []byte(tasks), 0o644)
	for _, c := range []struct {
		unfinished string
		ok         bool
	}{{"2", true}, {"1", false}, {"0", false}} {
		os.WriteFile(filepath.Join(d, "summary.json"), []byte(strings.Replace(summary, "UNF", c.unfinished, 1)), 0o644)
		var out strings.Builder
		err := run(&out, []string{d}, "1MB", "100MB", 5, "fair")
		if c.ok && (err != nil || !strings.Contains(out.String(), "| fair |  seed=1 | 1 | 1.000 |") || !strings.Contains(out.String(), "2 jobs unfinished")) {
			t.Fatalf("unfinished_jobs %s: %v\n%s", c.unfinished, err, out.String())
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "tasks.csv line")) {
			t.Fatalf("unfinished_jobs %s: tasks of jobs outside jobs.csv accepted: %v", c.unfinished, err)
		}
	}
}
