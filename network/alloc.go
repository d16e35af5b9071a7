package network

import (
	"cmp"
	"math"
	"slices"
)

// Allocation: strict priority between classes, max-min fair (progressive
// filling) within a class, explicit rates before everything.
//
// The allocator works on bottleneck groups (group.go), not on bundles, and
// it is incremental. A water-fill freezes groups in increasing order of
// level; a change (a bundle created, resized, re-routed or removed, or the
// capacity a class is left on a link) can only alter the run from the lowest
// level λ* at which one of the links it touches saturates, in the old run or
// in the new one. Every group whose level is below λ* keeps it. So a pass
// for class c
//
//  1. computes λ* over the seed links (links of changed bundles, and links
//     whose load from higher classes changed),
//  2. collects the region: groups of class c with level >= λ* connected to
//     the seeds through the links they cross (and the changed bundles),
//  3. water-fills the region group by group over what the rest leaves on
//     its links: when a link saturates, its own group freezes at the level
//     as a whole, and the bundles of still-rising groups that cross it move
//     to it (they changed bottleneck);
//  4. reports the links whose load changed as seeds for lower classes.
//
// Cost of a pass: O(sum over seed links of their in-edges) for λ*, plus
// O(sum over the region's links of their in-edges + the region groups'
// out-edges) for the search and the fill, plus O(log links) per link
// saturation and O(route) per bundle that changes group. A group's level
// change is O(1) (its service clock), whatever its bundles. Groups outside
// the region are not touched.

type allocScratch struct {
	wl       levelHeap // shift's worklist
	chk      []int32   // shift's links to install (checked when without a group)
	spec     []*group  // groups shift re-levelled
	moves    []move    // bundles shift moved
	made     []*group  // groups shift created
	sep      uint64    // the shift in progress
	distinct int       // link groups it re-levels
	classes  []int
	seeds    []int32
	queue    []int32 // links of the region, in visiting order
	pairs    []pair  // the class's changed bundles by link (f0, f1 in clink)
	capev    []capEvent
	region   []*group
	delta    []int32 // links whose load changed in this allocation
	lh       levelHeap
	vis      uint64 // the pass in progress: region marks
	seedEp   uint64 // its seeds and pairs
	cut      float64
	// dead counts the link heap's entries whose links have no unfrozen
	// flows left (all frozen on other links): they are dropped in bulk.
	dead int
}

// pair: changed bundle b crosses link l.
type pair struct {
	l   int32
	seq uint64 // b.seq, copied so that sorting reads no bundle
	b   *bundle
}

// capEvent: a rate cap the fill reaches at level capv: a cap group, or a
// capped bundle of a rising group (or a free one).
type capEvent struct {
	capv float64
	seq  uint64
	g    *group
	b    *bundle
}

// relTol absorbs float noise when comparing levels and loads.
const relTol = 1e-9

// flush recomputes rates if anything changed since the last allocation
// (with a Granularity, only on a grid point: the changes wait for the next).
func (n *Network) flush() {
	if n.unallocated() && (n.cfg.Granularity == 0 || n.onGrid(n.now)) {
		n.allocate()
	}
}

// unallocated reports changes not yet allocated.
func (n *Network) unallocated() bool { return len(n.dirty) > 0 || len(n.changed) > 0 }

func (n *Network) allocate() {
	a := &n.alloc
	n.Allocations++
	n.epoch++
	allocEp := n.epoch
	n.allocEp = allocEp
	a.delta = a.delta[:0]

	// Explicit rates are fixed: install them, then their links' loads.
	for _, b := range n.changed {
		if !b.retired && b.cls == explicitClass {
			n.installExplicit(b)
		}
	}
	start := math.MaxInt
	a.classes = a.classes[:0]
	for _, d := range n.dirty {
		if d.class == explicitClass {
			start = explicitClass
			if ln := &n.links[d.l]; ln.mark != allocEp { // once per link
				ln.mark = allocEp
				n.refreshLoad(d.l)
			}
			continue
		}
		start = min(start, d.class)
		a.classes = append(a.classes, d.class)
	}
	// Lower classes than the changed ones may be affected through the
	// loads the changed ones leave: they are candidates too.
	for _, cs := range n.classList {
		if cs.c > start {
			a.classes = append(a.classes, cs.c)
		}
	}
	slices.Sort(a.classes)
	a.classes = slices.Compact(a.classes)
	for _, c := range a.classes {
		if cs := n.classes[c]; cs != nil && c >= start {
			n.pass(cs)
		}
	}
	for _, b := range n.changed {
		b.changed = false
	}
	clear(n.changed)
	n.changed = n.changed[:0]
	n.dirty = n.dirty[:0]
	for _, g := range n.resched {
		g.queued = false
		if g.dead {
			if g.kind != gExplicit {
				n.spare = append(n.spare, g)
			}
			continue
		}
		n.reschedule(g)
	}
	clear(n.resched)
	n.resched = n.resched[:0]
	for i := 0; i < len(n.classList); i++ {
		if cs := n.classList[i]; cs.count == 0 && n.emptyClass(cs) {
			delete(n.classes, cs.c)
			n.classList = slices.Delete(n.classList, i, i+1)
			i--
		}
	}
}

