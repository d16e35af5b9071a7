package rate

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*max(1, math.Abs(want)) }

// flow is a flow with rem bytes through the given resources.
func flow(rem float64, res ...int32) Flow {
	f := Flow{Rem: rem, Rate: -1, N: uint8(len(res))}
	copy(f.Res[:], res)
	return f
}

func newAlloc(t testing.TB, caps ...float64) *Allocator {
	t.Helper()
	a, err := NewAllocator(caps)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// uniform is n resources of capacity c.
func uniform(n int, c float64) []float64 {
	caps := make([]float64, n)
	for i := range caps {
		caps[i] = c
	}
	return caps
}

// port maps the replay's big switch onto resources: uplink p, downlink
// ports+p.
func port(ports, src, dst int) Flow {
	return flow(0, int32(src), int32(ports+dst))
}

// The allocator never exceeds a resource and, after the backfill, leaves no
// flow that could still grow (one resource of its path is full); the same
// after refilling finished flows' bandwidth. Ports of a big switch and
// random 2-4 hop paths over resources of mixed capacities.
func TestAllocatorFeasibleAndWorkConserving(t *testing.T) {
	const ports = 7
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		hops := trial%2 == 1 // odd trials: paths over mixed-capacity resources
		caps := uniform(2*ports, 100)
		if hops {
			for i := range caps {
				caps[i] = 50 + rng.Float64()*100
			}
		}
		var active []*Coflow
		for i := range 1 + rng.IntN(6) {
			c := &Coflow{Index: i, Queue: rng.IntN(3), Narrow: 1 + rng.IntN(3)}
			for range 1 + rng.IntN(6) {
				size := 1 + rng.Float64()*50
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
				f.Rem, f.Done = size*rng.Float64(), rng.IntN(5) == 0
				if f.Done {
					f.Rem = 0
				}
				c.Flows = append(c.Flows, f)
				c.Bytes += size
				c.Longest = max(c.Longest, size)
			}
			active = append(active, c)
		}
		for _, name := range []string{SEBF, FIFO, SCF, NCF, LCF, "aalo", "aalo-weighted"} {
			var pol Policy
			var err error
			switch name {
			case "aalo", "aalo-weighted":
				pol, err = NewAalo(AaloConfig{Queues: 3, FirstLimit: 10, Multiplier: 10, Weighted: name == "aalo-weighted"})
			default:
				pol, err = NewVarys(name)
			}
			if err != nil {
				t.Fatal(err)
			}
			a := newAlloc(t, caps...)
			pol.Allocate(a, active)
			for _, c := range active {
				for _, f := range c.Flows {
					if f.Next < 0 || (f.Done && f.Next != 0) {
						t.Fatalf("trial %d %s: flow %+v", trial, name, f)
					}
				}
			}
			checkMaximal(t, active, caps)
			if _, ok := pol.(*Varys); ok {
				refillRandom(t, rng, a, active, caps)
			}
		}
	}
}

// The first coflow in MADD order finishes all its flows together at its
// bottleneck time on the free fabric.
func TestMADDFirstCoflowPaced(t *testing.T) {
	c := &Coflow{Flows: []Flow{port(4, 0, 2), port(4, 1, 2), port(4, 0, 3)}}
	for i, rem := range []float64{6, 2, 3} {
		c.Flows[i].Rem = rem
	}
	a := newAlloc(t, uniform(8, 1)...)
	a.Reset([]*Coflow{c})
	a.MADD(c)
	// up0 carries 9, down2 8: Γ = 9, every flow at rem/9.
	for _, f := range c.Flows {
		if !near(f.Next, f.Rem/9) {
			t.Errorf("flow %v rate %v, want %v", f.Resources(), f.Next, f.Rem/9)
		}
	}
}

