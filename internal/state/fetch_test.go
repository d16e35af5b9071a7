package state

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShuffleIndexMatchesScan drives an indexed fetch state and a scanned
// one (no pool) through the same random adds and pops: their queues must
// stay identical, and every index must come back to the pool all zeros.
func TestShuffleIndexMatchesScan(t *testing.T) {
	const machines, racks = 200, 4
	pool := &IndexPool{Keys: machines + racks}
	indexedRuns := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		indexed, scanned := NewFetchState(pool), &FetchState{}
		perRack := r.IntN(2) == 0
		for op := range 400 + r.IntN(400) {
			if len(scanned.Pending) > 0 && r.IntN(4) == 0 {
				a, b := indexed.PopPending(), scanned.PopPending()
				if a != b {
					t.Fatalf("seed %d op %d: popped %+v, the scan %+v", seed, op, a, b)
				}
				continue
			}
			m := r.IntN(machines)
			k := ByteKind(r.IntN(int(NumKinds)))
			if r.IntN(4) > 0 {
				k = KindShuffle
			}
			key := Key(m, m/(machines/racks), 0, machines, perRack)
			b := float64(1 + r.IntN(100))
			indexed.Add(m, key, b, k, false)
			scanned.Add(m, key, b, k, false)
			if !slices.Equal(indexed.Pending, scanned.Pending) {
				t.Fatalf("seed %d op %d: queue %+v, the scan %+v", seed, op, indexed.Pending, scanned.Pending)
			}
		}
		if indexed.shuffleAt != nil {
			indexedRuns++
		}
		for len(indexed.Pending) > r.IntN(3) {
			indexed.PopPending()
		}
		indexed.Release()
	}
	if indexedRuns < 100 || len(pool.free) == 0 {
		t.Fatalf("%d of 200 queues indexed, %d indexes in the pool", indexedRuns, len(pool.free))
	}
	for _, at := range pool.free {
		for key, p := range at {
			if p != 0 {
				t.Fatalf("an index came back with key %d at %d", key, p)
			}
		}
	}
}
