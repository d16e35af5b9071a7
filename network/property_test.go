package network

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// refFlow is a flow as the plain reference allocator sees it.
type refFlow struct {
	id       FlowID
	route    []int
	class    int
	cap      float64
	explicit float64 // < 0: max-min
	size     float64
	rem      float64
}

// refRates is progressive filling written as plainly as possible, per flow
// and from scratch: explicit rates first, then class by class, raise every
// unfrozen flow's rate together until a link fills or a cap is reached.
func refRates(caps []float64, fs []*refFlow) []float64 {
	rate := make([]float64, len(fs))
	res := slices.Clone(caps)
	var classes []int
	for i, f := range fs {
		if f.explicit >= 0 {
			rate[i] = f.explicit
			for _, l := range f.route {
				res[l] -= f.explicit
			}
		} else if !slices.Contains(classes, f.class) {
			classes = append(classes, f.class)
		}
	}
	for l := range res {
		res[l] = max(res[l], 0)
	}
	slices.Sort(classes)
	for _, c := range classes {
		var members []int
		for i, f := range fs {
			if f.explicit < 0 && f.class == c {
				members = append(members, i)
			}
		}
		frozen := make([]bool, len(fs))
		level := 0.0
		for {
			used := make([]float64, len(caps))
			cnt := make([]int, len(caps))
			left := 0
			for _, i := range members {
				r := rate[i]
				if !frozen[i] {
					r = level
					left++
				}
				for _, l := range fs[i].route {
					used[l] += r
					if !frozen[i] {
						cnt[l]++
					}
				}
			}
			if left == 0 {
				break
			}
			step := math.Inf(1)
			for l := range caps {
				if cnt[l] > 0 {
					step = min(step, (res[l]-used[l])/float64(cnt[l]))
				}
			}
			for _, i := range members {
				if !frozen[i] && fs[i].cap > 0 {
					step = min(step, fs[i].cap-level)
				}
			}
			step = max(step, 0)
			level += step
			for l := range caps {
				used[l] += float64(cnt[l]) * step
			}
			for _, i := range members {
				if frozen[i] {
					continue
				}
				if fs[i].cap > 0 && fs[i].cap <= level*(1+1e-12) {
					frozen[i], rate[i] = true, fs[i].cap
					continue
				}
				for _, l := range fs[i].route {
					if res[l]-used[l] <= 1e-12*caps[l] {
						frozen[i], rate[i] = true, level
						break
					}
				}
			}
		}
		for _, i := range members {
			for _, l := range fs[i].route {
				res[l] = max(0, res[l]-rate[i])
			}
		}
	}
	return rate
}

// refRoute follows the documented routing rules independently of topology.go.
func refRoute(cfg Config, src, dst int, fromRack bool) []int {
	rs, rd := cfg.Machines[src].Rack, cfg.Machines[dst].Rack
	if cfg.Kind == TwoTier && rs != rd {
		rb := 2 * len(cfg.Machines)
		if fromRack {
			return []int{rb + 2*rs, rb + 2*rd + 1, 2*dst + 1}
		}
		return []int{2 * src, rb + 2*rs, rb + 2*rd + 1, 2*dst + 1}
	}
	return []int{2 * src, 2*dst + 1}
}

// refSim advances the reference flows by dt, returning completions.
func refSim(caps []float64, fs []*refFlow, now, dt float64) ([]*refFlow, []Completion) {
	var done []Completion
	end := now + dt
	for len(fs) > 0 {
		rate := refRates(caps, fs)
		step := end - now
		for i, f := range fs {
			if rate[i] > 0 {
				step = min(step, f.rem/rate[i])
			}
		}
		now += step
		kept := fs[:0]
		for i, f := range fs {
			f.rem -= rate[i] * step
			if f.rem <= 1e-9*f.size {
				done = append(done, Completion{ID: f.id, Time: now, Size: f.size})
			} else {
				kept = append(kept, f)
			}
		}
		fs = kept
		if now >= end {
			break
		}
	}
	return fs, done
}

