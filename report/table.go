package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/metrics"
)

// Table is the tidy results table: one row per cell and metric. Its
// columns are cell_id, one column per swept parameter (Params), scheduler,
// seed, metric, value and error.
type Table struct {
	Params []string
	Rows   []Row
}

// Row is one cell's value of one metric. Value is NaN when the cell failed
// (Error says why) or its run did not produce the metric.
type Row struct {
	CellID    string
	Params    []string // as many as Table.Params; "" where a parameter does not apply
	Scheduler string
	Seed      uint64
	Metric    string
	Value     float64
	Error     string
	Line      int // where ReadCSV read it (for messages); 0 otherwise
}

// FixedColumns are the columns every table has besides the parameters.
var FixedColumns = []string{"cell_id", "scheduler", "seed", "metric", "value", "error"}

// Columns lists the header in file order.
func (t *Table) Columns() []string {
	cols := []string{"cell_id"}
	cols = append(cols, t.Params...)
	return append(cols, FixedColumns[1:]...)
}

// CSV renders the table; NaN values are empty fields and every other
// value is written exactly (shortest round-trip form).
func (t *Table) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(t.Columns()) // writes to memory: cannot fail
	for _, r := range t.Rows {
		rec := append([]string{r.CellID}, r.Params...)
		val := ""
		if !math.IsNaN(r.Value) {
			val = metrics.F(r.Value)
		}
		rec = append(rec, r.Scheduler, strconv.FormatUint(r.Seed, 10), r.Metric, val, r.Error)
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// ReadCSV parses a table written by CSV; name is used in messages. A row
// repeating a cell's metric, and a value that is not a finite number (an
// empty field is NaN: a metric the run did not produce), are errors.
func ReadCSV(name string, data []byte) (*Table, error) {
	rd := csv.NewReader(bytes.NewReader(data))
	head, err := rd.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file; expected a header line", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	np := len(head) - len(FixedColumns)
	if np < 0 || head[0] != "cell_id" || !slices.Equal(head[1+np:], FixedColumns[1:]) {
		return nil, fmt.Errorf("%s: header %v is not a results table (expected cell_id, parameters..., %v)", name, head, FixedColumns[1:])
	}
	t := &Table{Params: slices.Clone(head[1 : 1+np])}
	firstLine := map[[2]string]int{} // (cell, metric) -> line
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := rd.FieldPos(0)
		seed, err := strconv.ParseUint(rec[2+np], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: seed %q is not an integer", name, line, rec[2+np])
		}
		val := math.NaN()
		if s := rec[4+np]; s != "" {
			if val, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: value %q is not a number", name, line, s)
			}
			if math.IsNaN(val) || math.IsInf(val, 0) {
				return nil, fmt.Errorf("%s:%d: value %q is not a finite number (a value the run did not produce is an empty field)", name, line, s)
			}
		}
		key := [2]string{rec[0], rec[3+np]}
		if prev, dup := firstLine[key]; dup {
			return nil, fmt.Errorf("%s:%d: row for cell %s and metric %s again (first at line %d)", name, line, key[0], key[1], prev)
		}
		firstLine[key] = line
		t.Rows = append(t.Rows, Row{
			CellID: rec[0], Params: slices.Clone(rec[1 : 1+np]), Scheduler: rec[1+np],
			Seed: seed, Metric: rec[3+np], Value: val, Error: rec[5+np], Line: line,
		})
	}
}

// Files renders the table as <stem>.csv and <stem>.parquet.
func (t *Table) Files(stem string) ([]outdir.File, error) {
	pq, err := t.Parquet()
	if err != nil {
		return nil, fmt.Errorf("%s.parquet: %w", stem, err)
	}
	return []outdir.File{{Name: stem + ".csv", Data: t.CSV()}, {Name: stem + ".parquet", Data: pq}}, nil
}

// Equal reports whether two tables hold the same rows (NaN equals NaN).
func (t *Table) Equal(o *Table) bool {
	if !slices.Equal(t.Params, o.Params) || len(t.Rows) != len(o.Rows) {
		return false
	}
	for i, a := range t.Rows {
		b := o.Rows[i]
		same := a.Value == b.Value || (math.IsNaN(a.Value) && math.IsNaN(b.Value))
		if !same || a.CellID != b.CellID || !slices.Equal(a.Params, b.Params) || a.Scheduler != b.Scheduler ||
			a.Seed != b.Seed || a.Metric != b.Metric || a.Error != b.Error {
			return false
		}
	}
	return true
}
