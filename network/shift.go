package network

// shift is the allocator's fast path. Most changes move levels and move few
// bundles, if any, to another bottleneck. shift recomputes, in the order of
// their old levels, the level of every link group whose inputs changed
// (λ = (capacity left - load of the groups crossing the link) / flows), and
// propagates each change along the group's out-edges. Where the structure no
// longer holds it is repaired locally, the way the water-fill would do it:
//
//   - a group crossing a link group's link is faster than the link's new
//     level: the link saturates first, so the bundles of that group crossing
//     it move to the link's group (the level where the link saturates is
//     found by a fixed point over the groups crossing it);
//   - a link without a group would carry more than it has: it becomes a
//     bottleneck, with the bundles of the fastest groups crossing it;
//   - a new bundle joins the group of its slowest link (or a new group on the
//     link with the least room per flow); the checks move it on if that was
//     wrong.
//
// When the worklist is empty, every touched link group has no faster group
// crossing it, no capped bundle above its cap, and every touched link
// without a group carries no more than it has; links and groups whose
// inputs did not change are valid as they were. Every bundle then has a
// bottleneck (a full link on which none of its class is faster, or its
// cap) and the rates are feasible: they are the max-min rates, exactly as a
// fresh water-fill would give them. shift commits and reports true.
// Anything it does not handle (a capped bundle reaching its cap, a bundle
// moving twice, too many rounds) makes it undo its moves and report false;
// the class is then refilled by the region pass.
//
// Cost: O(in-edges) per re-levelled link group plus O(out-edges) per group
// whose level changed, plus O(route) per moved bundle; nothing per bundle
// that keeps its group.

type move struct {
	b    *bundle
	from *group // nil: it was free
	base float64
}

// shift re-levels class cs after the changes of this allocation (the pass's
// seeds); see above.
func (n *Network) shift(cs *classState) bool {
	a := &n.alloc
	n.epoch++
	if uint32(n.epoch) == 0 {
		// Links keep the low 32 bits of shift epochs: clear them all at the
		// wrap so that no stale mark equals a new shift.
		for _, o := range n.classList {
			for i := range o.hot {
				o.hot[i].sc, o.hot[i].sw = 0, 0
			}
		}
		n.epoch++
	}
	ep := n.epoch
	a.sep = ep
	a.wl, a.chk, a.spec, a.moves, a.made = a.wl[:0], a.chk[:0], a.spec[:0], a.moves[:0], a.made[:0]
	a.distinct = 0
	for _, l := range a.seeds {
		n.spush(cs, l)
	}
	ok := true
	for _, b := range n.changed {
		if !b.retired && int(b.cls) == cs.c && b.g == nil {
			if !n.place(cs, b) {
				ok = false
				break
			}
		}
	}
	pops := 0
	for round := 0; ok; round++ {
		for ok && len(a.wl) > 0 {
			l := a.wl[0].l
			a.wl.pop()
			cs.hot[l].sw = 0
			if pops++; pops > 4*a.distinct+64 {
				ok = false // (a cycle of re-pushes: leave it to the fill)
				break
			}
			ok = n.relevel(cs, l)
		}
		if !ok {
			break
		}
		// Links without a group: the first that would carry more than it
		// has becomes a bottleneck with the bundles of the fastest groups
		// crossing it, and the propagation resumes.
		over := n.checkLinks(cs)
		if over < 0 {
			break
		}
		if round == 8 {
			ok = false
			break
		}
		ok = n.capture(cs, over, cs.hot[over].g, n.saturation(cs, over, 0, max(0, n.residual(cs, over))))
		if ok {
			n.touchedLink(cs, over)
		}
	}
	if !ok {
		n.undoShift(cs)
		return false
	}
	for _, g := range a.spec {
		g.spec = 0
		if g.nf == 0 {
			if !g.dead {
				n.dropGroup(g)
			}
			continue
		}
		n.setRate(g, g.nrate)
		n.AllocatedBundles += int64(len(g.bh))
	}
	for _, l := range a.chk {
		n.setClassLoad(cs, l, cs.ls[l].sload)
	}
	n.Moves += int64(len(a.moves))
	return true
}

// lev is g's level in the shift in progress.
func (n *Network) lev(g *group) float64 {
	if g.spec == n.alloc.sep {
		return g.nrate
	}
	return g.rate
}

