package metrics

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// ReadJobs reads a jobs.csv, or the one in a run directory, back into job
// records (the columns this package writes; extra columns are ignored).
// Errors name the file, line and column.
func ReadJobs(path string) ([]JobRecord, error) {
	var out []JobRecord
	err := readRows(path, "jobs.csv", JobsHeader[:9], func(row rowReader) {
		j := JobRecord{ID: row.str("job_id"), User: row.opt("user"), Queue: row.opt("queue"),
			Arrival: row.num("arrival"), Start: row.num("start"), Finish: row.num("finish"), JCT: row.num("jct"),
			Tasks: int(row.num("tasks")), InputBytes: row.num("input_bytes"), ShuffleBytes: row.num("shuffle_bytes"),
			MapProgress: -1}
		if row.has("map_progress_at_first_reduce") && row.opt("map_progress_at_first_reduce") != "" {
			j.MapProgress = row.num("map_progress_at_first_reduce")
		}
		for name, dst := range map[string]*float64{"dependent_bytes": &j.DepBytes, "cross_rack_bytes": &j.CrossRack, "output_bytes": &j.OutputBytes} {
			if row.has(name) {
				*dst = row.num(name)
			}
		}
		for name, dst := range map[string]*int{"node_local_tasks": &j.LocalMaps, "file_tasks": &j.FileTasks} {
			if row.has(name) {
				*dst = int(row.num(name))
			}
		}
		j.Class = row.opt("class")
		out = append(out, j)
	})
	return out, err
}

// TasksHeader is the column list of tasks.csv.
var TasksHeader = []string{"job_id", "stage", "index", "machine", "ready", "start", "input_done", "finish", "input_bytes", "output_bytes", "locality",
	"cross_rack_bytes", "saturated_at_start"}

// ReadTasks reads a tasks.csv, or the one in a run directory, back into
// task records. Errors name the file, line and column.
func ReadTasks(path string) ([]TaskRecord, error) {
	var out []TaskRecord
	err := readRows(path, "tasks.csv", TasksHeader[:10], func(row rowReader) {
		t := TaskRecord{Job: row.str("job_id"), Stage: row.str("stage"), Index: int(row.num("index")), Machine: int(row.num("machine")),
			Ready: row.num("ready"), Start: row.num("start"), InputDone: row.num("input_done"), Finish: row.num("finish"),
			InputBytes: row.num("input_bytes"), Output: row.num("output_bytes"), Locality: row.opt("locality")}
		if row.has("cross_rack_bytes") {
			t.CrossRack = row.num("cross_rack_bytes")
		}
		t.Saturated = row.opt("saturated_at_start") == "true"
		out = append(out, t)
	})
	return out, err
}

// rowReader reads one CSV record's fields by column name; the first
// malformed field is kept as the row's error. The record is the reader's
// reused slice: valid only during the callback (its strings stay valid).
type rowReader struct {
	file   string
	line   int
	col    map[string]int
	record []string
	err    *error
}

func (r rowReader) has(name string) bool { _, ok := r.col[name]; return ok }

func (r rowReader) opt(name string) string {
	if i, ok := r.col[name]; ok && i < len(r.record) {
		return r.record[i]
	}
	return ""
}

func (r rowReader) str(name string) string {
	v := r.opt(name)
	if v == "" && *r.err == nil {
		*r.err = fmt.Errorf("%s:%d: column %s: empty, expected a value", r.file, r.line, name)
	}
	return v
}

func (r rowReader) num(name string) float64 {
	s := r.opt(name)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && *r.err == nil {
		*r.err = fmt.Errorf("%s:%d: column %s: %q is not a number", r.file, r.line, name, s)
	}
	return v
}

// readRows streams a CSV file with a header naming at least need, calling
// fn for each record; path may be the file or a directory holding name.
func readRows(path, name string, need []string, fn func(rowReader)) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, name)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: reading the header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return fmt.Errorf("%s:1: no column %q (is this a netsched %s?)", path, n, name)
		}
	}
	var rowErr error
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		fn(rowReader{file: path, line: line, col: col, record: rec, err: &rowErr})
		if rowErr != nil {
			return rowErr
		}
	}
}
