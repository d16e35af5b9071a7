package report

import "testing"

// BenchmarkGenerateHTML: the fixture's nine figures rendered as PNG, plus
// report.html with them embedded.
func BenchmarkGenerateHTML(b *testing.B) {
	r, err := LoadResults(fixture(b))
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	for b.Loop() {
		if _, err := Generate(r, Options{Out: out}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTableParquet: 10,000 rows with two parameter columns.
func BenchmarkTableParquet(b *testing.B) {
	t := &Table{Params: []string{"a", "b"}}
	for i := range 10000 {
		t.Rows = append(t.Rows, Row{CellID: "c", Params: []string{"1", "x"}, Scheduler: "fifo", Seed: uint64(i), Metric: "jct.mean", Value: float64(i)})
	}
	for b.Loop() {
		if _, err := t.Parquet(); err != nil {
			b.Fatal(err)
		}
	}
}