// emptyClass reports whether a class without bundles has no load left.
func (n *Network) emptyClass(cs *classState) bool {
	for i := range cs.ls {
		if cs.ls[i].load != 0 || cs.hot[i].g != nil || len(cs.ls[i].in) != 0 {
			return false
		}
	}
	return len(cs.caps) == 0
}

// installExplicit gives an explicit-rate bundle its rate (its own group) and
// its links the load.
func (n *Network) installExplicit(b *bundle) {
	r := b.key.explicit
	if b.g == nil {
		g := n.initGroup(b.own, gExplicit, nil, -1, 0)
		g.rate = r
		n.enter(b, g)
		for _, l := range b.links() {
			n.links[l].nexp++
		}
	} else {
		n.setRate(b.g, r)
	}
	if d := b.nf*r - b.expInst; d != 0 {
		for _, l := range b.links() {
			n.links[l].exp += d
		}
		b.expInst = b.nf * r
	}
	n.touch(b.g)
}

// residual is the capacity explicit rates and the classes before cs leave
// on link l (negative when they overbook it).
func (n *Network) residual(cs *classState, l int32) float64 {
	ln := &n.links[l]
	r := ln.cap - ln.exp
	for _, o := range n.classList {
		if o.c >= cs.c {
			break
		}
		r -= o.ls[l].load
	}
	return r
}

// pass re-fills class cs around what changed.
func (n *Network) pass(cs *classState) {
	a := &n.alloc
	c := cs.c
	n.epoch++
	seedEp := n.epoch
	a.seedEp = seedEp
	a.seeds = a.seeds[:0]
	addSeed := func(l int32) {
		if cl := &cs.ls[l]; cl.vis != seedEp {
			cl.vis = seedEp
			a.seeds = append(a.seeds, l)
		}
	}
	for _, d := range n.dirty {
		if d.class == c {
			addSeed(d.l)
		}
	}
	for _, l := range a.delta {
		addSeed(l)
	}
	if len(a.seeds) == 0 {
		return
	}
	if n.shift(cs) {
		n.Shifts++
		return
	}
	// The class's changed bundles, by link.
	a.pairs = a.pairs[:0]
	for _, b := range n.changed {
		if !b.retired && int(b.cls) == c {
			for _, l := range b.links() {
				a.pairs = append(a.pairs, pair{l, b.seq, b})
			}
		}
	}
	slices.SortFunc(a.pairs, func(x, y pair) int {
		if x.l != y.l {
			return cmp.Compare(x.l, y.l)
		}
		return cmp.Compare(x.seq, y.seq)
	})
	for i := 0; i < len(a.pairs); {
		l, j := a.pairs[i].l, i+1
		for j < len(a.pairs) && a.pairs[j].l == l {
			j++
		}
		cl := &cs.ls[l]
		cl.pe, cl.f0, cl.f1 = seedEp, int32(i), int32(j)
		i = j
	}
	lambda := Inf
	for _, l := range a.seeds {
		lambda = n.divergence(cs, l, lambda)
	}
	a.cut = lambda * (1 - relTol)

	// Region search. Link visits also sum what the rest of the link
	// carries: the class's groups below cut.
	n.epoch++
	vis := n.epoch
	a.vis = vis
	a.queue, a.region, a.capev = a.queue[:0], a.region[:0], a.capev[:0]
	for _, l := range a.seeds {
		cs.ls[l].vis = vis
		a.queue = append(a.queue, l)
	}
	for _, p := range a.pairs {
		if b := p.b; b.g == nil && b.mark != vis { // free bundles are in every region
			b.mark = vis
			if b.capv > 0 {
				a.capev = append(a.capev, capEvent{capv: b.capv, seq: b.seq, b: b})
			}
		}
		n.enqueue(cs, p.l)
	}
	for i := 0; i < len(a.queue); i++ {
		n.scan(cs, a.queue[i])
	}
	n.waterFill(cs)
	for _, l := range a.queue {
		cl := &cs.ls[l]
		n.setClassLoad(cs, l, cl.rest+cl.frozen)
	}
	for _, g := range a.region {
		if g.nf == 0 && !g.dead {
			n.dropGroup(g)
		}
	}
}

