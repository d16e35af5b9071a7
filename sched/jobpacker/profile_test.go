package jobpacker

import (
	"math"
	"slices"
	"testing"

	"github.com/netsched/netsched/sched"
)

// A hand-made job on 4 racks of 10 containers, OCS 10 B/s, EPS 1 B/s,
// elephant 100 B: 30 maps of 2 s, 5 reduces of 3 s, 1200 B of shuffle.
var (
	handModel = Model{Racks: 4, Containers: 10, OCS: 10, EPS: 1, Elephant: 100}
	handJob   = Profile{ID: "h", Maps: 30, Reduces: 5, MapTime: 2, ReduceTime: 3, Shuffle: 1200}
)

// Eq. 1 by hand. Map waves: ceil(30 / (r x 10)) = 3, 2, 1, 1 for r = 1..4,
// so l^map = 6, 4, 2, 2 s; the reduces fit one wave anywhere: l^red = 3 s.
// Chunk = 1200 / (r^map r^red), on the OCS when >= 100.
//
//	(3, 2): chunk 200 (OCS), max(3, 2) - 1 = 2 chunks: 400 / 10 = 40 s; L = 2 + 40 + 3 = 45
//	(4, 3): chunk 100 (OCS), 3 chunks: 30 s; L = 35
//	(4, 1): chunk 300 (OCS), 3 chunks: 90 s; L = 95
//	(4, 4): chunk 75 (EPS), 3 chunks: 225 s; L = 230
//	(1, 1): chunk 1200, no cross-rack chunk: 0 s; L = 6 + 0 + 3 = 9
func TestProfilerLatency(t *testing.T) {
	for _, c := range []struct {
		pr   Pair
		want float64
		ocs  bool
	}{{Pair{3, 2}, 45, true}, {Pair{4, 3}, 35, true}, {Pair{4, 1}, 95, true}, {Pair{4, 4}, 230, false}, {Pair{1, 1}, 9, true}} {
		if got := handModel.Latency(handJob, c.pr); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("L%v = %g, want %g", c.pr, got, c.want)
		}
		if got := handModel.UsesOCS(handJob, c.pr); got != c.ocs {
			t.Errorf("%v uses the OCS: %v, want %v", c.pr, got, c.ocs)
		}
	}
	if !handModel.Heavy(handJob) || handModel.Heavy(Profile{Shuffle: 100}) {
		t.Error("shuffle-heavy means more than the elephant threshold")
	}
}

// Feasible pairs: the maps keep one wave only on 3 or 4 racks, and the OCS
// needs r^map x r^red <= 12: (3,1), (3,2), (3,3), (3,4), (4,1), (4,2),
// (4,3). Width = the largest r^map + r^red = 7; the sort latency is the
// least L among them: (3,1) 85, (3,2) 45, (3,3) chunk 133.3 x 2 / 10 =
// 26.7 + 5 = 31.7, (3,4) 35, (4,1) 95, (4,2) 50, (4,3) 35.
func TestProfilerFeasiblePairs(t *testing.T) {
	got := handModel.Feasible(handJob)
	want := []Pair{{3, 1}, {3, 2}, {3, 3}, {3, 4}, {4, 1}, {4, 2}, {4, 3}}
	if !slices.Equal(got, want) {
		t.Errorf("feasible %v, want %v", got, want)
	}
	if w := handModel.Width(handJob); w != 7 {
		t.Errorf("width %g, want 7", w)
	}
	if l := handModel.SortLatency(handJob); math.Abs(l-(5+800.0/30)) > 1e-9 {
		t.Errorf("sort latency %g, want 31.67", l)
	}
	// A job whose shuffle cannot be split over three racks (chunk < 100
	// from 3 x 1 on) has no pair with both: eq. 1 picks among all pairs.
	small := handJob
	small.Shuffle = 250
	// OCS pairs: r^map r^red <= 2; parallel pairs need r^map >= 3. Every
	// pair with r^map >= 3 has L = 2 + (EPS chunk x chunks) + 3; the
	// least is (3, 1): chunk 83.3 x 2 / 1 = 166.7 against (4, 4): 15.6 x
	// 3 = 46.9, (4, 3): 20.8 x 3 = 62.5, (3, 3): 27.8 x 2 = 55.6, (3, 4):
	// 20.8 x 3 = 62.5, (4, 2): 31.25 x 3 = 93.75. (1, 2) on the OCS:
	// 6 + 125 x 1 / 10 + 3 = 21.5; (1, 1): 6 + 0 + 3 = 9 is the least.
	if got := handModel.Feasible(small); !slices.Equal(got, []Pair{{1, 1}}) {
		t.Errorf("feasible without a green zone: %v, want [{1 1}]", got)
	}
	// Non-shuffle-heavy: width = tasks / containers per rack = 35 / 10.
	light := handJob
	light.Shuffle = 50
	if w := handModel.Width(light); w != 3.5 {
		t.Errorf("light width %g, want 3.5", w)
	}
	// Over-provisioning reserves twice the containers: 60 maps' worth.
	over := handModel
	over.Over = 1
	if l := over.MapLatency(handJob, 3); l != 4 {
		t.Errorf("map latency with ratio 1 on 3 racks: %g, want 2 waves x 2 s = 4", l)
	}
}

// Fig. 2(b): 100 units over 4 racks with 5 maps and 1 reducer each; chunk
// 6.25, three rounds of circuits at 1 unit/s: 18.75 (no map or reduce
// time).
func TestProfilerFig2(t *testing.T) {
	m := Model{Racks: 4, Containers: 5, OCS: 1, EPS: 1e-9, Elephant: 1}
	if got := m.ShuffleLatency(Profile{Maps: 20, Reduces: 4, Shuffle: 100}, Pair{4, 4}); math.Abs(got-18.75) > 1e-12 {
		t.Errorf("shuffle latency %g, want 18.75", got)
	}
}

// ProfileOf reads maps (root stages), reduces, mean task times and the
// shuffle (map output that reduces read) from a forecast.
func TestProfileOf(t *testing.T) {
	f := sched.Forecast{ID: "j", Arrival: 7, Stages: []sched.StageForecast{
		{ID: "map", Tasks: 4, Input: 400, Output: 80, Compute: 8},
		{ID: "side", Tasks: 2, Input: 10, Output: 5, Compute: 2},
		{ID: "reduce", Tasks: 2, Parents: []string{"map"}, Output: 1, Compute: 6},
	}}
	p := ProfileOf(f, 3)
	want := Profile{ID: "j", Seq: 3, Arrival: 7, Maps: 6, Reduces: 2, MapTime: 10.0 / 6, ReduceTime: 3, Shuffle: 80, Input: 410}
	if p != want {
		t.Errorf("profile %+v, want %+v", p, want)
	}
}