func checkAllocation(t *rapid.T, n *Network, cfg Config, fs []*refFlow) {
	caps := make([]float64, len(n.Links()))
	maxCap := 0.0
	for i, li := range n.Links() {
		caps[i] = li.Capacity
		maxCap = max(maxCap, li.Capacity)
	}
	tol := 1e-9 * maxCap
	load := n.LinkLoad()
	for l := range caps {
		if load[l] > caps[l]+tol {
			t.Fatalf("link %d load %v above capacity %v", l, load[l], caps[l])
		}
	}
	checkEntries(t, n)
	checkEventKeys(t, n)
	want := refRates(caps, fs)
	got := make([]float64, len(fs))
	for i, f := range fs {
		got[i] = n.Rate(f.id)
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("flow %d (%+v): rate %v, reference %v", f.id, *f, got[i], want[i])
		}
	}
	// Max-min optimality: every shared flow below its cap has a bottleneck,
	// a link full with its own and higher classes on which no flow of its
	// class is faster.
	for i, f := range fs {
		if f.explicit >= 0 || f.cap > 0 && got[i] >= f.cap-tol {
			continue
		}
		ok := false
		for _, l := range f.route {
			used, fastest := 0.0, 0.0
			for j, g := range fs {
				if !slices.Contains(g.route, l) {
					continue
				}
				if g.explicit >= 0 || g.class <= f.class {
					used += got[j]
				}
				if g.explicit < 0 && g.class == f.class {
					fastest = max(fastest, got[j])
				}
			}
			if used >= caps[l]-tol && got[i] >= fastest-tol {
				ok = true
				break
			}
		}
		if !ok {
			t.Fatalf("flow %d (%+v) at rate %v has no bottleneck", f.id, *f, got[i])
		}
	}
}

// checkEntries verifies the bottleneck structure against the bundles
// (group.go): every bundle is in a group after an allocation; a group's
// counts, member heap, capped list and edges match its members; every
// out-edge has its mirror in-edge and lists exactly the members that cross
// its link; and each class's load on a link is what its groups put there.
func checkEntries(t *rapid.T, n *Network) {
	maxCap := 0.0
	for i := range n.links {
		maxCap = max(maxCap, n.links[i].cap)
	}
	inGroup := map[*bundle]bool{}
	for _, g := range n.groups {
		if g.dead || n.groups[g.gi] != g {
			t.Fatalf("group %p: dead %v or misplaced (gi %d)", g, g.dead, g.gi)
		}
		nf, nk := 0.0, [3]float64{}
		want := map[int32]float64{}
		members := map[int32]map[*bundle]bool{}
		capped := 0
		for i, m := range g.bh {
			b := m.b
			if m.gkey != b.gkey() || m.seq != b.seq {
				t.Fatalf("group %p member %d: heap key (%v, %d), the bundle's (%v, %d)", g, i, m.gkey, m.seq, b.gkey(), b.seq)
			}
			if b.g != g || int(b.gidx) != i || b.retired {
				t.Fatalf("group %p member %d: bundle %v in group %p at %d (retired %v)", g, i, b.key, b.g, b.gidx, b.retired)
			}
			if i > 0 && m.less(g.bh[(i-1)/2]) {
				t.Fatalf("group %p: member heap out of order at %d", g, i)
			}
			if b.cls != g.cls || g.kind == gCap && b.capv != g.capv {
				t.Fatalf("bundle %v (class %d cap %v) in group of class %d kind %d cap %v", b.key, b.cls, b.capv, g.cls, g.kind, g.capv)
			}
			if (b.cidx >= 0) != (b.capv > 0 && g.kind == gLink) || b.cidx >= 0 && g.capped[b.cidx] != b {
				t.Fatalf("bundle %v: capped index %d wrong", b.key, b.cidx)
			}
			if b.cidx >= 0 {
				capped++
			}
			inGroup[b] = true
			nf += b.nf
			nk[b.kind] += b.nf
			if g.kind == gExplicit {
				continue
			}
			onOwn := false
			for _, l := range b.links() {
				if l == g.link {
					onOwn = true
					continue
				}
				want[l] += b.nf
				if members[l] == nil {
					members[l] = map[*bundle]bool{}
				}
				members[l][b] = true
			}
			if g.kind == gLink && !onOwn {
				t.Fatalf("bundle %v (route %v) in the group of link %d it does not cross", b.key, b.links(), g.link)
			}
		}
		if nf != g.nf || nk != g.nk || capped != len(g.capped) {
			t.Fatalf("group %p: nf %v nk %v capped %d; members give %v %v %d", g, g.nf, g.nk, len(g.capped), nf, nk, capped)
		}
		switch g.kind {
		case gLink:
			if g.cs.hot[g.link].g != g {
				t.Fatalf("group %p of link %d is not the link's group", g, g.link)
			}
		case gCap:
			if g.cs.caps[g.capv] != g {
				t.Fatalf("cap group %p (%v) is not its class's", g, g.capv)
			}
		}
		if len(g.out) != len(want) {
			t.Fatalf("group %p: %d out-edges, members cross %d other links", g, len(g.out), len(want))
		}
		for i, o := range g.out {
			if g.eix[o.l] != int32(i)+1 || want[o.l] != o.w {
				t.Fatalf("group %p edge %d to link %d: eix %d, w %v, members give %v", g, i, o.l, g.eix[o.l], o.w, want[o.l])
			}
			in := g.cs.ls[o.l].in[o.ii]
			if in.g != g || in.w != o.w || in.oi != int32(i) {
				t.Fatalf("group %p edge %d: mirror %+v", g, i, in)
			}
			seen := 0
			var prev *bundle
			for b := o.head; b != nil; b = b.enext[b.slot(o.l)] {
				if !members[o.l][b] || b.eprev[b.slot(o.l)] != prev {
					t.Fatalf("group %p edge to %d: bundle %v wrongly listed", g, o.l, b.key)
				}
				prev = b
				seen++
			}
			if seen != len(members[o.l]) {
				t.Fatalf("group %p edge to %d lists %d bundles, %d cross", g, o.l, seen, len(members[o.l]))
			}
		}
	}
	for _, b := range n.all {
		if !inGroup[b] {
			t.Fatalf("bundle %v is in no group after an allocation", b.key)
		}
	}
	for _, cs := range n.classList {
		for l := range cs.ls {
			cl := &cs.ls[l]
			load := 0.0
			if g := cs.hot[l].g; g != nil {
				load += g.rate * g.nf
			}
			for i, e := range cl.in {
				if e.g.dead || e.g.cs != cs || e.g.out[e.oi].l != int32(l) || e.g.out[e.oi].ii != int32(i) {
					t.Fatalf("class %d link %d in-edge %d: %+v does not mirror an out-edge", cs.c, l, i, e)
				}
				load += e.g.rate * e.w
			}
			if math.Abs(load-cl.load) > 1e-9*maxCap {
				t.Fatalf("class %d link %d: load %v, its groups put %v", cs.c, l, cl.load, load)
			}
		}
	}
	for l := range n.links {
		ln := &n.links[l]
		load := ln.exp
		for _, cs := range n.classList {
			load += cs.ls[l].load
		}
		if load != ln.load {
			t.Fatalf("link %d: load %v, explicit + classes %v", l, ln.load, load)
		}
	}
}

