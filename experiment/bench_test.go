package experiment

import (
	"fmt"
	"testing"
)

// BenchmarkExpand: expanding a 10 x 10 grid x 3 schedulers x 3 seeds (900
// cells), including copying the base document and hashing every cell.
func BenchmarkExpand(b *testing.B) {
	sw, err := parseText(`scenario: tiny.yaml
schedulers: [fifo, {name: fifo, label: fifo2, params: {network: fifo}}, fair]
seeds: 3
grid:
  cluster.machines_per_rack: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  cluster.slots_per_machine: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
`)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if n := len(Expand(sw)); n != 900 {
			b.Fatal(n)
		}
	}
}

// BenchmarkSweepSmall: the 8-cell test sweep end to end (simulations, cell
// files, tables in CSV and Parquet, manifest) on one worker.
func BenchmarkSweepSmall(b *testing.B) {
	sw, err := Load("testdata/small.yaml")
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	for b.Loop() {
		if _, err := Run(sw, Options{Out: out, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareDefault: `netsched compare` without arguments, report
// included (the README's main command), on one worker.
func BenchmarkCompareDefault(b *testing.B) {
	out := b.TempDir()
	for b.Loop() {
		c, err := Compare(CompareOptions{Options: Options{Out: out, Workers: 1}})
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Rows) == 0 {
			b.Fatal(fmt.Sprint(c.Notes))
		}
	}
}
