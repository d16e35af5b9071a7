package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/netsched/netsched/metrics"
)

// The readers below take what the report draws from a cell's run files
// (written by metrics.Result.Files), by column name.

// job is what the CDF needs of one job.
type job struct{ jct float64 }

// task is one row of tasks.csv: where and when each phase ran.
type task struct {
	job, stage         string
	index, machine     int
	start, inputDone   float64
	finish, inputBytes float64
}

// sample is one row of timeline.csv.
type sample struct{ t, crossRack, maxLink float64 }

// csvColumns reads a CSV file and returns its rows and a column lookup.
func csvColumns(path string, want ...string) ([][]string, map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("%s: empty file; expected a header", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, w := range want {
		if _, ok := col[w]; !ok {
			return nil, nil, fmt.Errorf("%s: no column %q", path, w)
		}
	}
	return recs[1:], col, nil
}

func parseF(path string, line int, name, s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s:%d: %s %q is not a number", path, line, name, s)
	}
	return v, nil
}

func readJobs(dir string) ([]job, error) {
	path := filepath.Join(dir, "jobs.csv")
	rows, col, err := csvColumns(path, "jct")
	if err != nil {
		return nil, err
	}
	out := make([]job, len(rows))
	for i, r := range rows {
		if out[i].jct, err = parseF(path, i+2, "jct", r[col["jct"]]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readTasks(dir string) ([]task, error) {
	path := filepath.Join(dir, "tasks.csv")
	rows, col, err := csvColumns(path, "job_id", "stage", "index", "machine", "start", "input_done", "finish", "input_bytes")
	if err != nil {
		return nil, err
	}
	out := make([]task, len(rows))
	for i, r := range rows {
		t := task{job: r[col["job_id"]], stage: r[col["stage"]]}
		var idx, m float64
		for _, f := range []struct {
			name string
			dst  *float64
		}{{"index", &idx}, {"machine", &m}, {"start", &t.start}, {"input_done", &t.inputDone}, {"finish", &t.finish}, {"input_bytes", &t.inputBytes}} {
			if *f.dst, err = parseF(path, i+2, f.name, r[col[f.name]]); err != nil {
				return nil, err
			}
		}
		t.index, t.machine = int(idx), int(m)
		out[i] = t
	}
	return out, nil
}

func readTimeline(dir string) ([]sample, error) {
	path := filepath.Join(dir, "timeline.csv")
	rows, col, err := csvColumns(path, "time", "cross_rack_utilization", "max_link_utilization")
	if err != nil {
		return nil, err
	}
	out := make([]sample, len(rows))
	for i, r := range rows {
		s := &out[i]
		for _, f := range []struct {
			name string
			dst  *float64
		}{{"time", &s.t}, {"cross_rack_utilization", &s.crossRack}, {"max_link_utilization", &s.maxLink}} {
			if *f.dst, err = parseF(path, i+2, f.name, r[col[f.name]]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// readSummary reads the parts of summary.json the figures use.
func readSummary(dir string) (*metrics.Summary, error) {
	path := filepath.Join(dir, "summary.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s metrics.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}
