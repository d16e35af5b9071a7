package coflow

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// synthetic draws a small random trace: overlapping coflows of mixed
// widths and sizes on few ports, some with node-local shares.
func synthetic(t testing.TB, seed uint64, ports, coflows int) *coflowbench.Trace {
	rng := rand.New(rand.NewPCG(seed, 1))
	var lines []string
	arrival := 0
	for i := range coflows {
		arrival += rng.IntN(3000)
		var b strings.Builder
		nm := 1 + rng.IntN(4)
		fmt.Fprintf(&b, "c%d %d %d", i, arrival, nm)
		for range nm {
			fmt.Fprintf(&b, " %d", rng.IntN(ports))
		}
		nr := 1 + rng.IntN(4)
		fmt.Fprintf(&b, " %d", nr)
		for range nr {
			fmt.Fprintf(&b, " %d:%d", rng.IntN(ports), rng.IntN(200))
		}
		lines = append(lines, b.String())
	}
	return parseTrace(t, ports, lines...)
}

// variants is every policy plus the options that change its behaviour.
func variants() []Options {
	var out []Options
	for _, p := range Policies() {
		out = append(out, Options{Policy: p})
		if p != Fair {
			out = append(out, Options{Policy: p, RescheduleOnFlowCompletion: true})
		}
		if p != Fair {
			out = append(out, Options{Policy: p, IdleFreedBandwidth: true})
		}
	}
	return append(out, Options{Policy: Aalo, AaloWeighted: true},
		Options{Policy: Aalo, AaloWeighted: true, IdleFreedBandwidth: true},
		Options{Policy: Aalo, AaloWeighted: true, RescheduleOnFlowCompletion: true})
}

func name(o Options) string {
	return fmt.Sprintf("%s/weighted=%v/realloc=%v/idle=%v", o.Policy, o.AaloWeighted, o.RescheduleOnFlowCompletion, o.IdleFreedBandwidth)
}

// Every policy finishes every coflow no sooner than it could alone: its
// busiest port's bytes over the port speed. The whole trace cannot end
// before the busiest port has moved all its bytes.
func TestPoliciesOnSyntheticTrace(t *testing.T) {
	const speed = mib // 1 MiB/s: trace MB read as seconds
	tr := synthetic(t, 7, 6, 40)
	alone := make([]float64, len(tr.Coflows))
	var up, down [6]float64
	for i := range tr.Coflows {
		var u, d [6]float64
		flows, _ := buildFlows(&tr.Coflows[i])
		for _, f := range flows {
			u[f.src] += f.size
			d[f.dst] += f.size
		}
		for p := range 6 {
			alone[i] = max(alone[i], u[p]/speed, d[p]/speed)
			up[p] += u[p]
			down[p] += d[p]
		}
	}
	var busiest float64
	for p := range 6 {
		busiest = max(busiest, up[p]/speed, down[p]/speed)
	}
	for _, opt := range variants() {
		opt.PortSpeed = speed
		res := replay(t, tr, opt)
		last := 0.0
		for i, r := range res.Coflows {
			if r.CCT < alone[i]*(1-1e-9) || !near(r.Finish, r.Arrival+r.CCT) {
				t.Errorf("%s: coflow %s CCT %v below its bound %v", name(opt), r.ID, r.CCT, alone[i])
			}
			last = max(last, r.Finish)
		}
		if span := last - tr.Coflows[0].Arrival; span < busiest*(1-1e-9) {
			t.Errorf("%s: trace ends after %v s, before the busiest port could (%v s)", name(opt), span, busiest)
		}
		if s := res.Summary; s.Coflows != 40 || s.CCT.Count != 40 ||
			s.Bins.ShortNarrow.Count+s.Bins.ShortWide.Count+s.Bins.LongNarrow.Count+s.Bins.LongWide.Count != 40 {
			t.Errorf("%s: summary counts %+v", name(opt), s)
		}
	}
}

// Two replays of the same trace give byte-identical output files.
func TestDeterminism(t *testing.T) {
	tr := synthetic(t, 11, 8, 60)
	for _, opt := range variants() {
		a, err := replay(t, tr, opt).Files()
		if err != nil {
			t.Fatal(err)
		}
		b, err := replay(t, tr, opt).Files()
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
				t.Errorf("%s: %s differs between runs", name(opt), a[i].Name)
			}
		}
	}
}

// The allocator never exceeds a port and, after the backfill, leaves no
// flow that could still grow (one of its two ports is full).
func TestAllocatorFeasibleAndWorkConserving(t *testing.T) {
	const ports, speed = 7, 100.0
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		var active []*coflowState
		for i := range 1 + rng.IntN(6) {
			c := &coflowState{idx: i, queue: rng.IntN(3), narrow: 1 + rng.IntN(3)}
			for range 1 + rng.IntN(6) {
				src, dst := rng.IntN(ports), rng.IntN(ports)
				if src == dst {
					continue
				}
				size := 1 + rng.Float64()*50
				f := flowState{src: src, dst: dst, size: size, rem: size * rng.Float64(), done: rng.IntN(5) == 0}
				if f.done {
					f.rem = 0
				}
				c.flows = append(c.flows, f)
				c.netBytes += size
				c.longest = max(c.longest, size)
			}
			active = append(active, c)
		}
		for _, p := range Policies()[1:] {
			for _, weighted := range []bool{false, true} {
				if weighted && p != Aalo {
					continue
				}
				a := newAllocator(ports, speed)
				var pol ratePolicy
				if p == Aalo {
					pol = newAalo(Options{AaloQueues: 3, AaloFirstLimit: 10, AaloMultiplier: 10, AaloWeighted: weighted}, ports)
				} else {
					pol = &orderPolicy{key: orderKeys[p]}
				}
				pol.allocate(a, active)
				var upUse, downUse [ports]float64
				for _, c := range active {
					for _, f := range c.flows {
						if f.next < 0 || (f.done && f.next != 0) {
							t.Fatalf("trial %d %s: flow %+v", trial, p, f)
						}
						upUse[f.src] += f.next
						downUse[f.dst] += f.next
					}
				}
				for q := range ports {
					if upUse[q] > speed*(1+1e-12) || downUse[q] > speed*(1+1e-12) {
						t.Fatalf("trial %d %s weighted=%v: port %d carries up %v down %v > %v", trial, p, weighted, q, upUse[q], downUse[q], speed)
					}
				}
				checkMaximal(t, active, speed)
				if p != Aalo {
					refillRandom(t, rng, a, active)
				}
			}
		}
	}
}

