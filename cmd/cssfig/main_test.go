package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Two schedulers, two seeds of one, one of the other, by hand:
//
//	base, seed 1: job a map 10, reduce 20 (wait 4), JCT 40; job b map 30,
//	              no reduce, JCT 1200
//	  -> map (10+30)/2 = 20, reduce 20, wait 4, JCT 620, under 1000: 1/2
//	base, seed 2: job a map 30, reduce 40 (wait 6), JCT 60
//	  -> map 30, reduce 40, wait 6, JCT 60, under: 1
//	  mean over seeds: map 25, reduce 30, wait 5, JCT 340, under 0.75
//	new,  seed 1: job a map 15, reduce 10 (wait 2), JCT 20 -> -40%, -66.7%,
//	              -60%, -94.1%, +33.3% against base
func TestFigures(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "cells.jsonl"), `{"id":"c1","params":{"k":"1"},"scheduler":"base","seed":1}
{"id":"c2","params":{"k":"1"},"scheduler":"base","seed":2}
{"id":"c3","params":{"k":"1"},"scheduler":"new","seed":1}
`)
	head := "job_id,stage,tasks,parents,ready,start,finish,cct,input_wait\n"
	write(t, filepath.Join(dir, "cells/c1/stages.csv"), head+"a,map,1,0,0,0,10,10,0\na,reduce,1,1,0,10,30,20,4\nb,map,1,0,0,0,30,30,0\n")
	write(t, filepath.Join(dir, "cells/c1/jobs.csv"), "job_id,jct\na,40\nb,1200\n")
	write(t, filepath.Join(dir, "cells/c2/stages.csv"), head+"a,map,1,0,0,0,30,30,0\na,reduce,1,1,0,0,40,40,6\n")
	write(t, filepath.Join(dir, "cells/c2/jobs.csv"), "job_id,jct\na,60\n")
	write(t, filepath.Join(dir, "cells/c3/stages.csv"), head+"a,map,1,0,0,0,15,15,0\na,reduce,1,1,0,0,10,10,2\n")
	write(t, filepath.Join(dir, "cells/c3/jobs.csv"), "job_id,jct\na,20\n")
	var b strings.Builder
	if err := run(&b, dir, "base", 1000, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| k=1 | base | 2 | 25 ± 7.071 | 30 ± 14.14 | 5 ± 1.414 | 340 ± 396 | 0.75 ± 0.3536 |",
		"| k=1 | new | 1 | 15 (-40.0%) | 10 (-66.7%) | 2 (-60.0%) | 20 (-94.1%) | 1 (+33.3%) |",
		"| k=1 | base | a | 20 ± 14.14 | 30 ± 14.14 | 5 ± 1.414 | 50 ± 14.14 |",
		"| k=1 | base | b | 30 | - | - | 1200 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := run(&b, t.TempDir(), "", 1000, false); err == nil {
		t.Error("no error for a directory without cells.jsonl")
	}
}
