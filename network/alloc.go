package network

import (
	"cmp"
	"math"
	"slices"
)

// Allocation: strict priority between classes, max-min fair (progressive
// filling) within a class, explicit rates before everything.
//
// The allocator is incremental. A water-fill freezes bundles in increasing
// order of rate; a change (a bundle created, resized, re-routed or removed)
// can only alter the run from the lowest level λ* at which one of the links
// it touches saturates, in the old run or in the new one. Every bundle whose
// rate is below λ* keeps it. So a pass for class c
//
//  1. computes λ* over the seed links (links of changed bundles, and links
//     whose load from higher classes changed),
//  2. collects the region: bundles of class c with rate >= λ* (and changed
//     ones) connected to the seeds through such bundles,
//  3. water-fills the region over what the rest leaves on its links,
//  4. reports the links whose load changed as seeds for lower classes.
//
// Cost of a pass: O(sum over seed links of deg) for λ* (a few scans each), plus
// O(region route entries + sum of degrees of the region's links) for the
// search and the fill, plus O(log links) per link saturation and
// O(log bundles) per rescheduled bundle. Bundles outside the region are not
// touched.

type allocScratch struct {
	classes []int
	seeds   []int32
	queue   []int32 // links of the region, in visiting order
	capped  []*bundle
	delta   []int32 // links whose load changed in this allocation
	lh      levelHeap
	ev      uint32 // link-entry mark of the pass in progress (freeze writes it)
	// left counts the region's link entries not yet frozen: every link of
	// a region bundle is searched, so each bundle has all its entries here.
	left int
	// dead counts the link heap's entries whose links have no unfrozen
	// flows left (all frozen on other links): they are dropped in bulk.
	dead int
}

// relTol absorbs float noise when comparing levels and loads.
const relTol = 1e-9

// flush recomputes rates if anything changed since the last allocation.
func (n *Network) flush() {
	if len(n.dirty) > 0 || len(n.changed) > 0 {
		n.allocate()
	}
}

func (n *Network) allocate() {
	a := &n.alloc
	n.Allocations++
	n.epoch++
	allocEp := n.epoch
	n.allocEp = allocEp
	a.delta = a.delta[:0]

	// Explicit rates are fixed: install them, then their links' loads.
	start := math.MaxInt
	for _, b := range n.changed {
		if !b.retired && b.key.explicit >= 0 {
			n.setRate(b, b.key.explicit)
		}
	}
	a.classes = a.classes[:0]
	for _, d := range n.dirty {
		if d.class == explicitClass {
			start = explicitClass
			if ln := &n.links[d.l]; ln.mark != allocEp { // once per link
				ln.mark = allocEp
				n.refreshLoad(d.l, allocEp)
			}
			continue
		}
		start = min(start, d.class)
		a.classes = append(a.classes, d.class)
	}
	// Lower classes than the changed ones may be affected through the
	// loads the changed ones leave: they are candidates too.
	for c := range n.classCount {
		if c > start {
			a.classes = append(a.classes, c)
		}
	}
	slices.Sort(a.classes)
	a.classes = slices.Compact(a.classes)
	for _, c := range a.classes {
		if c >= start {
			n.pass(c, allocEp)
		}
	}
	for _, b := range n.changed {
		b.changed, b.fresh = false, false
		if !b.retired {
			n.syncEnts(b)
		}
	}
	clear(n.changed)
	n.changed = n.changed[:0]
	n.dirty = n.dirty[:0]
}

