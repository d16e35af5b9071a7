package gen_test

import (
	"testing"

	"github.com/netsched/netsched/workload/gen"
)

// BenchmarkFB2010 generates the embedded FB-2010-like day (24,442 jobs).
func BenchmarkFB2010(b *testing.B) {
	s, err := gen.ParseFB2010(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		src := s.Source()
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

// BenchmarkWorkflow generates 100 ML and TPC-H workflows (about 1,200 jobs).
func BenchmarkWorkflow(b *testing.B) {
	w, err := gen.ParseWorkflow(map[string]any{"mix": map[string]any{"kmeans": 1, "bayes": 1, "pagerank": 1, "mf": 1, "lda": 1, "tpch": 1}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		src := w.Source()
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