// checkEventKeys verifies that every group with a completion ahead is in
// the event heap under a key no later than that completion, to the last
// bit: a key above it would let later events run first.
func checkEventKeys(t *rapid.T, n *Network) {
	for _, g := range n.groups {
		switch {
		case g.next != g.nextFinish():
			t.Fatalf("group %p: cached completion %v, now %v", g, g.next, g.nextFinish())
		case g.hidx < 0 && g.next < Inf:
			t.Fatalf("group %p completes at %v but is not in the event heap", g, g.next)
		case g.hidx >= 0 && n.events[g.hidx].next > g.next:
			t.Fatalf("group %p: event key %v above its completion %v", g, n.events[g.hidx].next, g.next)
		case g.hidx >= 0 && n.events[g.hidx].next != g.hkey:
			t.Fatalf("group %p: event key %v, its copy %v", g, n.events[g.hidx].next, g.hkey)
		}
	}
}

// TestPropertyMatchesReference drives random small networks through random
// starts, cancels, class/cap/rate changes and time steps, checking after
// every operation that the allocation is feasible, max-min optimal and equal
// to the reference allocator, and that completions match a reference
// simulation built on it.
func TestPropertyMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nm := rapid.IntRange(2, 6).Draw(t, "machines")
		per := rapid.IntRange(1, 3).Draw(t, "perRack")
		cfg := Config{Kind: rapid.SampledFrom([]Kind{NonBlocking, TwoTier}).Draw(t, "kind")}
		cfg.Oversubscription = float64(rapid.IntRange(1, 4).Draw(t, "oversub"))
		for i := range nm {
			cfg.Machines = append(cfg.Machines, Machine{Rack: i / per,
				NICUp:   float64(rapid.IntRange(1, 10).Draw(t, "up")) * 10,
				NICDown: float64(rapid.IntRange(1, 10).Draw(t, "down")) * 10})
		}
		cfg.Monitor.Interval = -1
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		caps := make([]float64, len(n.Links()))
		for i, li := range n.Links() {
			caps[i] = li.Capacity
		}
		var fs []*refFlow
		all := map[FlowID]*refFlow{}
		now := 0.0
		steps := rapid.IntRange(1, 40).Draw(t, "steps")
		for range steps {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op <= 3:
				src := rapid.IntRange(0, nm-1).Draw(t, "src")
				dst := rapid.IntRange(0, nm-2).Draw(t, "dst")
				if dst >= src {
					dst++
				}
				f := FlowSpec{Src: src, Dst: dst, Size: float64(rapid.IntRange(1, 500).Draw(t, "size")),
					Class: rapid.IntRange(0, 2).Draw(t, "class")}
				if rapid.IntRange(0, 3).Draw(t, "capped") == 0 {
					f.RateCap = float64(rapid.IntRange(1, 60).Draw(t, "cap"))
				}
				if cfg.Kind == TwoTier && cfg.Machines[src].Rack != cfg.Machines[dst].Rack {
					f.FromRack = rapid.Bool().Draw(t, "fromRack")
				}
				id, err := n.Start(now, f)
				if err != nil {
					t.Fatal(err)
				}
				all[id] = &refFlow{id: id, route: refRoute(cfg, src, dst, f.FromRack), class: f.Class,
					cap: f.RateCap, explicit: -1, size: f.Size, rem: f.Size}
				fs = append(fs, all[id])
			case op == 4 && len(fs) > 0:
				i := rapid.IntRange(0, len(fs)-1).Draw(t, "cancel")
				n.Cancel(now, fs[i].id)
				fs = slices.Delete(fs, i, i+1)
			case op == 5 && len(fs) > 0:
				f := fs[rapid.IntRange(0, len(fs)-1).Draw(t, "reclass")]
				f.class = rapid.IntRange(0, 2).Draw(t, "class")
				n.SetClass(now, f.id, f.class)
			case op == 6 && len(fs) > 0:
				f := fs[rapid.IntRange(0, len(fs)-1).Draw(t, "recap")]
				f.cap = float64(rapid.IntRange(0, 60).Draw(t, "cap"))
				n.SetRateCap(now, f.id, f.cap)
			case op == 7 && len(fs) > 0:
				// Explicit rates stay feasible: at most 40 pins of 0.05 B/s
				// each, links >= 10/4 B/s.
				f := fs[rapid.IntRange(0, len(fs)-1).Draw(t, "pin")]
				f.explicit = -1
				if v := rapid.IntRange(-1, 1).Draw(t, "rate"); v >= 0 {
					f.explicit = float64(v) * 0.05
				}
				n.SetRate(now, f.id, f.explicit)
			default:
				dt := float64(rapid.IntRange(0, 40).Draw(t, "dt")) / 8
				var want, got []Completion
				fs, want = refSim(caps, fs, now, dt)
				now += dt
				got = runUntil(n, now)
				fs, want = reconcileBoundary(n, all, fs, got, want, now)
				if len(got) != len(want) {
					t.Fatalf("t=%v: %d completions %+v, reference %d %+v", now, len(got), got, len(want), want)
				}
				// Completions within float noise of each other may come in
				// either order: compare by (rounded time, id).
				byTime := func(a, b Completion) int {
					if a.Time != b.Time && !near(a.Time, b.Time) {
						return int(math.Copysign(1, a.Time-b.Time))
					}
					return int(a.ID - b.ID)
				}
				slices.SortFunc(want, byTime)
				got = slices.Clone(got)
				slices.SortFunc(got, byTime)
				for i := range got {
					if got[i].ID != want[i].ID || math.Abs(got[i].Time-want[i].Time) > 1e-7*max(1, want[i].Time) {
						t.Fatalf("t=%v completion %d: got %+v, reference %+v", now, i, got, want)
					}
				}
				for _, f := range fs {
					if r := n.Remaining(f.id); math.Abs(r-f.rem) > 1e-7*f.size {
						t.Fatalf("flow %d remaining %v, reference %v", f.id, r, f.rem)
					}
				}
			}
			checkAllocation(t, n, cfg, fs)
		}
	})
}

