package rate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refRefiller is the Refiller before its lists carried each flow's path:
// every walk step loads the flow through its coflow, and finished flows
// leave the walked part of a list at once. TestRefillMatchesReference
// checks the Refiller against it.
type refRefiller struct {
	lists [][]Ref
	freed []Ref
	hit   []bool
	res   []int32
}

func newRefRefiller(resources int) *refRefiller {
	return &refRefiller{lists: make([][]Ref, resources), hit: make([]bool, resources)}
}

func (rf *refRefiller) Add(c *Coflow) {
	for i := range c.Flows {
		for _, x := range c.Flows[i].Resources() {
			rf.lists[x] = append(rf.lists[x], Ref{c, i})
		}
	}
}

func (rf *refRefiller) Finished(c *Coflow, i int) { rf.freed = append(rf.freed, Ref{c, i}) }
func (rf *refRefiller) Forget()                   { rf.freed = rf.freed[:0] }

func (rf *refRefiller) Refill(a *Allocator, set func(ref Ref)) {
	rf.res = rf.res[:0]
	for _, ref := range rf.freed {
		f := ref.Flow()
		if f.Rate > 0 {
			for _, x := range f.Resources() {
				a.free[x] = min(a.cap[x], a.free[x]+f.Rate)
			}
		}
		for _, x := range f.Resources() {
			if !rf.hit[x] {
				rf.hit[x] = true
				rf.res = append(rf.res, x)
			}
		}
	}
	rf.freed = rf.freed[:0]
	for _, x := range rf.res {
		rf.hit[x] = false
		rf.lists[x] = rf.give(a, rf.lists[x], &a.free[x], set)
	}
}

func (rf *refRefiller) give(a *Allocator, list []Ref, free *float64, set func(ref Ref)) []Ref {
	kept := list[:0]
	for k, ref := range list {
		if *free <= a.tiny {
			kept = append(kept, list[k:]...)
			break
		}
		if ref.gone() {
			continue
		}
		kept = append(kept, ref)
		f := ref.Flow()
		if add := a.room(f); add > a.tiny {
			f.Next = max(f.Rate, 0) + add
			for _, x := range f.Resources() {
				a.free[x] -= add
			}
			set(ref)
		}
	}
	clear(list[len(kept):])
	return kept
}

func (rf *refRefiller) SortByQueue() {
	less := func(x, y Ref) int {
		return cmp.Or(cmp.Compare(x.C.Queue, y.C.Queue), cmp.Compare(x.C.Index, y.C.Index), cmp.Compare(x.I, y.I))
	}
	for x, l := range rf.lists {
		kept := l[:0]
		for _, ref := range l {
			if !ref.gone() {
				kept = append(kept, ref)
			}
		}
		clear(l[len(kept):])
		slices.SortFunc(kept, less)
		rf.lists[x] = kept
	}
}

// refillSide is one copy of a refill scenario: its own coflows, allocator
// and refiller, and the flows raised, in the order the refiller raised them.
type refillSide struct {
	active []*Coflow
	all    []*Coflow // every coflow that arrived, by index
	a      *Allocator
	add    func(*Coflow)
	fin    func(*Coflow, int)
	forget func()
	refill func(*Allocator, func(Ref))
	sort   func()
	raised [][2]int
	// changed: coflows whose Rem or Done changed since the last allocation
	// (the others are Still on the first side).
	changed map[*Coflow]bool
}