// spush queues link l for install, and for re-levelling if it has a group.
func (n *Network) spush(cs *classState, l int32) {
	a := &n.alloc
	ep := a.sep
	hl := &cs.hot[l]
	if hl.sc != uint32(ep) {
		hl.sc, hl.acc = uint32(ep), 0
		a.chk = append(a.chk, l)
	}
	if g := hl.g; g != nil && g.nf > 0 && hl.sw != uint32(ep) {
		hl.sw = uint32(ep)
		if g.spec != ep {
			a.distinct++
		}
		a.wl = append(a.wl, levelEntry{n.lev(g), l})
		a.wl.up(len(a.wl) - 1)
	}
}

// touched marks a link whose edges changed in this shift: its load is
// recomputed from its in-edges, not from acc.
func (n *Network) touchedLink(cs *classState, l int32) {
	cl := &cs.ls[l]
	cl.sm = n.alloc.sep
	n.spush(cs, l)
}

// specOf records that g gets a level in this shift.
func (n *Network) specOf(g *group) {
	if a := &n.alloc; g.spec != a.sep {
		g.spec = a.sep
		g.nrate = g.rate
		a.spec = append(a.spec, g)
	}
}

// saturation is the level at which link l saturates when its own flows and
// those of the groups crossing it rise together and each group stops at its
// level: the smallest λ with own·λ + Σ w·min(λ, level) = res (a fixed point
// from below, as in divergence).
func (n *Network) saturation(cs *classState, l int32, own, res float64) float64 {
	cl := &cs.ls[l]
	tot := own
	for k := range cl.in {
		tot += cl.in[k].w
	}
	lvl := res / tot
	for {
		frozen, left := 0.0, own
		for k := range cl.in {
			e := &cl.in[k]
			if r := n.lev(e.g); r < lvl {
				frozen += e.w * r
			} else {
				left += e.w
			}
		}
		next := (res - frozen) / left
		if next <= lvl*(1+relTol) {
			return next
		}
		lvl = next
	}
}

// relevel recomputes link l's group level; it repairs the structure when a
// group crossing l is faster. It reports false when shift must give up.
func (n *Network) relevel(cs *classState, l int32) bool {
	a := &n.alloc
	ep := a.sep
	cl := &cs.ls[l]
	g := cs.hot[l].g
	if g == nil || g.nf == 0 {
		n.spush(cs, l) // (emptied by a capture: checked as a link without a group)
		return true
	}
	res := max(0, n.residual(cs, l))
	var f, lvl float64
	for round := 0; ; round++ {
		f = 0
		fastest := 0.0
		for k := range cl.in {
			e := &cl.in[k]
			r := n.lev(e.g)
			f += e.w * r
			fastest = max(fastest, r)
		}
		lvl = (res - f) / g.nf
		if fastest <= lvl+relTol*max(lvl, 0) {
			break
		}
		if round == 3 {
			return false
		}
		// The link saturates before the faster groups crossing it: their
		// bundles on it stop here.
		if !n.capture(cs, l, g, n.saturation(cs, l, g.nf, res)) {
			return false
		}
	}
	for _, b := range g.capped {
		if b.capv < lvl*(1-relTol) {
			return false // a bundle reaches its cap first: the fill handles caps
		}
	}
	cl.sload = f + g.nf*lvl
	n.specOf(g)
	old := g.nrate
	g.nrate = lvl
	if d := lvl - old; d != 0 {
		e32 := uint32(ep)
		for i := range g.out {
			o := &g.out[i]
			ol := &cs.hot[o.l]
			if ol.sc != e32 {
				ol.sc, ol.acc = e32, 0
				a.chk = append(a.chk, o.l)
			}
			ol.acc += o.w * d
			if h := ol.g; h != nil && h.nf > 0 && ol.sw != e32 {
				ol.sw = e32
				if h.spec != ep {
					a.distinct++
				}
				a.wl = append(a.wl, levelEntry{n.lev(h), o.l})
				a.wl.up(len(a.wl) - 1)
			}
		}
	}
	if hl := &cs.hot[l]; hl.sc != uint32(ep) { // its load is installed with the group's
		hl.sc, hl.acc = uint32(ep), 0
		a.chk = append(a.chk, l)
	}
	return true
}