func (n *Network) enqueue(cs *classState, l int32) {
	a := &n.alloc
	if cl := &cs.ls[l]; cl.vis != a.vis {
		cl.vis = a.vis
		a.queue = append(a.queue, l)
	}
}

// changedOn is the class's changed bundles crossing l in this pass.
func (n *Network) changedOn(cl *clink) []pair {
	if cl.pe != n.alloc.seedEp {
		return nil
	}
	return n.alloc.pairs[cl.f0:cl.f1]
}

// scan sums link l's load outside the region and its region flows, adding
// to the region the groups that cross it at or above the cut.
func (n *Network) scan(cs *classState, l int32) {
	a := &n.alloc
	vis, cut := a.vis, a.cut
	cl := &cs.ls[l]
	rest, weight, win := 0.0, 0.0, 0.0
	if g := cs.hot[l].g; g != nil {
		// The link's own group is in the region whenever the link is (it is
		// normally at or above the cut anyway: no group crossing the link
		// is faster than it).
		if g.mark != vis {
			n.addRegion(cs, g)
		}
		weight += g.nf
	}
	for k := range cl.in {
		e := &cl.in[k]
		if g := e.g; g.mark == vis || g.rate >= cut {
			if g.mark != vis {
				n.addRegion(cs, g)
			}
			weight += e.w
			win += e.w
		} else {
			rest += e.w * g.rate
		}
	}
	for _, p := range n.changedOn(cl) {
		if p.b.g == nil {
			weight += p.b.nf
		}
	}
	cl.rest, cl.weight, cl.win, cl.frozen = rest, weight, win, 0
	cl.res = max(0, n.residual(cs, l)-rest)
	cl.scan = vis
	cl.inHeap = false
}

// addRegion puts g in the region: its links are searched, its caps become
// events of the fill.
func (n *Network) addRegion(cs *classState, g *group) {
	a := &n.alloc
	vis := a.vis
	g.mark = vis
	g.frozen = false
	a.region = append(a.region, g)
	if g.kind == gLink {
		n.enqueue(cs, g.link)
	}
	// A group below the cut enters only as its link's own group; links
	// already scanned counted it as rest.
	forced := g.rate < a.cut
	for _, o := range g.out {
		cl := &cs.ls[o.l]
		if cl.vis != vis {
			cl.vis = vis
			a.queue = append(a.queue, o.l)
		} else if forced && cl.scan == vis {
			cl.rest -= o.w * g.rate
			cl.res = max(0, n.residual(cs, o.l)-cl.rest)
			cl.weight += o.w
			cl.win += o.w
		}
	}
	if g.kind == gCap {
		a.capev = append(a.capev, capEvent{capv: g.capv, seq: g.seq, g: g})
	} else {
		for _, b := range g.capped {
			a.capev = append(a.capev, capEvent{capv: b.capv, seq: b.seq, b: b})
		}
	}
	n.AllocatedBundles += int64(len(g.bh))
}

// divergence is a lower bound on the per-flow level at which class cs's
// water-fill on seed link l may differ between the old allocation and the
// new one: the lower of
//   - where l stopped the class before: if l was full, no group of the class
//     on it rose above the fastest of them (exact when l saturated during the
//     class, lower otherwise, 0 when a higher class filled it);
//   - where l saturates now if every other bundle of the class kept its old
//     rate and the changed ones rise freely up to their caps.
//
// Levels at or above bound (the best found so far) need no precision.
func (n *Network) divergence(cs *classState, l int32, bound float64) float64 {
	ln := &n.links[l]
	cl := &cs.ls[l]
	before := ln.load
	if ln.loadEp == n.allocEp {
		before = ln.oldLoad
	}
	full := before >= ln.cap*(1-relTol)
	fastest, w := 0.0, 0.0
	if g := cs.hot[l].g; g != nil {
		fastest = g.rate
		w += g.nf
	}
	for k := range cl.in {
		e := &cl.in[k]
		fastest = max(fastest, e.g.rate)
		w += e.w
	}
	chg := n.changedOn(cl)
	for _, p := range chg {
		if p.b.g == nil { // (a free bundle had no rate on these links)
			w += p.b.nf
		}
	}
	old := Inf
	if full {
		old = fastest
	}
	old = min(old, bound)
	avail := n.residual(cs, l)
	if avail <= 0 {
		return 0
	}
	if w == 0 {
		return old
	}
	// New saturation level: the smallest λ with sum n·min(λ, ρ) = avail,
	// where ρ is the old rate, or the cap (Inf if none) of a changed
	// bundle. Fixed-point iteration from avail/w: every step freezes the
	// flows below the level and raises it; it stops in at most as many
	// steps as there are distinct ρ, usually two or three.
	lvl := avail / w
	if lvl >= old {
		return old // the level only rises from here
	}
	for {
		frozen, left := 0.0, 0.0
		if g := cs.hot[l].g; g != nil {
			if g.rate < lvl {
				frozen += g.rate * g.nf
			} else {
				left += g.nf
			}
		}
		for k := range cl.in {
			e := &cl.in[k]
			if r := e.g.rate; r < lvl {
				frozen += r * e.w
			} else {
				left += e.w
			}
		}
		for _, p := range chg {
			b := p.b
			if g := b.g; g != nil { // counted at its group's rate above: count it as changed
				if g.rate < lvl {
					frozen -= g.rate * b.nf
				} else {
					left -= b.nf
				}
			}
			r := Inf
			if b.capv > 0 {
				r = b.capv
			}
			if r < lvl {
				frozen += r * b.nf
			} else {
				left += b.nf
			}
		}
		if left < 0.5 {
			return old // every flow stops below: l never fills
		}
		next := (avail - frozen) / left
		if next <= lvl*(1+relTol) || next >= old {
			return min(old, next)
		}
		lvl = next
	}
}

