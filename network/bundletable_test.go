package network

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBundleTableMatchesMap drives the table and a Go map through the same
// random adds, lookups and removals of keys drawn from a small space (so
// that probes collide and the table grows and wraps around), with float
// fields of both zero signs.
func TestBundleTableMatchesMap(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 3))
		var table bundleTable
		ref := map[bundleKey]*bundle{}
		var live []*bundle
		floats := []float64{0, math.Copysign(0, -1), 1.5, -1}
		key := func() bundleKey {
			return bundleKey{src: int32(r.IntN(30)), dst: int32(r.IntN(30)), class: int32(r.IntN(2)),
				elephant: r.IntN(5) == 0, fromRack: r.IntN(5) == 0,
				cap: floats[r.IntN(2)], explicit: floats[1+r.IntN(3)], wait: floats[r.IntN(3)]}
		}
		for op := range 20000 {
			k := key()
			got, want := table.get(&k), ref[k]
			if got != want {
				t.Fatalf("seed %d op %d: get(%+v) = %p, the map %p", seed, op, k, got, want)
			}
			switch {
			case want == nil && r.IntN(2) == 0:
				b := &bundle{key: k}
				table.put(b)
				ref[k] = b
				live = append(live, b)
			case len(live) > 0 && r.IntN(2) == 0:
				i := r.IntN(len(live))
				b := live[i]
				live[i] = live[len(live)-1]
				live = live[:len(live)-1]
				table.remove(b)
				delete(ref, b.key)
			}
			if table.count != len(ref) {
				t.Fatalf("seed %d op %d: %d bundles, the map %d", seed, op, table.count, len(ref))
			}
		}
		for k, b := range ref {
			if table.get(&k) != b {
				t.Fatalf("seed %d: %+v lost", seed, k)
			}
		}
	}
}
