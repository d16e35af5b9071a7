package mapreduce

import "testing"

// At Limit 0.5 the float rule equals the integer one sw-delay used before
// sharing it with nas: 2(r+1) <= m+r+1 and 2(early+1) <= slots.
func TestRampupHalf(t *testing.T) {
	for slots := 0; slots <= 12; slots++ {
		for early := 0; early <= 8; early++ {
			for maps := 0; maps <= 6; maps++ {
				for reds := 0; reds <= 6; reds++ {
					r := Rampup{Limit: 0.5, Slots: slots, early: early}
					j := Tasks{WaitingMaps: 1, RunMaps: maps, RunReduces: reds}
					want := 2*(reds+1) <= maps+reds+1 && 2*(early+1) <= slots
					if got := r.MayStartReducer(&j); got != want {
						t.Fatalf("slots %d early %d maps %d reducers %d: %v, want %v", slots, early, maps, reds, got, want)
					}
				}
			}
		}
	}
	r := Rampup{Limit: 0.5}
	if !r.MayStartReducer(&Tasks{RunReduces: 5}) {
		t.Fatal("a job without waiting maps is limited")
	}
}