// The Refiller raises the same flows to the same rates in the same order as
// the reference, and allocations that reuse loads (within an allocation,
// and for Still coflows across allocations) give the same rates as summing
// them afresh, over randomised scenarios: coflows arriving and departing,
// flows finishing, refills between full allocations (varys orders and aalo,
// whose lists are re-sorted by queue), on a big switch and on 2-4 hop paths
// over resources of mixed capacities. Every flow's Next and Rate and every
// resource's free bandwidth must be bit-identical after every step.
func TestRefillMatchesReference(t *testing.T) {
	scenarios := 400
	if testing.Short() {
		scenarios = 60
	}
	stills := 0
	for sc := range scenarios {
		rng := rand.New(rand.NewPCG(uint64(sc), 13))
		const ports = 6
		hops := sc%2 == 1
		caps := uniform(2*ports, 100)
		if hops {
			for i := range caps {
				caps[i] = 50 + rng.Float64()*100
			}
		}
		var pol, refPol Policy
		aalo := sc%3 == 2
		if aalo {
			cfg := AaloConfig{Queues: 3, FirstLimit: 10, Multiplier: 10, Weighted: sc%4 == 0}
			pol, _ = NewAalo(cfg)
			refPol, _ = NewAalo(cfg)
		} else {
			o := Orders()[sc%len(Orders())]
			pol, _ = NewVarys(o)
			refPol, _ = NewVarys(o)
		}
		newRf, oldRf := NewRefiller(len(caps)), newRefRefiller(len(caps))
		sides := [2]*refillSide{
			{a: newAlloc(t, caps...), add: newRf.Add, fin: newRf.Finished, forget: newRf.Forget, refill: newRf.Refill, sort: newRf.SortByQueue},
			{a: newAlloc(t, caps...), add: oldRf.Add, fin: oldRf.Finished, forget: oldRf.Forget, refill: oldRf.Refill, sort: oldRf.SortByQueue},
		}
		for _, s := range sides {
			s.changed = map[*Coflow]bool{}
		}
		pols := [2]Policy{pol, refPol}
		next := 0
		for step := range 60 {
			// Draw the step's events once, apply them to both sides.
			arrive := rng.IntN(3) == 0 || len(sides[0].active) == 0
			var flows []Flow
			if arrive {
				for range 1 + rng.IntN(8) {
					var f Flow
					if hops {
						perm := rng.Perm(len(caps))
						f = flow(0)
						f.N = uint8(2 + rng.IntN(3))
						for k := range int(f.N) {
							f.Res[k] = int32(perm[k])
						}
					} else {
						src, dst := rng.IntN(ports), rng.IntN(ports)
						if src == dst {
							continue
						}
						f = port(ports, src, dst)
					}
					f.Rem = 1 + rng.Float64()*50
					flows = append(flows, f)
				}
			}
			var finish []int // flow numbers across the active coflows
			nflows := 0
			for _, c := range sides[0].active {
				nflows += len(c.Flows)
			}
			for range rng.IntN(4) {
				if nflows > 0 {
					finish = append(finish, rng.IntN(nflows))
				}
			}
			realloc := arrive || rng.IntN(4) == 0
			queueBump := aalo && rng.IntN(3) == 0
			for _, s := range sides {
				// Finish flows: Done, Finished, coflow departs when empty.
				for _, k := range finish {
					for _, c := range s.active {
						if k < len(c.Flows) {
							if f := &c.Flows[k]; !f.Done {
								s.changed[c] = true
								f.Done, f.Rem = true, 0
								s.fin(c, k)
							}
							break
						}
						k -= len(c.Flows)
					}
				}
				kept := s.active[:0]
				for _, c := range s.active {
					left := 0
					for i := range c.Flows {
						if !c.Flows[i].Done {
							left++
						}
					}
					if left == 0 {
						c.Flows = nil // a departure: the caller reallocates (as the replay)
						realloc = true
					} else {
						kept = append(kept, c)
					}
				}
				s.active = kept
				if arrive && len(flows) > 0 {
					c := &Coflow{Index: next, Flows: slices.Clone(flows)}
					for _, f := range flows {
						c.Bytes += f.Rem
						c.Longest = max(c.Longest, f.Rem)
					}
					s.active = append(s.active, c)
					s.all = append(s.all, c)
					s.changed[c] = true
					s.add(c)
				}
				if queueBump && len(s.active) > 0 {
					c := s.active[len(s.active)/2]
					c.Queue = min(c.Queue+1, 2)
				}
				// Flows progress a little between steps.
				for _, c := range s.active {
					for i := range c.Flows {
						if f := &c.Flows[i]; !f.Done && f.Rate > 0 {
							s.changed[c] = s.changed[c] || f.Rem != max(f.Rem*0.9, 0.5)
							f.Rem = max(f.Rem*0.9, 0.5)
						}
					}
				}
			}
			if arrive && len(flows) > 0 {
				next++
			}
			for j, s := range sides {
				s.raised = s.raised[:0]
				if realloc {
					s.forget()
					// The reference sums every coflow's loads afresh.
					reuseLoads = j == 0
					for _, c := range s.active {
						c.Still = j == 0 && !s.changed[c]
						if c.Still {
							stills++
						}
					}
					clear(s.changed)
					pols[j].Allocate(s.a, s.active)
					reuseLoads = true
					for _, c := range s.active {
						for i := range c.Flows {
							if f := &c.Flows[i]; !f.Done {
								f.Rate = f.Next
							}
						}
					}
					if aalo {
						s.sort()
					}
				} else {
					s.refill(s.a, func(ref Ref) {
						f := ref.Flow()
						f.Rate = f.Next
						s.raised = append(s.raised, [2]int{ref.C.Index, ref.I})
					})
				}
			}
			n, o := sides[0], sides[1]
			if !slices.Equal(n.raised, o.raised) {
				t.Fatalf("scenario %d step %d: raised %v, reference %v", sc, step, n.raised, o.raised)
			}
			for x := range n.a.free {
				if math.Float64bits(n.a.free[x]) != math.Float64bits(o.a.free[x]) {
					t.Fatalf("scenario %d step %d: resource %d free %v, reference %v", sc, step, x, n.a.free[x], o.a.free[x])
				}
			}
			if len(n.all) != len(o.all) {
				t.Fatalf("scenario %d step %d: %d coflows, reference %d", sc, step, len(n.all), len(o.all))
			}
			for ci, c := range n.all {
				oc := o.all[ci]
				if len(c.Flows) != len(oc.Flows) {
					t.Fatalf("scenario %d step %d: coflow %d has %d flows, reference %d", sc, step, ci, len(c.Flows), len(oc.Flows))
				}
				for i := range c.Flows {
					f, g := c.Flows[i], oc.Flows[i]
					if math.Float64bits(f.Next) != math.Float64bits(g.Next) || math.Float64bits(f.Rate) != math.Float64bits(g.Rate) || f.Done != g.Done {
						t.Fatalf("scenario %d step %d: coflow %d flow %d %+v, reference %+v", sc, step, ci, i, f, g)
					}
				}
			}
		}
	}
	t.Logf("%d scenarios; %d allocations of a Still coflow", scenarios, stills)
	if stills == 0 {
		t.Fatal("no coflow was ever Still: the reuse across allocations is not exercised")
	}
}
