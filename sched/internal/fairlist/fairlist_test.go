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

// Random starts, finishes, adds and removes keep the list sorted by
// (Running, Seq) with every item's position current.
func TestListStaysSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var l List[*item]
	var live []*item
	for step := range 2000 {
		switch op := r.IntN(10); {
		case op == 0 || len(live) == 0:
			x := &item{id: step}
			x.Seq = step
			l.Add(x)
			live = append(live, x)
		case op == 1:
			i := r.IntN(len(live))
			l.Remove(live[i])
			live = slices.Delete(live, i, i+1)
		default:
			x := live[r.IntN(len(live))]
			if op%2 == 0 || x.Running == 0 {
				x.Running++
			} else {
				x.Running--
			}
			l.Moved(x)
		}
		all := l.All()
		if l.Len() != len(live) {
			t.Fatalf("step %d: %d items, want %d", step, l.Len(), len(live))
		}
		for i, x := range all {
			if x.pos != i {
				t.Fatalf("step %d: item %d at %d records position %d", step, x.id, i, x.pos)
			}
			if i > 0 && !Before(&all[i-1].Key, &x.Key) {
				t.Fatalf("step %d: %+v before %+v", step, all[i-1].Key, x.Key)
			}
		}
	}
}
