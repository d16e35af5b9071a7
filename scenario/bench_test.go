package scenario

import (
	"bytes"
	"fmt"
	"testing"
)

func BenchmarkParseDefault(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("default.yaml", defaultYAML, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticJSONL is n jobs of one map stage with 20 explicit tasks and a
// generated reduce stage, one per line.
func syntheticJSONL(b *testing.B, n int) []byte {
	var specs []JobSpec
	for i := range n {
		tasks := make([]TaskSpec, 20)
		for k := range tasks {
			tasks[k] = TaskSpec{Input: 128e6, Compute: 1.5, Output: 64e6}
		}
		specs = append(specs, JobSpec{ID: fmt.Sprint("j", i), Arrival: 0, Stages: []StageSpec{
			{ID: "map", Tasks: tasks},
			{ID: "reduce", After: DepList{{Stage: "map"}}, Count: 5, Compute: DurationDist{Kind: "const", A: 2}},
		}})
	}
	var buf bytes.Buffer
	if err := EncodeJobsJSONL(&buf, specs); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkDecodeJobsJSONL(b *testing.B) {
	data := syntheticJSONL(b, 100)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodeJobsJSONL("t.jsonl", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeJobsJSONL(b *testing.B) {
	data := syntheticJSONL(b, 100)
	specs, err := DecodeJobsJSONL("t.jsonl", bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := EncodeJobsJSONL(&bytes.Buffer{}, specs); err != nil {
			b.Fatal(err)
		}
	}
}
