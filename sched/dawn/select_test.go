package dawn_test

import (
	"slices"
	"testing"

	"github.com/netsched/netsched/sched/dawn"
)

func prefs(rt ...float64) []dawn.Preferred {
	var out []dawn.Preferred
	for i := 0; i < len(rt); i += 2 {
		out = append(out, dawn.Preferred{Rack: int(rt[i]), Traffic: rt[i+1]})
	}
	return out
}

// A hand-made state of four jobs on three racks (traffic in GB):
//
//	A prefers rack 0 at 2 GB and rack 1 at 5 GB (max_reduce and dep_reduce)
//	B prefers rack 1 at 0 GB (its dependent data is aggregated there)
//	C prefers rack 1 at 8 GB (maps of a first-level job, scattered input)
//	D prefers rack 2 at 1 GB
//
// A container in rack 1. Saturated, Alg. 1 sorts by each job's least
// traffic: B 0, D 1, A 2, C 8; the first that prefers rack 1 is B.
// Unsaturated, by each job's most traffic: C 8, A 5, D 1, B 0: C. Only
// selected racks: saturated, A's selected rack is 0, so B still; not
// saturated, C. A container in rack 0: A either way (only A prefers it);
// with selected racks A's unsaturated choice is rack 1, so nobody.
func TestSelectLeastTrafficWhenSaturated(t *testing.T) {
	cands := []dawn.Candidate{
		{Prefs: prefs(0, 2, 1, 5), Seq: 0},
		{Prefs: prefs(1, 0), Seq: 1},
		{Prefs: prefs(1, 8), Seq: 2},
		{Prefs: prefs(2, 1), Seq: 3},
	}
	for _, c := range []struct {
		rack            int
		saturated, any_ bool
		want            int
	}{
		{1, true, true, 1}, {1, false, true, 2},
		{1, true, false, 1}, {1, false, false, 2},
		{0, true, true, 0}, {0, false, true, 0},
		{0, true, false, 0}, {0, false, false, -1},
		{2, false, true, 3},
	} {
		if got := dawn.Select(cands, c.rack, c.saturated, c.any_); got != c.want {
			t.Errorf("rack %d saturated %v any %v: picked %d, want %d", c.rack, c.saturated, c.any_, got, c.want)
		}
	}
}

// Ties on traffic go to the node-level data (least cross-node traffic when
// saturated, most otherwise), then to the earlier job.
func TestSelectTies(t *testing.T) {
	cands := []dawn.Candidate{
		{Prefs: prefs(0, 4), Node: 3, Seq: 5},
		{Prefs: prefs(0, 4), Node: 1, Seq: 6},
		{Prefs: prefs(0, 4), Node: 1, Seq: 2},
	}
	if got := dawn.Select(cands, 0, true, true); got != 2 {
		t.Errorf("saturated tie: picked %d, want 2 (node traffic 1, earlier)", got)
	}
	if got := dawn.Select(cands, 0, false, true); got != 0 {
		t.Errorf("unsaturated tie: picked %d, want 0 (node traffic 3)", got)
	}
}

// Algorithm 3 with P = (5, 1, 0, 2) jobs per rack: rack 2 has none, so it
// is balanced for any b (hotspot rack 0); rack 1 (P 1) only when
// 1 < b x 5, i.e. b > 0.2; rack 3 (P 2) when b > 0.4; the hotspot itself
// never.
func TestBalance(t *testing.T) {
	p := []int{5, 1, 0, 2}
	for _, c := range []struct {
		rack int
		b    float64
		want int
	}{
		{2, 0, 0}, {2, 1, 0},
		{1, 0, -1}, {1, 0.2, -1}, {1, 0.21, 0},
		{3, 0.4, -1}, {3, 0.6, 0},
		{0, 1, -1},
	} {
		if got := dawn.Balance(p, c.rack, c.b); got != c.want {
			t.Errorf("rack %d b %g: hotspot %d, want %d", c.rack, c.b, got, c.want)
		}
	}
	if got := dawn.Balance([]int{0, 0}, 1, 1); got != -1 {
		t.Errorf("no job anywhere: balanced toward %d, want -1", got)
	}
}

// Eqs. 5-7 on Fig. 9's level 1 (GB): job 2's output is 10 GB; Next_2 =
// {job 5}; Prev_{2,5} = {job 1}, finished with its 10 GB on rack 0.
// Writing job 2's output on rack 0 gives job 5 all 20 GB there: cost 0; on
// rack 1, 10 and 10: cost 10. dep_reduce is rack 0 although max_reduce is
// rack 1. Before job 1 finishes nothing is known: every rack costs 0 and
// max_reduce stays. Two next jobs add their costs.
func TestDepReduce(t *testing.T) {
	next := []dawn.NextInput{{Known: []float64{10, 0}}}
	cost := dawn.DepCost(10, next, 2)
	if !slices.Equal(cost, []float64{0, 10}) {
		t.Fatalf("cost %v, want [0 10]", cost)
	}
	if r := dawn.DepRack(cost, 1, 0); r != 0 {
		t.Errorf("dep_reduce %d, want 0", r)
	}
	unknown := dawn.DepCost(10, []dawn.NextInput{{Known: []float64{0, 0}}}, 2)
	if !slices.Equal(unknown, []float64{0, 0}) || dawn.DepRack(unknown, 1, 0) != 1 {
		t.Errorf("nothing known: cost %v, want [0 0] and max_reduce kept", unknown)
	}
	// y1 knows 10 on rack 0 (total 20 with out = 10); y2 knows 5 on rack 0
	// and 30 on rack 2 (total 45). Rack 0: y1 20 - 20 = 0, y2 45 - 30 = 15;
	// rack 1: y1 20 - 10 = 10, y2 45 - 30 = 15; rack 2: y1 20 - 10 = 10,
	// y2 45 - 40 = 5. Racks 0 and 2 tie at 15: max_reduce 0 is among the
	// cheapest and stays; without it, the rotation from rack 1 reaches 2.
	cost = dawn.DepCost(10, []dawn.NextInput{{Known: []float64{10, 0, 0}}, {Known: []float64{5, 0, 30}}}, 3)
	if !slices.Equal(cost, []float64{15, 25, 15}) {
		t.Fatalf("two next jobs: cost %v, want [15 25 15]", cost)
	}
	if r := dawn.DepRack(cost, 0, 1); r != 0 {
		t.Errorf("tie: dep_reduce %d, want max_reduce 0", r)
	}
	if r := dawn.DepRack(cost, 1, 1); r != 2 {
		t.Errorf("tie without max_reduce: dep_reduce %d, want 2 (first from rack 1)", r)
	}
}
