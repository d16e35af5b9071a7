package jobpacker

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func ids(ps []Profile) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// A hand-made batch on handModel. Demands (shuffle, maps, reduces): A and
// B (4000, 30, 5), C and D (1000, 10, 2); two sub-batches of (5000, 40, 7).
// Tetris: on empty bins A scores 0.8 + 0.75 + 0.714 = 2.26 (C 0.74): A into
// bin 0, left (1000, 10, 2). B no longer fits bin 0 and scores 2.26 in bin
// 1 (C in bin 0: 0.04 + 0.0625 + 0.082 = 0.18): B into bin 1. C scores
// 0.18 in either: bin 0; D fits only bin 1. Sub-batches {A, C}, {B, D}.
// Widths: A and B keep one map wave on 3 or 4 racks and use the OCS up to
// 40 rack pairs: width 4 + 4 = 8; C and D need one wave anywhere and the
// OCS for up to 10 pairs: width 6 ((2,4), (3,3), (4,2)). Each sub-batch is
// sorted widest first, and the sub-batches come in a random order.
func TestSubBatchOrdering(t *testing.T) {
	ps := []Profile{
		{ID: "C", Seq: 0, Maps: 10, Reduces: 2, MapTime: 2, ReduceTime: 3, Shuffle: 1000},
		{ID: "A", Seq: 1, Maps: 30, Reduces: 5, MapTime: 2, ReduceTime: 3, Shuffle: 4000},
		{ID: "D", Seq: 2, Maps: 10, Reduces: 2, MapTime: 2, ReduceTime: 3, Shuffle: 1000},
		{ID: "B", Seq: 3, Maps: 30, Reduces: 5, MapTime: 2, ReduceTime: 3, Shuffle: 4000},
	}
	subs, err := SubBatches(ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 1}, {2, 3}}; !slices.EqualFunc(subs, want, slices.Equal) {
		t.Errorf("sub-batches %v, want %v (C,A and D,B)", subs, want)
	}
	if handModel.Width(ps[1]) != 8 || handModel.Width(ps[0]) != 6 {
		t.Errorf("widths A %g, C %g; want 8 and 6", handModel.Width(ps[1]), handModel.Width(ps[0]))
	}
	seen := map[string]bool{}
	for seed := range uint64(8) {
		got, err := order(handModel, ps, true, 2, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		s := ids(got)
		if !slices.Equal(s, []string{"A", "C", "B", "D"}) && !slices.Equal(s, []string{"B", "D", "A", "C"}) {
			t.Errorf("seed %d: order %v, want A C B D or B D A C", seed, s)
		}
		seen[s[0]] = true
	}
	if len(seen) != 2 {
		t.Errorf("8 seeds always put the same sub-batch first: %v", seen)
	}
	// One sub-batch: widest first, then the longer of equal widths. With
	// 50 reduces B needs two reduce waves even on 4 racks: its best pair
	// (4,4) takes 2 + 250 x 3 / 10 + 6 = 83 s, against A's 80 s at (4,4);
	// both are 8 wide.
	b := ps[3]
	b.Reduces = 50
	got, _ := order(handModel, []Profile{ps[1], b, ps[0]}, true, 1, rand.New(rand.NewPCG(1, 1)))
	if s := ids(got); !slices.Equal(s, []string{"B", "A", "C"}) {
		t.Errorf("one sub-batch: %v, want B A C", s)
	}
}

// Online: by predicted arrival; equal arrivals as in a sub-batch.
func TestOnlineOrdering(t *testing.T) {
	ps := []Profile{
		{ID: "late", Arrival: 9, Maps: 30, Reduces: 5, MapTime: 2, ReduceTime: 3, Shuffle: 4000},
		{ID: "narrow", Arrival: 1, Maps: 10, Reduces: 2, MapTime: 2, ReduceTime: 3, Shuffle: 1000},
		{ID: "wide", Arrival: 1, Seq: 2, Maps: 30, Reduces: 5, MapTime: 2, ReduceTime: 3, Shuffle: 4000},
		{ID: "first", Arrival: 0, Seq: 3, Maps: 1, Reduces: 1, MapTime: 1, ReduceTime: 1, Shuffle: 1},
	}
	got, _ := order(handModel, ps, false, 5, rand.New(rand.NewPCG(1, 1)))
	if s := ids(got); !slices.Equal(s, []string{"first", "wide", "narrow", "late"}) {
		t.Errorf("online order %v", s)
	}
}

// The job manager on an empty 4-rack cluster of 10 containers: handJob
// (30 maps of 2 s) can use every feasible pair at time 0; maps on 3 racks
// (10 each, one wave) end at 2 s, and (3,3) has the shortest shuffle
// (26.7 s), so it ends at 2 + 26.7 + 3 = 31.7 s on racks 0-2 for maps and
// racks 3, 0, 1 for reduces (rack 3 is free at 0, racks 0-2 at 2 s: the
// reduces are ready at 28.7 s, when all are free, so ties go by index:
// 0, 1, 2). Quotas split 30 maps 10/10/10 and 5 reduces 2/2/1.
func TestManagerHeavyJob(t *testing.T) {
	mg := &manager{model: handModel, racks: newRacks([]int{10, 10, 10, 10})}
	pl := mg.schedule(handJob)
	if !pl.Heavy || pl.Pair != (Pair{3, 3}) {
		t.Fatalf("planned %+v, want heavy on (3,3)", pl)
	}
	if want := 2 + 800.0/30 + 3; pl.End < want-1e-9 || pl.End > want+1e-9 {
		t.Errorf("planned end %g, want %g", pl.End, want)
	}
	if !slices.Equal(pl.MapRacks, []int{0, 1, 2}) || !slices.Equal(pl.RedRacks, []int{0, 1, 2}) {
		t.Errorf("map racks %v, reduce racks %v; want [0 1 2] and [0 1 2]", pl.MapRacks, pl.RedRacks)
	}
	if !slices.Equal(pl.MapQuota, []int{10, 10, 10, 0}) || !slices.Equal(pl.RedQuota, []int{2, 2, 1, 0}) {
		t.Errorf("quotas %v and %v", pl.MapQuota, pl.RedQuota)
	}
	// A second copy ranks racks by when 10 containers are free: rack 3 at
	// 0, racks 0-2 at 31.7 s (two containers each hold planned reduces
	// until then), ties by index: maps on racks 3, 0 and 1. On racks 0 and
	// 1 the 10 maps run in two waves on the 8 containers free from 2 s,
	// done at 6 s; the reduces are ready at 6 + 26.7 = 32.7 s and end at
	// 35.7 s.
	next := mg.schedule(handJob)
	if !slices.Equal(next.MapRacks, []int{0, 1, 3}) || next.MapsDone != 6 || next.End < 35.66 || next.End > 35.67 {
		t.Errorf("second copy: map racks %v, maps done %g, end %g; want [0 1 3], 6, 35.67", next.MapRacks, next.MapsDone, next.End)
	}
	plan := mg.rackPlan()
	if len(plan.Seq[0]) != 4 || plan.Seq[0][0].Job != "h" || plan.Input["h"].Racks == nil {
		t.Errorf("rack 0 sequence %+v", plan.Seq[0])
	}
}