// reconcileBoundary settles completions that fall on the end of a time step
// within floating-point noise: the network and the reference may put such a
// flow on either side of the boundary, and both are right.
func reconcileBoundary(n *Network, all map[FlowID]*refFlow, fs []*refFlow, got, want []Completion, end float64) ([]*refFlow, []Completion) {
	onEdge := func(t float64) bool { return math.Abs(t-end) <= 1e-9*max(1, end) }
	in := func(cs []Completion, id FlowID) bool {
		return slices.ContainsFunc(cs, func(c Completion) bool { return c.ID == id })
	}
	// Reference finished it at the boundary, the network has a sliver left:
	// keep it in the reference with the network's remainder.
	for i := 0; i < len(want); i++ {
		c := want[i]
		if !in(got, c.ID) && onEdge(c.Time) && n.Remaining(c.ID) <= 1e-7*c.Size {
			f := all[c.ID]
			f.rem = n.Remaining(c.ID)
			fs = append(fs, f)
			want = slices.Delete(want, i, i+1)
			i--
		}
	}
	// Network finished it at the boundary, the reference has a sliver left.
	for _, c := range got {
		if in(want, c.ID) || !onEdge(c.Time) {
			continue
		}
		for i, f := range fs {
			if f.id == c.ID && f.rem <= 1e-7*f.size {
				fs = slices.Delete(fs, i, i+1)
				want = append(want, c)
				break
			}
		}
	}
	return fs, want
}