// The first coflow in MADD order finishes all its flows together at its
// bottleneck time on the free fabric.
func TestMADDFirstCoflowPaced(t *testing.T) {
	c := &coflowState{idx: 0, flows: []flowState{
		{src: 0, dst: 2, rem: 6}, {src: 1, dst: 2, rem: 2}, {src: 0, dst: 3, rem: 3},
	}}
	a := newAllocator(4, 1)
	a.reset([]*coflowState{c})
	a.madd(c)
	// up0 carries 9, down2 8: Γ = 9, every flow at rem/9.
	for _, f := range c.flows {
		if !near(f.next, f.rem/9) {
			t.Errorf("flow %d->%d rate %v, want %v", f.src, f.dst, f.next, f.rem/9)
		}
	}
}

// checkMaximal fails unless every port is within capacity and every
// unfinished flow has a full port (it could not grow).
func checkMaximal(t *testing.T, active []*coflowState, speed float64) {
	t.Helper()
	up, down := map[int]float64{}, map[int]float64{}
	for _, c := range active {
		for _, f := range c.flows {
			up[f.src] += f.next
			down[f.dst] += f.next
		}
	}
	for p := range up {
		if up[p] > speed*(1+1e-12) {
			t.Fatalf("uplink %d carries %v > %v", p, up[p], speed)
		}
	}
	for p := range down {
		if down[p] > speed*(1+1e-12) {
			t.Fatalf("downlink %d carries %v > %v", p, down[p], speed)
		}
	}
	for _, c := range active {
		for _, f := range c.flows {
			if !f.done && speed-up[f.src] > 1e-9 && speed-down[f.dst] > 1e-9 {
				t.Fatalf("flow %d->%d could grow (up %v, down %v used)", f.src, f.dst, up[f.src], down[f.dst])
			}
		}
	}
}

// refillRandom applies the allocation, finishes a few flows and checks that
// the refiller hands their bandwidth out without overfilling any port and
// leaves no flow that could grow.
func refillRandom(t *testing.T, rng *rand.Rand, a *allocator, active []*coflowState) {
	t.Helper()
	rf := newRefiller(len(a.up))
	for _, c := range active {
		c.left = 0
		for i := range c.flows {
			f := &c.flows[i]
			f.rate = f.next
			if !f.done {
				c.left++
			}
		}
		rf.add(c)
	}
	for _, c := range active {
		for i := range c.flows {
			if f := &c.flows[i]; !f.done && c.left > 1 && rng.IntN(3) == 0 {
				f.done = true
				c.left--
				rf.freed = append(rf.freed, flowRef{c, i})
			}
		}
	}
	rf.refill(a, func(ref flowRef) { ref.flow().rate = ref.flow().next })
	for _, c := range active {
		for i := range c.flows {
			if f := &c.flows[i]; f.done {
				f.next = 0
			} else {
				f.next = f.rate
			}
		}
	}
	checkMaximal(t, active, a.speed)
}

// Aalo never lets a coflow run past its queue's limit unnoticed: after every
// instant of the replay, each active coflow has sent less than its queue's
// limit. With a small first limit the synthetic trace crosses limits often,
// also between reallocations (after a refill raised a coflow's rate).
func TestAaloNoMissedCrossing(t *testing.T) {
	tr := synthetic(t, 5, 6, 40)
	steps := 0
	afterStep = func(r *replayer, now float64) {
		steps++
		for _, c := range r.active {
			if c.queue >= r.aalo.queues-1 {
				continue
			}
			for i := range c.flows {
				if f := &c.flows[i]; !f.done {
					f.rem = r.net.Remaining(f.id)
				}
			}
			if s, lim := sent(c), r.aalo.limit(c.queue); s > lim*(1+1e-6) {
				t.Fatalf("t=%v: coflow %d in queue %d sent %v, past its limit %v", now, c.idx, c.queue, s, lim)
			}
		}
	}
	defer func() { afterStep = nil }()
	for _, opt := range []Options{
		{Policy: Aalo}, {Policy: Aalo, AaloWeighted: true},
		{Policy: Aalo, IdleFreedBandwidth: true}, {Policy: Aalo, RescheduleOnFlowCompletion: true},
	} {
		opt.PortSpeed, opt.AaloFirstLimit, opt.AaloMultiplier = mib, mib/4, 3
		replay(t, tr, opt)
	}
	if steps < 100 {
		t.Fatalf("only %d steps checked", steps)
	}
}
