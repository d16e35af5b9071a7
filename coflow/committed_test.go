package coflow

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFB2010FairMatchesCommitted replays the whole FB2010 trace (526
// coflows, 701,486 flows) with per-flow max-min sharing and compares every
// coflow's CCT with testdata/fb2010-fair-finish.csv, written by the
// bundle-level allocator that the bottleneck-group allocator replaced. The
// two sum rates in different orders, so they agree to rounding, not bit for
// bit: the bound is 1e-9 relative to the CCT.
func TestFB2010FairMatchesCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the whole trace: a few seconds")
	}
	tr := loadFB2010(t)
	want := readFinishes(t, filepath.Join("testdata", "fb2010-fair-finish.csv"))
	res := replay(t, tr, Options{Policy: Fair})
	if len(res.Coflows) != len(want) {
		t.Fatalf("%d coflows, committed %d", len(res.Coflows), len(want))
	}
	worst, at := 0.0, 0
	for i, c := range res.Coflows {
		w, ok := want[c.ID]
		if !ok {
			t.Fatalf("coflow %s is not in the committed result", c.ID)
		}
		if d := math.Abs(c.CCT-(w-c.Arrival)) / max(w-c.Arrival, 1e-9); d > worst {
			worst, at = d, i
		}
	}
	t.Logf("largest relative CCT difference %.3g (coflow %s)", worst, res.Coflows[at].ID)
	if worst > 1e-9 {
		c := res.Coflows[at]
		t.Fatalf("coflow %s finishes at %v, committed %v (CCT relative difference %.3g)", c.ID, c.Finish, want[c.ID], worst)
	}
}

func readFinishes(t *testing.T, path string) map[string]float64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]float64, len(rows))
	for _, row := range rows {
		v, err := strconv.ParseFloat(row[1], 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[row[0]] = v
	}
	return out
}
