package css

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/netsched/netsched/sched/css/cotask"
)

// uniform builds a unit whose tasks take the given times on every lane.
func uniform(lanes int, times ...float64) stspUnit {
	u := stspUnit{class: classNormal, times: make([][]float64, len(times))}
	for j, d := range times {
		u.times[j] = make([]float64, lanes)
		for k := range lanes {
			u.times[j][k] = d
		}
	}
	return u
}

func order(res stspResult) []int {
	var out []int
	for _, p := range res.placed {
		out = append(out, p.unit)
	}
	return out
}

// MCTF on two idle lanes: unit 0 = {4, 4} (minimum CCT 4), unit 1 = {3}
// (3), unit 2 = {1, 1} (1). Unit 2 first (lanes 1, 1), then unit 1 on
// W = (1, 1): 4; then unit 0 on W = (4, 1) (unit 1 took lane 0): its
// tasks end at 8 and 5 whichever way, so CCT 8 (4 + 4 on lane 0, or both
// on lane 1: 1 + 8 = 9). Final W = (8, 5).
func TestSTSPMinimumCCTFirst(t *testing.T) {
	units := []stspUnit{uniform(2, 4, 4), uniform(2, 3), uniform(2, 1, 1)}
	w := []float64{0, 0}
	res, err := stsp(units, w, stspOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(res); !slices.Equal(got, []int{2, 1, 0}) {
		t.Fatalf("order %v, want [2 1 0]", got)
	}
	cct := []float64{res.placed[0].cct, res.placed[1].cct, res.placed[2].cct}
	if !slices.Equal(cct, []float64{1, 4, 8}) {
		t.Fatalf("CCTs %v, want [1 4 8]", cct)
	}
	if slices.Max(w) != 8 || slices.Min(w) != 5 {
		t.Fatalf("final W %v, want lanes at 8 and 5", w)
	}
	// By arrival the same units go in index order.
	res, err = stsp(units, []float64{0, 0}, stspOptions{byArrival: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(res); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("by arrival: order %v, want [0 1 2]", got)
	}
}

// Starving units go first, longest wait first, whatever their CCT; an
// awaited unit goes before them; a unit never goes before the units it
// comes after, even with the smallest CCT.
func TestSTSPClassesAndAncestry(t *testing.T) {
	units := []stspUnit{
		uniform(2, 1),       // 0: normal, small
		uniform(2, 9),       // 1: starving, waited 50
		uniform(2, 8),       // 2: starving, waited 80
		uniform(2, 20),      // 3: awaited
		uniform(2, 0.5),     // 4: normal, smallest, but after unit 5
		uniform(2, 5, 5, 5), // 5: normal
	}
	units[1].class, units[1].wait = classStarving, 50
	units[2].class, units[2].wait = classStarving, 80
	units[3].class = classAwaited
	units[4].after = []int{5}
	res, err := stsp(units, []float64{0, 0}, stspOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Awaited 3 (W = (20, 0)); starving 2, waited 80 (W = (20, 8)), then
	// 1, waited 50 (W = (20, 17)); then MCTF between 0 and 5 (4 waits for
	// 5): unit 0 would end at 18, unit 5 later, so 0; then 5, which
	// frees 4.
	if got := order(res); !slices.Equal(got, []int{3, 2, 1, 0, 5, 4}) {
		t.Fatalf("order %v, want [3 2 1 0 5 4]", got)
	}
	// A unit waiting for a unit of a later class is an error (callers
	// promote ancestors).
	bad := []stspUnit{uniform(1, 1), uniform(1, 1)}
	bad[0].class, bad[0].after = classAwaited, []int{1}
	if _, err := stsp(bad, []float64{0}, stspOptions{}); err == nil {
		t.Fatal("no error for an awaited unit after a normal one")
	}
}

// The lazy MCTF of stsp chooses exactly as the paper's loop, which
// re-evaluates every remaining unit after each placement.
func TestSTSPLazyIsEager(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		lanes := 1 + r.IntN(5)
		n := 1 + r.IntN(7)
		var units []stspUnit
		for range n {
			u := stspUnit{class: classNormal}
			for range 1 + r.IntN(4) {
				row := make([]float64, lanes)
				size := math.Round(1 + 9*r.Float64()) // integer sizes make ties
				for k := range row {
					row[k] = size * float64(1+r.IntN(2))
				}
				u.times = append(u.times, row)
			}
			units = append(units, u)
		}
		w0 := make([]float64, lanes)
		for k := range w0 {
			w0[k] = float64(r.IntN(5))
		}
		got, err := stsp(units, slices.Clone(w0), stspOptions{improve: true})
		if err != nil {
			t.Fatal(err)
		}
		want := eager(t, units, slices.Clone(w0))
		if !slices.Equal(order(got), want) {
			t.Fatalf("seed %d: lazy order %v, eager %v", seed, order(got), want)
		}
	}
}

// eager is Algorithm 1's MCTF loop as written: every remaining unit's
// minimum CCT at the current W, the smallest first (ties: lower index).
func eager(t *testing.T, units []stspUnit, w []float64) []int {
	left := make([]bool, len(units))
	for i := range left {
		left[i] = true
	}
	var out []int
	for range units {
		best, bestT := -1, math.Inf(1)
		var bestF cotask.Fractional
		for i, u := range units {
			if !left[i] {
				continue
			}
			f, err := cotask.MinCCT(cotask.Instance{Times: u.times, Backlog: w}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f.T < bestT {
				best, bestT, bestF = i, f.T, f
			}
		}
		if _, err := place(units[best], w, bestF, true); err != nil {
			t.Fatal(err)
		}
		left[best] = false
		out = append(out, best)
	}
	return out
}