// TestPropertyHybrid runs random elephants and mice on hybrid networks
// through reconfigurations: the allocation over the routes the flows
// actually take must match the reference, no link may exceed its capacity,
// and elephants must ride exactly the circuits that are up.
func TestPropertyHybrid(t *testing.T) { rapid.Check(t, hybridProperty) }

// TestPropertyHybridFound replays the cases TestPropertyHybrid once found
// (rapid fail files in testdata/found): an elephant moved to the circuit
// used to bring its old rate along in its new links' entries, as if the last
// allocation had given it there (flow 1 got 20.83 instead of 20).
func TestPropertyHybridFound(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "found", "TestPropertyHybrid-*.fail"))
	if len(files) == 0 {
		t.Fatal("no fail files in testdata/found")
	}
	ff := flag.Lookup("rapid.failfile")
	defer ff.Value.Set(ff.Value.String())
	for _, f := range files {
		if err := ff.Value.Set(f); err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { rapid.Check(t, hybridProperty) })
	}
}

func hybridProperty(t *rapid.T) {
	{
		racks := rapid.IntRange(2, 4).Draw(t, "racks")
		// Draws -1, 0 and 1..3 are instant circuits, the default delay and
		// tenths of a second (the draws the recorded failures replay).
		delay := []float64{0, DefaultOCSDelay, 0.1, 0.2, 0.3}[rapid.IntRange(-1, 3).Draw(t, "delay")+1]
		cfg := Config{Kind: Hybrid, Machines: machines(2*racks, 2, 100), Oversubscription: 4,
			OCS: OCSConfig{PortSpeed: 50, Interval: 1, Delay: delay, ElephantThreshold: 100}}
		cfg.Monitor.Interval = -1
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		now := 0.0
		for range rapid.IntRange(1, 30).Draw(t, "steps") {
			if rapid.Bool().Draw(t, "start") {
				src := rapid.IntRange(0, 2*racks-1).Draw(t, "src")
				dst := rapid.IntRange(0, 2*racks-2).Draw(t, "dst")
				if dst >= src {
					dst++
				}
				size := float64(rapid.IntRange(1, 400).Draw(t, "size"))
				if _, err := n.Start(now, FlowSpec{Src: src, Dst: dst, Size: size, Class: rapid.IntRange(0, 1).Draw(t, "class")}); err != nil {
					t.Fatal(err)
				}
			} else {
				now += float64(rapid.IntRange(1, 12).Draw(t, "dt")) / 4
				runUntil(n, now)
			}
			n.flush()
			circ, ready := n.Circuits()
			var fs []*refFlow
			for id := FlowID(1); id <= n.lastID; id++ {
				fl := n.flow(id)
				if fl == nil {
					continue
				}
				b := fl.b
				ri, rj := cfg.Machines[b.key.src].Rack, cfg.Machines[b.key.dst].Rack
				onOCS := b.kind == pathOCS
				wantOCS := fl.elephant && circ[ri] == rj && ready[ri] <= now
				if onOCS != wantOCS {
					t.Fatalf("t=%v flow %d (racks %d->%d, elephant %v) on OCS = %v, circuits %v ready %v",
						now, id, ri, rj, fl.elephant, onOCS, circ, ready)
				}
				fs = append(fs, routedRefFlow(fl))
			}
			checkAllocation(t, n, cfg, fs)
		}
	}
}

