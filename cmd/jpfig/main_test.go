package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep output with one cell: jobs r (recurring, JCT 4 s) and a (ad-hoc,
// JCT 10 s); 30 of 120 cross-rack bytes on the OCS: 25%.
func TestTables(t *testing.T) {
	dir := t.TempDir()
	cell := filepath.Join(dir, "cells", "c1")
	if err := os.MkdirAll(cell, 0o755); err != nil {
		t.Fatal(err)
	}
	scen := `{"cluster": {"racks": 1, "machines_per_rack": 1, "slots_per_machine": 1, "nic": "1GB/s"}, "workload": {"jobs": [` +
		`{"id": "r", "recurring": true, "stages": [{"id": "map", "count": 1, "compute": "1s"}]}, ` +
		`{"id": "a", "stages": [{"id": "map", "count": 1, "compute": "1s"}]}]}}`
	files := map[string]string{
		filepath.Join(dir, "cells.jsonl"):   `{"id": "c1", "params": {"network": "{\"topology\":\"two-tier\"}"}, "scheduler": "jobpacker", "seed": 1, "scenario": ` + scen + "}\n",
		filepath.Join(cell, "summary.json"): `{"makespan": 12, "bytes": {"ocs_bytes": 30, "eps_bytes": 90}}`,
		filepath.Join(cell, "jobs.csv"):     "job_id,user,queue,arrival,start,finish,jct,tasks,input_bytes,shuffle_bytes\nr,u,q,0,0,4,4,1,0,0\na,u,q,2,2,12,10,1,0,0\n",
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := tables(&out, dir); err != nil {
		t.Fatal(err)
	}
	want := "| jobpacker | network=EPS seed=1 | 12.0 | 25.0% | 4.0 / 4.0 / 4.0 / 10.0 / 10.0 | 1, 4.0 / 4.0 / 4.0 / 4.0 / 4.0 | 1, 10.0 / 10.0 / 10.0 / 10.0 / 10.0 |"
	if !strings.Contains(out.String(), want) {
		t.Errorf("got\n%s\nwant a row\n%s", out.String(), want)
	}
}