// waterFill gives the region its max-min levels over the capacity the rest
// leaves (clink.res). All unfrozen flows rise together; the link whose
// capacity runs out first (lowest saturation level) freezes its own group
// and takes the rising bundles that cross it; a cap freezes its group or its
// bundle. Links sit in a heap keyed by saturation level. A freeze only
// raises the levels of the other links, so keys are refreshed lazily when
// they reach the top.
func (n *Network) waterFill(cs *classState) {
	a := &n.alloc
	vis := a.vis
	slices.SortFunc(a.capev, func(x, y capEvent) int {
		if d := cmp.Compare(x.capv, y.capv); d != 0 {
			return d
		}
		if (x.g != nil) != (y.g != nil) { // cap groups first: a bundle joins a frozen one
			if x.g != nil {
				return -1
			}
			return 1
		}
		return cmp.Compare(x.seq, y.seq)
	})
	q := a.lh[:0]
	for _, l := range a.queue {
		if cl := &cs.ls[l]; cl.weight > 0.5 {
			q = append(q, levelEntry{cl.res / cl.weight, l})
			cl.inHeap = true
		}
	}
	q.heapify()
	a.dead = 0
	level := 0.0
	ci := 0
	for {
		for ci < len(a.capev) && a.capev[ci].done(vis) {
			ci++
		}
		// Links whose flows were all frozen elsewhere would each cost a pop
		// when they surface; once they are half the heap, drop them at
		// once. The top is the least (key, link) either way, so this never
		// changes which link saturates next.
		if a.dead > len(q)/2 {
			q = slices.DeleteFunc(q, func(e levelEntry) bool { return cs.ls[e.l].weight <= 0.5 })
			q.heapify()
			a.dead = 0
		}
		// Bring the heap top up to date (lazy keys only ever rise).
		for len(q) > 0 {
			cl := &cs.ls[q[0].l]
			if cl.weight <= 0.5 { // weights count flows: nothing left
				cl.weight = 0
				a.dead--
				q.pop()
				continue
			}
			if cur := (cl.res - cl.frozen) / cl.weight; cur > q[0].level {
				q[0].level = cur
				q.down(0)
				continue
			}
			break
		}
		next := Inf
		if len(q) > 0 {
			next = q[0].level
		}
		if ci < len(a.capev) && a.capev[ci].capv <= next {
			ev := a.capev[ci]
			ci++
			level = max(level, ev.capv)
			if ev.g != nil {
				n.freezeGroup(cs, ev.g, ev.capv)
			} else {
				cg := cs.caps[ev.capv]
				switch {
				case cg == nil:
					cg = n.newGroup(gCap, cs, -1, ev.capv)
					cg.mark, cg.frozen = vis, true
					n.setRate(cg, ev.capv)
					a.region = append(a.region, cg)
				case cg.mark == vis && !cg.frozen:
					// (a region cap group whose bundles all moved to links
					// that saturated below its cap: its own event was skipped)
					n.freezeGroup(cs, cg, ev.capv)
				}
				n.moveFrozen(cs, ev.b, cg, ev.capv)
			}
			continue
		}
		if len(q) == 0 {
			break
		}
		l := q[0].l
		cs.ls[l].inHeap = false
		q.pop()
		level = max(level, next)
		n.saturate(cs, l, level)
	}
	for _, e := range q {
		cs.ls[e.l].inHeap = false
	}
	a.lh = q[:0]
}

