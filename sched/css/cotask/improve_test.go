package cotask

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Two long tasks stacked on host 0 by a rounding, a short one on host 1,
// host 2 idle (and a little slower for the long tasks): completions
// (20, 1, 0). Step 1: host 0 is last; its first long task ends at 11 on
// host 1 or on host 2, so it goes to host 1 (the first strictly best):
// (10, 11, 0). Step 2: host 1 is last; the long task cannot improve, the
// short one ends at 1 on host 2: (10, 10, 1). Step 3: host 0 is last and
// its task would end at 20 or 12: stop. CCT 20 -> 10.
func TestImproveUnstacks(t *testing.T) {
	in := Instance{Times: [][]float64{{10, 10, 11}, {10, 10, 11}, {1, 1, 1}}, Backlog: []float64{0, 0, 0}}
	got, err := Improve(in, []int{0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 0, 2}; !slices.Equal(got, want) {
		t.Fatalf("placement %v, want %v", got, want)
	}
	if c := in.cct(got); c != 10 {
		t.Fatalf("CCT %v, want 10", c)
	}
}

// Improve never raises the CCT, keeps every task on a host that can run
// it, and leaves no task of the last host that could finish strictly
// earlier elsewhere.
func TestPropertyImprove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRandomInstance(t)
		host := make([]int, len(in.Times))
		for j, row := range in.Times {
			var ok []int
			for k, v := range row {
				if !math.IsInf(v, 1) {
					ok = append(ok, k)
				}
			}
			host[j] = ok[rapid.IntRange(0, len(ok)-1).Draw(t, "host")]
		}
		before := slices.Clone(host)
		got, err := Improve(in, host)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(host, before) {
			t.Fatal("Improve modified its input")
		}
		if err := in.checkPlacement(got); err != nil {
			t.Fatal(err)
		}
		if in.cct(got) > in.cct(host)+eps(in.cct(host)) {
			t.Fatalf("CCT rose from %v to %v", in.cct(host), in.cct(got))
		}
		done, count := in.completions(got)
		last := -1
		for k, n := range count {
			if n > 0 && (last < 0 || done[k] > done[last]) {
				last = k
			}
		}
		for j, k := range got {
			if k != last {
				continue
			}
			for k2 := range in.Backlog {
				if k2 != last && done[k2]+in.Times[j][k2] < done[last]-eps(done[last]) {
					t.Fatalf("task %d could finish at %v on host %d, before the last host's %v", j, done[k2]+in.Times[j][k2], k2, done[last])
				}
			}
		}
	})
}
