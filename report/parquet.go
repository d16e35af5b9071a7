package report

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Parquet renders the table with the same columns, in the same order, as
// the CSV: strings for cell_id, parameters, scheduler, metric and error, an
// unsigned 64-bit seed and an optional double value (null for NaN). The
// row type is built at run time because the parameter columns depend on
// the sweep; a Go struct keeps the column order (a parquet.Group sorts by
// name).
func (t *Table) Parquet() ([]byte, error) {
	for _, p := range t.Params {
		if p == "" || strings.ContainsAny(p, ",\"`") {
			return nil, fmt.Errorf("parameter column %q cannot be a Parquet column name", p)
		}
	}
	str := reflect.TypeFor[string]()
	fields := []reflect.StructField{{Name: "CellID", Type: str, Tag: `parquet:"cell_id"`}}
	for i, p := range t.Params {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: str, Tag: reflect.StructTag(`parquet:"` + p + `"`)})
	}
	fields = append(fields,
		reflect.StructField{Name: "Scheduler", Type: str, Tag: `parquet:"scheduler"`},
		reflect.StructField{Name: "Seed", Type: reflect.TypeFor[uint64](), Tag: `parquet:"seed"`},
		reflect.StructField{Name: "Metric", Type: str, Tag: `parquet:"metric"`},
		reflect.StructField{Name: "Value", Type: reflect.TypeFor[*float64](), Tag: `parquet:"value,optional"`},
		reflect.StructField{Name: "Error", Type: str, Tag: `parquet:"error"`},
	)
	rowType := reflect.StructOf(fields)
	var buf bytes.Buffer
	// A fixed CreatedBy keeps the bytes independent of how the binary was built.
	w := parquet.NewWriter(&buf, parquet.SchemaOf(reflect.New(rowType).Interface()), parquet.CreatedBy("netsched", "", ""))
	row := reflect.New(rowType)
	e := row.Elem()
	for _, r := range t.Rows {
		if len(r.Params) != len(t.Params) {
			return nil, fmt.Errorf("row of cell %s has %d parameters, the table %d", r.CellID, len(r.Params), len(t.Params))
		}
		e.Field(0).SetString(r.CellID)
		for i, p := range r.Params {
			e.Field(1 + i).SetString(p)
		}
		k := 1 + len(t.Params)
		e.Field(k).SetString(r.Scheduler)
		e.Field(k + 1).SetUint(r.Seed)
		e.Field(k + 2).SetString(r.Metric)
		if math.IsNaN(r.Value) {
			e.Field(k + 3).SetZero()
		} else {
			v := r.Value
			e.Field(k + 3).Set(reflect.ValueOf(&v))
		}
		e.Field(k + 4).SetString(r.Error)
		if err := w.Write(row.Interface()); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
