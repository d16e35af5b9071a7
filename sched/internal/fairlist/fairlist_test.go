package fairlist

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type item struct {
	Key
	id int
}

// The list equals a sort of the live items by Before after every add,
// remove and change of a running count (by one, or by several between
// two Moved calls), with blocks of 256 and of 4 items (so that blocks
// split and empty often).
func TestListStaysSorted(t *testing.T) {
	for _, block := range []int{256, 4} {
		maxBlock = block
		r := rand.New(rand.NewPCG(1, uint64(block)))
		var l List[*item]
		var live []*item
		for step := range 6000 {
			switch op := r.IntN(10); {
			case op == 0 || len(live) == 0 || op == 9 && len(live) < 600:
				x := &item{id: step}
				x.Seq = step
				x.Running = r.IntN(3)
				l.Add(x)
				live = append(live, x)
			case op == 1:
				i := r.IntN(len(live))
				if r.IntN(2) == 0 { // removed with a count changed since it was filed
					live[i].Running += 1 + r.IntN(3)
				}
				l.Remove(live[i])
				live = slices.Delete(live, i, i+1)
			default:
				x := live[r.IntN(len(live))]
				switch {
				case op == 2:
					x.Running += r.IntN(5) // 0: Moved with nothing changed
				case op%2 == 0 || x.Running == 0:
					x.Running++
				default:
					x.Running--
				}
				l.Moved(x)
			}
			want := slices.Clone(live)
			slices.SortFunc(want, func(a, b *item) int {
				switch {
				case a == b:
					return 0
				case Before(&a.Key, &b.Key):
					return -1
				}
				return 1
			})
			got := slices.Collect(l.All())
			if l.Len() != len(live) || !slices.Equal(got, want) {
				t.Fatalf("block %d, step %d: %d items (Len %d), want %d in sorted order", block, step, len(got), l.Len(), len(live))
			}
		}
	}
	maxBlock = 256
}
