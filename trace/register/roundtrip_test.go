package register_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trace/jobmodel"
	_ "github.com/netsched/netsched/trace/register"
)

// scenarioFor is a small two-tier cluster running workload (a YAML flow
// mapping) under scheduler.
func scenarioFor(t *testing.T, workload, scheduler string) *scenario.Scenario {
	t.Helper()
	doc := fmt.Sprintf(`name: roundtrip
seed: 11
cluster: {racks: 2, machines_per_rack: 3, slots_per_machine: 2, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 2}
workload: %s
scheduler: %s
`, workload, scheduler)
	sc, err := scenario.Parse("roundtrip.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func run(t *testing.T, sc *scenario.Scenario) *metrics.Result {
	t.Helper()
	res, err := sim.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Converting a trace to the native format and running both gives the same
// results: the same job records and the same summary (apart from the echoed
// scenario, whose workload section differs by construction).
func TestConvertThenRunIsIdentical(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, c := range []struct {
		name, workload, scheduler string
	}{
		{"swim", fmt.Sprintf("{trace: %s, format: swim, options: {users: 2, recurring: 0.5}}", abs("testdata/small.tsv")), "fair"},
		{"swim-fifo-skew", fmt.Sprintf("{trace: %s, format: swim, options: {reduce_skew: {dist: zipf, exponent: 1}, block: 64MB}}", abs("testdata/small.tsv")), "fifo"},
		{"coflow", fmt.Sprintf("{trace: %s, format: coflow-benchmark}", abs("testdata/small-coflow.txt")), "fair"},
		{"coflow-pinned", fmt.Sprintf("{trace: %s, format: coflow-benchmark, options: {pin: all, ports: racks, mappers: trace}}", abs("testdata/small-coflow.txt")), "fifo"},
		{"workflow", "{generate: workflow, options: {count: 2, mix: {bayes: 1, tpch: 1}, input: 2GB}}", "fair"},
		{"multistage", "{generate: multistage, options: {count: 4, input: 1GB, side_input: 20MB}}", "fair"},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct := scenarioFor(t, c.workload, c.scheduler)
			want := run(t, direct)
			for _, ext := range []string{".yaml", ".jsonl"} {
				src, err := direct.OpenWorkload()
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := jobmodel.WriteNative(&buf, src, ext == ".jsonl"); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(t.TempDir(), "converted"+ext)
				if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				got := run(t, scenarioFor(t, fmt.Sprintf("{trace: %s}", p), c.scheduler))
				if len(want.Jobs) == 0 {
					t.Fatal("no jobs ran")
				}
				if diff := cmp.Diff(want.Jobs, got.Jobs); diff != "" {
					t.Errorf("%s: job records differ (-direct +converted):\n%s", ext, diff)
				}
				ws, gs := want.Summary, got.Summary
				ws.Scenario, gs.Scenario = nil, nil
				if diff := cmp.Diff(ws, gs); diff != "" {
					t.Errorf("%s: summaries differ (-direct +converted):\n%s", ext, diff)
				}
			}
		})
	}
}
