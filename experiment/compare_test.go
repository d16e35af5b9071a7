package experiment

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompareNormalizesToTheFirstScheduler(t *testing.T) {
	out := t.TempDir()
	c, err := Compare(CompareOptions{Scenario: "testdata/tiny.yaml", Schedulers: []string{"fifo", "fair"}, Seeds: 2, Options: Options{Out: out}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || c.Rows[0].Scheduler != "fifo" || c.Rows[1].Scheduler != "fair" {
		t.Fatalf("rows %+v", c.Rows)
	}
	for k, m := range CompareMetrics {
		if m == "workflows.wct.mean" { // tiny.yaml has no workflows: undefined, not 1
			if !math.IsNaN(c.Rows[0].Mean[k]) || c.Rows[0].Ratio[k].N != 0 {
				t.Errorf("%s: mean %v, ratio %+v; want NaN and no pair without workflows", m, c.Rows[0].Mean[k], c.Rows[0].Ratio[k])
			}
			continue
		}
		// The baseline against itself: ratio 1 on every seed where the
		// value is positive (a zero has no log-ratio: no pair).
		if r := c.Rows[0].Ratio[k]; (c.Rows[0].Mean[k] > 0 && (r.N != 2 || r.Geo != 1 || r.Low != 1 || r.High != 1)) || (c.Rows[0].Mean[k] == 0 && r.N != 0) {
			t.Errorf("baseline %s (mean %v) relative to itself: %+v", m, c.Rows[0].Mean[k], r)
		}
		if c.Rows[0].Seeds != 2 {
			t.Errorf("baseline averaged %d runs", c.Rows[0].Seeds)
		}
	}
	// Seeds count up from the scenario's (7).
	if !slices.Equal(c.Sweep.Seeds, []uint64{7, 8}) {
		t.Errorf("seeds %v", c.Sweep.Seeds)
	}
	// The normalized value is the ratio of the means in results.csv.
	var fifo, fair []float64
	for _, r := range c.Outcome.Table.Rows {
		if r.Metric == "jct.mean" {
			if r.Scheduler == "fifo" {
				fifo = append(fifo, r.Value)
			} else {
				fair = append(fair, r.Value)
			}
		}
	}
	// Paired by seed: the geometric mean of the two per-seed ratios.
	if want := math.Sqrt(fair[0] / fifo[0] * fair[1] / fifo[1]); math.Abs(c.Rows[1].Ratio[0].Geo-want) > 1e-12*want {
		t.Errorf("fair mean JCT relative to fifo %v, want %v", c.Rows[1].Ratio[0].Geo, want)
	}
	for _, f := range []string{"results.csv", "results.parquet", "report.html", "figures/jct-cdf.svg", "figures/gantt-fifo.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestCompareEveryScheduler(t *testing.T) {
	c, err := Compare(CompareOptions{Scenario: "testdata/tiny.yaml", NoReport: true, Options: Options{Out: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	labels := c.Sweep.Labels()
	if labels[0] != "fifo" || !slices.Contains(labels, "fair") || len(labels) != len(defaultCompareSchedulers())-countPrefix(c.Notes, "left out") {
		t.Errorf("schedulers %v, notes %v", labels, c.Notes)
	}
	if c.Report != nil {
		t.Error("NoReport wrote a report")
	}
	// The scheduler that panics (panic_test.go) is left out of the table
	// with a note, and the comparison goes on.
	if countPrefix(c.Notes, "test-panicky failed on this scenario") != 1 || len(c.Failed) != 0 {
		t.Errorf("notes %q, failed %v", c.Notes, c.Failed)
	}
	for _, r := range c.Rows {
		if r.Scheduler == "test-panicky" {
			t.Error("a failed scheduler has a row")
		}
	}
}

func countPrefix(notes []string, sub string) int {
	n := 0
	for _, s := range notes {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

func TestCompareErrors(t *testing.T) {
	for _, tc := range []struct {
		opts CompareOptions
		want string
	}{
		{CompareOptions{Scenario: "testdata/tiny.yaml", Schedulers: []string{"fifo", "nope"}}, `unknown scheduler "nope" (registered: `},
		{CompareOptions{Scenario: "testdata/tiny.yaml", Schedulers: []string{"fifo", "fifo"}}, "scheduler fifo is named twice"},
		{CompareOptions{Scenario: "testdata/bad.yaml"}, `testdata/bad.yaml:3:10: cluster.racks: expected an integer, got "two"`},
		{CompareOptions{Scenario: "testdata/none.yaml"}, "open testdata/none.yaml: no such file or directory"},
		{CompareOptions{Scenario: "testdata/tiny.yaml", Seeds: -1}, "--seeds -1: expected 1 or more"},
	} {
		tc.opts.Out = t.TempDir()
		_, err := Compare(tc.opts)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

// --seeds is checked before any seed is listed: 1e8 seeds would take
// gigabytes before the first run.
func TestCompareSeedsBounded(t *testing.T) {
	_, err := Compare(CompareOptions{Scenario: "testdata/tiny.yaml", Schedulers: []string{"fifo"}, Seeds: 100_000_000, Options: Options{Out: t.TempDir()}})
	if want := "--seeds 100000000: expected at most 100000 (the most cells a comparison may run)"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	_, err = Compare(CompareOptions{Scenario: "testdata/tiny.yaml", Schedulers: []string{"fifo", "fair"}, Seeds: 60_000, Options: Options{Out: t.TempDir()}})
	if want := "--seeds 60000 with 2 schedulers: the sweep would have more than 100000 cells (grid values x schedulers x seeds), the limit"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
