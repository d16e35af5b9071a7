package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
)

// fixture writes a small results directory by hand, independent of the
// simulator: schedulers fair and delay, a parameter "skips" that applies
// to delay only, two seeds. Every run has 3 jobs of 4 tasks on 2 machines
// with 2 slots, a timeline, and summary values derived from the cell so
// that aggregates are known exactly.
func fixture(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	tbl := &Table{Params: []string{"scheduler.params.skips"}}
	type cell struct {
		sched, skips string
		seed         uint64
	}
	var cells []cell
	for _, skips := range []string{"0", "5"} {
		for _, s := range []string{"fair", "delay"} {
			for _, seed := range []uint64{1, 2} {
				c := cell{s, skips, seed}
				if s == "fair" {
					c.skips = ""
					if skips != "0" {
						continue // fair does not vary with skips: its cells appear once
					}
				}
				cells = append(cells, c)
			}
		}
	}
	for i, c := range cells {
		id := fmt.Sprintf("c%02d", i)
		// JCTs: fair 10, 20, 30 (+seed); delay 8, 16, 24 (+seed) minus skips/5.
		base := 10.0
		if c.sched == "delay" {
			base = 8
			if c.skips == "5" {
				base = 7
			}
		}
		var jobs []metrics.JobRecord
		var jcts []float64
		for j := range 3 {
			jct := base*float64(j+1) + float64(c.seed)
			jcts = append(jcts, jct)
			jobs = append(jobs, metrics.JobRecord{ID: fmt.Sprintf("j%d", j), Arrival: float64(j), Finish: float64(j) + jct, JCT: jct, Tasks: 4, InputBytes: float64(j+1) * 5e6})
		}
		var tasks []metrics.TaskRecord
		for j := range 3 {
			for k := range 4 {
				start := float64(j*10 + (k/2)*4)
				tasks = append(tasks, metrics.TaskRecord{Job: fmt.Sprintf("j%d", j), Stage: "map", Index: k, Machine: k % 2,
					Start: start, InputDone: start + 1, Finish: start + 3, InputBytes: 5e6, Locality: "node"})
			}
		}
		var timeline []metrics.TimelineRow
		for s := range 5 {
			timeline = append(timeline, metrics.TimelineRow{Time: float64(s), CrossRackUtilization: float64(s) / 10})
		}
		sum := metrics.Summary{Scheduler: c.sched, Seed: c.seed, Jobs: 3, Tasks: 12, JCT: metrics.Summarize(jcts),
			JCTByBin: []metrics.BinStats{{Bin: "<10MB", Stats: metrics.Summarize(jcts[:1])}, {Bin: "10-100MB", Stats: metrics.Summarize(jcts[1:])}},
			Makespan: 40, Throughput: 3.0 / 40, NodeLocality: 0.5}
		res := &metrics.Result{Summary: sum, Jobs: jobs, Tasks: tasks, Timeline: timeline}
		files, err := res.Files()
		if err != nil {
			t.Fatal(err)
		}
		cd := filepath.Join(dir, "cells", id)
		if err := os.MkdirAll(cd, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(cd, f.Name), f.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []struct {
			name string
			v    float64
		}{{"jct.mean", sum.JCT.Mean}, {"makespan", sum.Makespan}, {"node_locality", sum.NodeLocality}} {
			tbl.Rows = append(tbl.Rows, Row{CellID: id, Params: []string{c.skips}, Scheduler: c.sched, Seed: c.seed, Metric: m.name, Value: m.v})
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), tbl.CSV(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixtureFigures are the figures the fixture must produce.
var fixtureFigures = []string{
	"jct-cdf", "jct-normalized", "jct-by-size",
	"sweep-scheduler_params_skips-jct_mean", "sweep-scheduler_params_skips-makespan", "sweep-scheduler_params_skips-node_locality",
	"utilization", "gantt-fair", "gantt-delay",
}

func TestFixtureIsReadable(t *testing.T) {
	dir := fixture(t)
	r, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Schedulers, ","); got != "fair,delay" {
		t.Errorf("schedulers %s", got)
	}
	if len(r.Cells) != 6 {
		t.Errorf("%d cells, want 6", len(r.Cells))
	}
	data, _ := os.ReadFile(filepath.Join(dir, "cells", "c00", "summary.json"))
	var s metrics.Summary
	if err := json.Unmarshal(data, &s); err != nil || s.JCT.Mean != 21 {
		t.Errorf("c00 summary: %v, mean %v (want 21 = (11+21+31)/3)", err, s.JCT.Mean)
	}
}
