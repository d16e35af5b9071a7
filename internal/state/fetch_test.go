package state

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refAdd is Add's original linear merge into Pending.
func refAdd(q []Source, m int, b float64, k ByteKind) []Source {
	for i := range q {
		if q[i].Machine == m && q[i].Kind == k {
			q[i].Bytes += b
			return q
		}
	}
	return append(q, Source{Machine: m, Bytes: b, Kind: k})
}

// The indexed Pending list equals the original linear merge after every
// Add, PopPending and QueueReleased (which may queue a second entry of a
// source), across the length from which it is indexed.
func TestPendingIndexMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for run := range 200 {
		var f FetchState
		var ref []Source
		machines := 1 + r.IntN(40)
		for step := range 400 {
			m, k, b := r.IntN(machines), ByteKind(r.IntN(int(NumKinds))), float64(1+r.IntN(9))
			switch op := r.IntN(10); {
			case op < 6:
				f.Add(m, b, k, false)
				ref = refAdd(ref, m, b, k)
			case op < 8 && len(ref) > 0:
				got, want := f.PopPending(), ref[0]
				ref = ref[1:]
				if got != want {
					t.Fatalf("run %d step %d: popped %+v, want %+v", run, step, got, want)
				}
			default:
				s := Source{Machine: m, Bytes: b, Kind: k, Aggregate: 1}
				f.QueueReleased(s)
				ref = append(ref, s)
			}
			if !slices.Equal(f.Pending, ref) {
				t.Fatalf("run %d step %d: pending %v, want %v", run, step, f.Pending, ref)
			}
		}
	}
}
