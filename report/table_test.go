package report

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func sampleTable() *Table {
	return &Table{Params: []string{"cluster.racks", "scheduler.params.skips"}, Rows: []Row{
		{CellID: "a1", Params: []string{"2", "3"}, Scheduler: "delay", Seed: 7, Metric: "jct.mean", Value: 0.1},
		{CellID: "a1", Params: []string{"2", "3"}, Scheduler: "delay", Seed: 7, Metric: "makespan", Value: 1e21},
		{CellID: "b2", Params: []string{"4", ""}, Scheduler: "fair", Seed: 18446744073709551615, Metric: "jct.mean", Value: math.NaN(), Error: "x.yaml:3:4: bad, \"quoted\"\nline"},
	}}
}

func TestCSVRoundTrip(t *testing.T) {
	tb := sampleTable()
	data := tb.CSV()
	want := "cell_id,cluster.racks,scheduler.params.skips,scheduler,seed,metric,value,error\n" +
		"a1,2,3,delay,7,jct.mean,0.1,\n" +
		"a1,2,3,delay,7,makespan,1e+21,\n" +
		"b2,4,,fair,18446744073709551615,jct.mean,,\"x.yaml:3:4: bad, \"\"quoted\"\"\nline\"\n"
	if string(data) != want {
		t.Fatalf("CSV:\n%s\nwant:\n%s", data, want)
	}
	back, err := ReadCSV("results.csv", data)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(tb) {
		t.Fatalf("round trip changed the table: %+v", back)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "r.csv: empty file; expected a header line"},
		{"header", "a,b\n", "r.csv: header [a b] is not a results table (expected cell_id, parameters..., [scheduler seed metric value error])"},
		{"seed", "cell_id,scheduler,seed,metric,value,error\nx,fifo,-1,m,1,\n", `r.csv:2: seed "-1" is not an integer`},
		{"value", "cell_id,scheduler,seed,metric,value,error\nx,fifo,1,m,abc,\n", `r.csv:2: value "abc" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV("r.csv", []byte(tc.data))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
}

func TestParquetColumnsAndValues(t *testing.T) {
	tb := sampleTable()
	data, err := tb.Parquet()
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fl := range f.Schema().Fields() {
		names = append(names, fl.Name())
	}
	if !slices.Equal(names, tb.Columns()) {
		t.Fatalf("parquet columns %v, want %v", names, tb.Columns())
	}
	if f.NumRows() != 3 {
		t.Fatalf("rows = %d, want 3", f.NumRows())
	}
	rows := make([]parquet.Row, 3)
	r := parquet.NewReader(bytes.NewReader(data))
	n, _ := r.ReadRows(rows)
	if n != 3 {
		t.Fatalf("read %d rows", n)
	}
	// value is column 6: 0.1, 1e21, then null for the failed cell.
	if v := rows[0][6]; v.Double() != 0.1 {
		t.Errorf("row 0 value = %v", v)
	}
	if v := rows[2][6]; !v.IsNull() {
		t.Errorf("row 2 value = %v, want null", v)
	}
	if v := rows[2][4]; v.Uint64() != 18446744073709551615 {
		t.Errorf("row 2 seed = %v", v)
	}
	again, _ := tb.Parquet()
	if !bytes.Equal(again, data) {
		t.Error("two renderings of the same table differ")
	}
}