// done: the event's group or bundle is frozen already.
func (ev *capEvent) done(vis uint64) bool {
	if g := ev.g; g != nil {
		return g.frozen || g.nf == 0
	}
	g := ev.b.g
	return g != nil && (g.frozen || g.mark != vis)
}

// saturate freezes what link l stops at level: its own group, the bundles
// of rising groups that cross it (they move to its group) and the free
// bundles that cross it.
func (n *Network) saturate(cs *classState, l int32, level float64) {
	vis := n.alloc.vis
	cl := &cs.ls[l]
	own := cs.hot[l].g
	if own != nil && own.mark == vis && !own.frozen {
		n.freezeGroup(cs, own, level)
	}
	if cl.win > 0.5 {
		for k := 0; k < len(cl.in); {
			g := cl.in[k].g
			if g.mark != vis || g.frozen {
				k++
				continue
			}
			if own == nil {
				own = n.frozenLinkGroup(cs, l, level)
			}
			// Move the edge's bundles; the edge goes with its last one and
			// index k then holds another in-edge.
			for {
				i := g.eix[l] - 1
				if i < 0 {
					break
				}
				n.moveFrozen(cs, g.out[i].head, own, level)
			}
		}
	}
	for _, p := range n.changedOn(cl) {
		if p.b.g == nil {
			if own == nil {
				own = n.frozenLinkGroup(cs, l, level)
			}
			n.moveFrozen(cs, p.b, own, level)
		}
	}
}

// frozenLinkGroup creates link l's group during a fill, frozen at level.
func (n *Network) frozenLinkGroup(cs *classState, l int32, level float64) *group {
	g := n.newGroup(gLink, cs, l, 0)
	g.mark, g.frozen = n.alloc.vis, true
	n.setRate(g, level)
	n.alloc.region = append(n.alloc.region, g)
	return g
}

// freezeGroup fixes a region group's level for the rest of the fill and
// installs it at once: one clock update for all its bundles.
func (n *Network) freezeGroup(cs *classState, g *group, level float64) {
	g.frozen = true
	n.setRate(g, level)
	if g.kind == gLink {
		n.settle(&cs.ls[g.link], level, g.nf)
	}
	for i := range g.out {
		o := &g.out[i]
		cl := &cs.ls[o.l]
		cl.win -= o.w
		n.settle(cl, level, o.w)
	}
}

// moveFrozen moves bundle b (free, or in a rising region group) to group to,
// frozen at level: b changed bottleneck.
func (n *Network) moveFrozen(cs *classState, b *bundle, to *group, level float64) {
	from := b.g
	w := b.nf
	for _, l := range b.links() {
		cl := &cs.ls[l]
		if from != nil && l != from.link {
			cl.win -= w
		}
		n.settle(cl, level, w)
	}
	if from != nil {
		n.exit(b)
		n.Moves++
	}
	n.enter(b, to)
	n.AllocatedBundles++
}

// settle records on a link that w flows froze at level.
func (n *Network) settle(cl *clink, level, w float64) {
	cl.frozen += level * w
	cl.weight -= w
	if cl.weight <= 0.5 && cl.inHeap {
		cl.inHeap = false
		n.alloc.dead++
	}
}

// setClassLoad installs a class's new load on a link.
func (n *Network) setClassLoad(cs *classState, l int32, v float64) {
	cl := &cs.ls[l]
	cl.pend = 0
	if cl.load != v {
		cl.load = v
		n.refreshLoad(l)
	}
}

// refreshLoad recomputes a link's load from the explicit load and the
// classes' loads; a changed load makes the link a seed for the lower classes
// of this allocation.
func (n *Network) refreshLoad(l int32) {
	ln := &n.links[l]
	load := ln.exp
	for _, cs := range n.classList {
		load += cs.ls[l].load
	}
	n.setLoad(l, load)
}

// setLoad installs a link's new load at the current time.
func (n *Network) setLoad(l int32, load float64) {
	ln := &n.links[l]
	if load == ln.load {
		return
	}
	ln.advance(n.now)
	if n.mon != nil {
		n.mon.resting = false
	}
	if ln.loadEp != n.allocEp {
		ln.loadEp, ln.oldLoad = n.allocEp, ln.load
	}
	changed := abs(load-ln.load) > relTol*1e-3*ln.cap
	ln.load = load
	if changed && ln.delta != n.allocEp {
		ln.delta = n.allocEp
		n.alloc.delta = append(n.alloc.delta, l)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