// pass re-fills class c around what changed.
func (n *Network) pass(c int, allocEp uint64) {
	a := &n.alloc
	n.epoch++
	seedEp := n.epoch
	a.seeds = a.seeds[:0]
	addSeed := func(l int32) {
		if n.links[l].mark != seedEp {
			n.links[l].mark = seedEp
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
	lambda := Inf
	for _, l := range a.seeds {
		lambda = n.divergence(l, c, lambda)
	}
	cut := lambda * (1 - relTol)

	// Region search. Link visits also sum what the rest of the link
	// carries: higher classes (already final) and class-c bundles below cut.
	vis := n.nextVis()
	ev := uint32(vis)
	a.ev = ev
	a.queue, a.capped = a.queue[:0], a.capped[:0]
	for _, l := range a.seeds {
		n.links[l].mark = vis
		a.queue = append(a.queue, l)
	}
	for _, b := range n.changed {
		if !b.retired && b.changed && b.class() == c && b.mark != vis {
			n.enqueue(b, vis)
		}
	}
	c32 := int32(c)
	a.left = 0
	for i := 0; i < len(a.queue); i++ {
		ln := &n.links[a.queue[i]]
		base, weight, lower := 0.0, 0.0, 0.0
		for k := range ln.ents {
			e := &ln.ents[k]
			switch {
			case e.cls < c32:
				base += e.rate * float64(e.n)
			case e.cls > c32:
				lower += e.rate * float64(e.n)
			case e.changed || e.rate >= cut:
				// A region bundle (the rule is the same on every link). With
				// two links and no cap, its other link is all the search
				// needs; else the bundle's mark says whether it was found.
				weight += float64(e.n)
				a.left++
				if e.peer >= 0 {
					if p := &n.links[e.peer]; p.mark != vis {
						p.mark = vis
						a.queue = append(a.queue, e.peer)
					}
				} else if e.b.mark != vis {
					n.enqueue(e.b, vis)
				}
			default:
				base += e.rate * float64(e.n)
			}
		}
		ln.res = max(0, ln.cap-base)
		ln.weight, ln.frozen = weight, 0
		ln.rest = base + lower // its new load is rest + frozen
	}
	n.waterFill(ev, c32, cut)
	for _, l := range a.queue {
		ln := &n.links[l]
		n.setLoad(l, ln.rest+ln.frozen, allocEp)
	}
}

// nextVis starts a region search. Link entries keep only the low 32 bits of
// the pass: when those wrap around, every entry mark is cleared so that no
// stale mark can equal a new pass.
func (n *Network) nextVis() uint64 {
	n.epoch++
	if uint32(n.epoch) == 0 {
		for i := range n.links {
			for k := range n.links[i].ents {
				n.links[i].ents[k].mark = 0
			}
		}
		n.epoch++
	}
	return n.epoch
}

// enqueue adds b's links to the search queue, and b to the capped list if
// it has a cap. The region is not listed: the fill finds its bundles on
// the links (the region rule is the same on every link).
func (n *Network) enqueue(b *bundle, vis uint64) {
	a := &n.alloc
	b.mark = vis
	b.frozen = false
	if b.capv > 0 {
		a.capped = append(a.capped, b)
	}
	for _, l := range b.links() {
		ln := &n.links[l]
		if ln.mark != vis {
			ln.mark = vis
			a.queue = append(a.queue, l)
		}
	}
}

// divergence is a lower bound on the per-flow level at which class c's
// water-fill on seed link l may differ between the old allocation and the
// new one: the lower of
//   - where l stopped class c before: if l was full, no class-c bundle on it
//     rose above the fastest of them (exact when l saturated during class c,
//     lower otherwise, 0 when a higher class filled it);
//   - where l saturates now if every other class-c bundle kept its old rate
//     and the changed ones rise freely up to their caps.
//
// Levels at or above bound (the best found so far) need no precision.
func (n *Network) divergence(l int32, c int, bound float64) float64 {
	ln := &n.links[l]
	before := ln.load
	if ln.loadEp == n.allocEp {
		before = ln.oldLoad
	}
	full := before >= ln.cap*(1-relTol)
	old, fastest := Inf, 0.0
	avail := ln.cap
	w := 0.0
	for k := range ln.ents {
		switch e := &ln.ents[k]; {
		case int(e.cls) < c:
			avail -= e.rate * float64(e.n)
		case int(e.cls) == c:
			fastest = max(fastest, e.rate)
			w += float64(e.n)
		}
	}
	if full {
		old = fastest
	}
	old = min(old, bound)
	if avail <= 0 {
		return 0
	}
	if w == 0 {
		return old
	}
	// New saturation level: the smallest λ with sum n·min(λ, ρ) = avail,
	// where ρ is the old rate, or the cap (Inf if none) of a changed
	// bundle. Fixed-point iteration from avail/w: every step freezes the
	// entries below the level and raises it; it stops in at most as many
	// steps as there are distinct ρ, usually two or three.
	lvl := avail / w
	if lvl >= old {
		return old // the level only rises from here
	}
	for {
		frozen, left := 0.0, 0.0
		for k := range ln.ents {
			e := &ln.ents[k]
			if int(e.cls) != c {
				continue
			}
			r := e.rate
			if e.changed {
				r = Inf
				if e.b.key.cap > 0 {
					r = e.b.key.cap
				}
			}
			if r < lvl {
				frozen += r * float64(e.n)
			} else {
				left += float64(e.n)
			}
		}
		if left == 0 {
			return old // every bundle stops below: l never fills
		}
		next := (avail - frozen) / left
		if next <= lvl*(1+relTol) || next >= old {
			return min(old, next)
		}
		lvl = next
	}
}

// waterFill gives the region's bundles their max-min per-flow rates over
// links[l].res. On the pass's links, the region's entries are those of
// class c that changed or have a rate of at least cut; freeze marks an
// entry with ev. All unfrozen flows rise together; the link whose capacity
// runs out first (lowest saturation level) freezes the region bundles on
// it; a cap freezes its bundle. Links sit in a heap keyed by saturation
// level. A freeze only raises the levels of the bundle's other links, so
// keys are refreshed lazily when they reach the top.
func (n *Network) waterFill(ev uint32, c int32, cut float64) {
	a := &n.alloc
	slices.SortFunc(a.capped, func(x, y *bundle) int {
		if d := cmp.Compare(x.capv, y.capv); d != 0 {
			return d
		}
		return cmp.Compare(x.seq, y.seq)
	})
	q := a.lh[:0]
	for _, l := range a.queue {
		if ln := &n.links[l]; ln.weight > 0.5 {
			q = append(q, levelEntry{ln.res / ln.weight, l})
			ln.inHeap = true
		}
	}
	q.heapify()
	a.dead = 0
	level := 0.0
	ci := 0
	for a.left > 0 {
		for ci < len(a.capped) && a.capped[ci].frozen {
			ci++
		}
		// Links whose flows were all frozen elsewhere would each cost a pop
		// when they surface; once they are half the heap, drop them at
		// once. The top is the least (key, link) either way, so this never
		// changes which link saturates next.
		if a.dead > len(q)/2 {
			q = slices.DeleteFunc(q, func(e levelEntry) bool { return n.links[e.l].weight <= 0.5 })
			q.heapify()
			a.dead = 0
		}
		// Bring the heap top up to date (lazy keys only ever rise).
		for len(q) > 0 {
			ln := &n.links[q[0].l]
			if ln.weight <= 0.5 { // weights count flows: nothing left
				ln.weight = 0
				a.dead--
				q.pop()
				continue
			}
			if cur := (ln.res - ln.frozen) / ln.weight; cur > q[0].level {
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
		if ci < len(a.capped) && a.capped[ci].capv <= next {
			b := a.capped[ci]
			level = max(level, b.capv)
			n.freeze(b, b.capv)
			continue
		}
		if len(q) == 0 {
			break // unreachable: an unfrozen bundle keeps its links in the heap
		}
		ln := &n.links[q[0].l]
		q.pop()
		ln.inHeap = false
		level = max(level, next)
		for k := range ln.ents {
			// Unfrozen region entries: the region rule, not yet marked by
			// freeze in this pass (freeze overwrites the rate with the mark).
			if e := &ln.ents[k]; e.mark != ev && e.cls == c && (e.changed || e.rate >= cut) {
				if e.peer >= 0 {
					n.freezePeer(ln, e, level)
				} else {
					n.freeze(e.b, level)
				}
			}
		}
	}
	for _, e := range q {
		n.links[e.l].inHeap = false
	}
	a.lh = q[:0]
}

// freeze fixes b's rate for the rest of the fill and installs it at once: a
// frozen rate is final, and installing it here saves another visit to b.
func (n *Network) freeze(b *bundle, rate float64) {
	b.frozen = true
	n.AllocatedBundles++
	n.alloc.left -= int(b.nr)
	w := b.n()
	for k, l := range b.links() {
		ln := &n.links[l]
		n.settle(ln, &ln.ents[b.pos[k]], rate, w)
	}
	n.install(b, rate)
}

// settle records on link ln that the w flows of entry e froze at rate.
func (n *Network) settle(ln *link, e *linkEnt, rate, w float64) {
	ln.frozen += rate * w
	n.unweigh(ln, w)
	e.mark, e.rate = n.alloc.ev, rate
}

// install gives b its frozen rate and fixes its completion time unless
// neither the rate nor its flows changed.
func (n *Network) install(b *bundle, rate float64) {
	if b.rerate(n.now, rate) || b.changed {
		n.reschedule(b)
	}
}

// unweigh takes w frozen flows off a link, counting it dead in the link heap
// when it has none left.
func (n *Network) unweigh(ln *link, w float64) {
	ln.weight -= w
	if ln.weight <= 0.5 && ln.inHeap {
		ln.inHeap = false
		n.alloc.dead++
	}
}

// freezePeer is freeze for an uncapped two-link bundle, found through its
// entry e on link ln: both entries are reached from e, and the bundle itself
// is touched only if its rate or its flows changed.
func (n *Network) freezePeer(ln *link, e *linkEnt, rate float64) {
	n.AllocatedBundles++
	n.alloc.left -= 2
	w := float64(e.n)
	moved := e.rate != rate || e.changed // entry rates are the bundle's (fresh ones changed)
	p := &n.links[e.peer]
	n.settle(p, &p.ents[e.peerPos], rate, w)
	n.settle(ln, e, rate, w)
	if moved {
		n.install(e.b, rate)
	}
}

// setRate installs a bundle's rate at the current time and reschedules its
// next completion.
func (n *Network) setRate(b *bundle, r float64) {
	if b.rerate(n.now, r) || b.fresh {
		for k, l := range b.links() {
			n.links[l].ents[b.pos[k]].rate = r
		}
	}
	n.reschedule(b)
}

// reschedule updates b's next completion in the event heap.
func (n *Network) reschedule(b *bundle) {
	if nx := b.nextFinish(); nx != b.next {
		b.next = nx
		n.events.set(b)
	}
}

// refreshLoad recomputes a link's load from its entries; a changed load
// makes the link a seed for the lower classes of this allocation.
func (n *Network) refreshLoad(l int32, allocEp uint64) {
	ln := &n.links[l]
	load := 0.0
	for k := range ln.ents {
		load += ln.ents[k].rate * float64(ln.ents[k].n)
	}
	n.setLoad(l, load, allocEp)
}

// setLoad installs a link's new load at the current time.
func (n *Network) setLoad(l int32, load float64, allocEp uint64) {
	ln := &n.links[l]
	if load == ln.load {
		return
	}
	ln.advance(n.now)
	if ln.loadEp != allocEp {
		ln.loadEp, ln.oldLoad = allocEp, ln.load
	}
	changed := abs(load-ln.load) > relTol*1e-3*ln.cap
	ln.load = load
	if changed && ln.delta != allocEp {
		ln.delta = allocEp
		n.alloc.delta = append(n.alloc.delta, l)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