// routedRefFlow is a max-min flow for the reference allocator, on the route
// its bundle actually takes.
func routedRefFlow(fl *flow) *refFlow {
	var route []int
	for _, l := range fl.b.links() {
		route = append(route, int(l))
	}
	return &refFlow{id: fl.id, route: route, class: int(fl.b.key.class), explicit: -1}
}

var refSeeds = flag.Int("ref.seeds", 6, "random workloads of TestLargeMatchesReference")

// TestLargeMatchesReference drives larger networks (24 machines, up to
// hundreds of flows in three classes, with caps and explicit rates) through
// 1,500 random operations, checking every active flow's rate against the
// reference allocator after every internal event and every operation.
// -ref.seeds=2000 for a long run.
func TestLargeMatchesReference(t *testing.T) {
	for seed := range uint64(*refSeeds) {
		cfg := Config{Machines: machines(24, 6, 100), Monitor: MonitorConfig{Interval: -1}}
		if seed%2 == 1 {
			cfg.Kind, cfg.Oversubscription = TwoTier, 3
		}
		largeRun(t, cfg, seed)
	}
}

func largeRun(t *testing.T, cfg Config, seed uint64) {
	n := mustNew(t, cfg)
	caps := make([]float64, len(n.Links()))
	for i, li := range n.Links() {
		caps[i] = li.Capacity
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	var ids []FlowID
	all := map[FlowID]*refFlow{}
	check := func(at string) bool {
		var fs []*refFlow
		for _, id := range ids {
			if f := all[id]; f != nil {
				fs = append(fs, f)
			}
		}
		want := refRates(caps, fs)
		for i, f := range fs {
			if got := n.Rate(f.id); math.Abs(got-want[i]) > 1e-9 {
				t.Errorf("seed %d %s: flow %d %+v: rate %v, reference %v", seed, at, f.id, *f, got, want[i])
				return false
			}
		}
		return true
	}
	now := 0.0
	M := len(cfg.Machines)
	for step := range 1500 {
		now += rng.ExpFloat64() * 0.02
		for {
			te := n.NextEvent()
			if te > now {
				break
			}
			n.AdvanceTo(te, func(c Completion) { delete(all, c.ID) })
			if !check(fmt.Sprintf("event at %v", te)) {
				return
			}
		}
		n.AdvanceTo(now, func(c Completion) { delete(all, c.ID) })
		switch op := rng.IntN(10); {
		case op < 5 || len(ids) == 0:
			s, d := rng.IntN(M), rng.IntN(M-1)
			if d >= s {
				d++
			}
			f := FlowSpec{Src: s, Dst: d, Size: 1 + rng.Float64()*100, Class: rng.IntN(3)}
			if rng.IntN(6) == 0 {
				f.RateCap = 1 + float64(rng.IntN(40))
			}
			f.FromRack = cfg.Kind == TwoTier && cfg.Machines[s].Rack != cfg.Machines[d].Rack && rng.IntN(4) == 0
			id := mustStart(t, n, now, f)
			ids = append(ids, id)
			all[id] = &refFlow{id: id, route: refRoute(cfg, s, d, f.FromRack), class: f.Class, cap: f.RateCap, explicit: -1}
		case op == 5:
			id := ids[rng.IntN(len(ids))]
			n.Cancel(now, id)
			delete(all, id)
		case op == 6:
			id, c := ids[rng.IntN(len(ids))], rng.IntN(3)
			n.SetClass(now, id, c)
			if f := all[id]; f != nil {
				f.class = c
			}
		case op == 7:
			id, c := ids[rng.IntN(len(ids))], float64(rng.IntN(30))
			n.SetRateCap(now, id, c)
			if f := all[id]; f != nil {
				f.cap = c
			}
		case op == 8:
			id, r := ids[rng.IntN(len(ids))], -1.0
			if rng.IntN(3) > 0 {
				r = rng.Float64() * 0.5
			}
			n.SetRate(now, id, r)
			if f := all[id]; f != nil {
				f.explicit = r
			}
		}
		if !check(fmt.Sprintf("step %d", step)) {
			return
		}
	}
}