// MADD and SEBF over paths of different capacities, as on a two-tier
// network: resources 0-3 are NICs of 10 bytes/s, 4 is a rack uplink of 5.
//
//	A: 0 -> 4 -> 1, 20 bytes (crosses the rack uplink)   bottleneck 20/5 = 4 s
//	B: 2 -> 3, 30 bytes (intra-rack)                      bottleneck 30/10 = 3 s
//	C: 0 -> 3, 10 bytes                                   bottleneck 10/10 = 1 s
//
// sebf orders C (1), B (3), A (4). MADD C: rate 10 on NIC 0 and 3, which
// leaves both full. B needs NIC 3: skipped. A needs NIC 0: skipped.
// Backfill in arrival order adds nothing (NICs 0 and 3 full). fifo instead
// gives A 20/4 = 5 (the rack link is its bottleneck, not its NICs), then B
// 30/3 = 10 on NICs 2 and 3, and C finds NIC 3 full; the backfill gives A
// nothing more (rack link full) and C nothing (NIC 3 full).
func TestMADDRackBottleneck(t *testing.T) {
	caps := []float64{10, 10, 10, 10, 5}
	mk := func() []*Coflow {
		return []*Coflow{
			{Index: 0, Flows: []Flow{flow(20, 0, 4, 1)}},
			{Index: 1, Flows: []Flow{flow(30, 2, 3)}},
			{Index: 2, Flows: []Flow{flow(10, 0, 3)}},
		}
	}
	for _, c := range []struct {
		order   string
		a, b, c float64
	}{{SEBF, 0, 0, 10}, {FIFO, 5, 10, 0}} {
		active := mk()
		v, err := NewVarys(c.order)
		if err != nil {
			t.Fatal(err)
		}
		v.Allocate(newAlloc(t, caps...), active)
		if got := [3]float64{active[0].Flows[0].Next, active[1].Flows[0].Next, active[2].Flows[0].Next}; got != [3]float64{c.a, c.b, c.c} {
			t.Errorf("%s: rates %v, want %v", c.order, got, [3]float64{c.a, c.b, c.c})
		}
		checkMaximal(t, active, caps)
	}
}

func TestConfigErrors(t *testing.T) {
	if _, err := NewVarys("srpt"); err == nil {
		t.Error("unknown order accepted")
	}
	for _, c := range []AaloConfig{
		{Queues: 0, FirstLimit: 1, Multiplier: 2}, {Queues: 65, FirstLimit: 1, Multiplier: 2},
		{Queues: 2, FirstLimit: math.NaN(), Multiplier: 2}, {Queues: 2, FirstLimit: 1, Multiplier: 1},
	} {
		if _, err := NewAalo(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	for _, caps := range [][]float64{{1, 0}, {math.Inf(1)}, {math.NaN()}} {
		if _, err := NewAllocator(caps); err == nil {
			t.Errorf("capacities %v accepted", caps)
		}
	}
}

// checkMaximal fails unless every resource is within capacity and every
// unfinished flow has a full resource (it could not grow).
func checkMaximal(t *testing.T, active []*Coflow, caps []float64) {
	t.Helper()
	use := make([]float64, len(caps))
	for _, c := range active {
		for _, f := range c.Flows {
			for _, x := range f.Resources() {
				use[x] += f.Next
			}
		}
	}
	for x := range use {
		if use[x] > caps[x]*(1+1e-12) {
			t.Fatalf("resource %d carries %v > %v", x, use[x], caps[x])
		}
	}
	for _, c := range active {
		for _, f := range c.Flows {
			full := f.Done
			for _, x := range f.Resources() {
				full = full || caps[x]-use[x] <= 1e-9
			}
			if !full {
				t.Fatalf("flow %v could grow (used %v)", f.Resources(), use)
			}
		}
	}
}

// refillRandom applies the allocation, finishes a few flows and checks that
// the refiller hands their bandwidth out without overfilling any resource
// and leaves no flow that could grow.
func refillRandom(t *testing.T, rng *rand.Rand, a *Allocator, active []*Coflow, caps []float64) {
	t.Helper()
	rf := NewRefiller(a.Resources())
	left := map[*Coflow]int{}
	for _, c := range active {
		for i := range c.Flows {
			f := &c.Flows[i]
			f.Rate = f.Next
			if !f.Done {
				left[c]++
			}
		}
		rf.Add(c)
	}
	for _, c := range active {
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done && left[c] > 1 && rng.IntN(3) == 0 {
				f.Done = true
				left[c]--
				rf.Finished(c, i)
			}
		}
	}
	rf.Refill(a, func(ref Ref) { ref.Flow().Rate = ref.Flow().Next })
	for _, c := range active {
		for i := range c.Flows {
			if f := &c.Flows[i]; f.Done {
				f.Next = 0
			} else {
				f.Next = f.Rate
			}
		}
	}
	checkMaximal(t, active, caps)
}
