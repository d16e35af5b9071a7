package experiment

import (
	"math"
	"slices"
	"testing"
)

func TestMetricValues(t *testing.T) {
	summary := []byte(`{"version": "x", "scenario": {"cluster": {"racks": 4}}, "seed": 3, "scheduler": "fifo",
		"jobs": 2, "jct": {"count": 2, "mean": 1.5, "p95": 2},
		"jct_by_bin": [{"bin": "<10MB", "count": 1, "mean": 1}, {"bin": "1-10GB", "count": 1, "mean": 2}],
		"bytes": {"total": {"cross_rack": 1e9}, "ocs_bytes": 0}, "node_locality": 0.75}`)
	got, err := metricValues(summary, []string{"jct.mean", "bytes.total.cross_rack", "jct_by_bin.1-10GB.mean", "jct_by_bin.>=1TB.mean", "node_locality", "jobs"})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.5, 1e9, 2, math.NaN(), 0.75, 2}
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Errorf("metric %d = %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := metricValues([]byte("{"), []string{"jobs"}); err == nil {
		t.Error("a broken summary.json was accepted")
	}
}

func TestKnownMetrics(t *testing.T) {
	known := KnownMetrics()
	for _, m := range append(append([]string{"jct_by_bin.<10MB.count", "jct_by_bin.>=1TB.p99", "bytes.eps_bytes"}, DefaultMetrics...), CompareMetrics...) {
		if !slices.Contains(known, m) {
			t.Errorf("%s is not a known metric", m)
		}
	}
	for _, m := range []string{"seed", "version", "scheduler", "scenario.cluster.racks"} {
		if slices.Contains(known, m) {
			t.Errorf("%s is a label, not a metric", m)
		}
	}
	if !slices.IsSorted(known) {
		t.Error("not sorted")
	}
}