// capture moves to link l's group g (created when nil) the bundles crossing
// l of every group faster than lvl, at level lvl.
func (n *Network) capture(cs *classState, l int32, g *group, lvl float64) bool {
	a := &n.alloc
	cl := &cs.ls[l]
	if g == nil {
		g = n.newGroup(gLink, cs, l, 0)
		a.made = append(a.made, g)
	}
	if g.nf == 0 { // (a new group, or one all of whose bundles moved on)
		n.specOf(g)
		g.nrate = lvl
	}
	for k := 0; k < len(cl.in); {
		h := cl.in[k].g
		if r := n.lev(h); r <= lvl+relTol*max(lvl, 0) {
			k++
			continue
		}
		if h.kind == gCap {
			return false // (held at a cap: left to the fill)
		}
		n.specOf(h)
		// Move the edge's bundles; the edge goes with its last one and
		// index k then holds another in-edge.
		for {
			i := h.eix[l] - 1
			if i < 0 {
				break
			}
			if !n.smove(cs, h.out[i].head, g) {
				return false
			}
		}
		if h.kind == gLink {
			n.touchedLink(cs, h.link)
		}
	}
	return true
}

// smove moves b to group to during a shift, recording how to undo it.
func (n *Network) smove(cs *classState, b *bundle, to *group) bool {
	a := &n.alloc
	if b.mark != a.sep {
		b.mark, b.smoves = a.sep, 0
	}
	if b.smoves++; b.smoves > 3 {
		return false // (moving back and forth: left to the fill)
	}
	a.moves = append(a.moves, move{b, b.g, b.base})
	if b.g != nil {
		n.exit(b)
	}
	n.enter(b, to)
	for _, x := range b.links() {
		n.touchedLink(cs, x)
	}
	return true
}

// place puts a new bundle in the group of its slowest link: the link group
// with the lowest level on its route, or a new group on the link without
// one that leaves the least room per flow, whichever is lower.
func (n *Network) place(cs *classState, b *bundle) bool {
	a := &n.alloc
	best, at := Inf, int32(-1)
	for _, l := range b.links() {
		cl := &cs.ls[l]
		var lv float64
		if g := cs.hot[l].g; g != nil && g.nf > 0 {
			lv = n.lev(g)
		} else {
			load := 0.0
			for k := range cl.in {
				load += cl.in[k].w * n.lev(cl.in[k].g)
			}
			lv = max(0, n.residual(cs, l)-load) / b.nf
		}
		if lv < best {
			best, at = lv, l
		}
	}
	if b.capv > 0 && b.capv < best {
		return false // (its cap: left to the fill)
	}
	g := cs.hot[at].g
	if g == nil {
		g = n.newGroup(gLink, cs, at, 0)
		a.made = append(a.made, g)
		n.specOf(g)
		g.nrate = best
	}
	return n.smove(cs, b, g)
}

// checkLinks checks the links without a group that shift touched: none may
// carry more than it has; it computes their new loads. It returns the first
// that would carry more, or -1.
func (n *Network) checkLinks(cs *classState) int32 {
	a := &n.alloc
	ep := a.sep
	for i := 0; i < len(a.chk); i++ {
		l := a.chk[i]
		cl := &cs.ls[l]
		if g := cs.hot[l].g; g != nil && g.nf > 0 {
			continue // (re-levelled: sload is set)
		}
		load := 0.0
		if cl.sm == ep {
			for k := range cl.in {
				load += cl.in[k].w * n.lev(cl.in[k].g)
			}
		} else if len(cl.in) > 0 {
			// Its load changed by the flows that joined or left groups
			// crossing it (pend) and by their groups' new levels (acc).
			load = cl.load + cl.pend + cs.hot[l].acc
		}
		if res := max(0, n.residual(cs, l)); load > res+relTol*n.links[l].cap {
			return l
		}
		cl.sload = load
	}
	return -1
}

// undoShift puts back every bundle shift moved, in reverse order, and drops
// the groups it made; levels were never installed.
func (n *Network) undoShift(cs *classState) {
	a := &n.alloc
	for i := len(a.moves) - 1; i >= 0; i-- {
		m := a.moves[i]
		b := m.b
		n.exit(b)
		if m.from != nil {
			n.enter(b, m.from)
		}
		b.base = m.base
		if g := b.g; g != nil {
			g.rekey(b)
		}
	}
	for _, g := range a.spec {
		g.spec = 0
	}
	for _, g := range a.made {
		if !g.dead && g.nf == 0 {
			n.dropGroup(g)
		}
	}
	a.moves, a.made = a.moves[:0], a.made[:0]
}
