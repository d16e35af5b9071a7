package swim

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// synthetic is n SWIM lines held in memory (the shared traces may be absent).
func synthetic(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "job%d\t%d\t1\t%d\t%d\t%d\n", i, i, 1+i*7919%1000000007, (i%3)*i*104729, i*31)
	}
	return b.Bytes()
}

// BenchmarkSource measures parsing and building jobs, per pass of 24,442
// lines (the FB-2010 day's length).
func BenchmarkSource(b *testing.B) {
	data := synthetic(24442)
	cfg, err := ParseOptions(map[string]any{"users": 200}, cluster())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		src := NewSource("bench", bytes.NewReader(data), cfg)
		for {
			_, ok, err := src.Next()
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
		}
	}
}

// BenchmarkOpenFB2010 is what `netsched run` pays before simulating the
// shared FB-2010 day: Open (a validating pass) plus one streaming pass.
func BenchmarkOpenFB2010(b *testing.B) {
	p := filepath.Join("..", "..", "..", "shared", "traces", "FB-2010_samples_24_times_1hr_0.tsv")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("shared trace absent: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		src, err := Open(p, nil, cluster())
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, ok, err := src.Next()
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
			n++
		}
		if n != 24442 {
			b.Fatalf("%d jobs", n)
		}
	}
}
