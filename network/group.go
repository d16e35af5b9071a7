package network

// Bottleneck groups.
//
// In max-min fairness every rate is the fill level of some bottleneck: a
// link that saturates with the bundles it stops, or a rate cap. The bundles
// of one class stopped by the same link (or held at the same cap) share one
// per-flow rate, so they share one group: one rate, one service clock and
// one event in the event heap. A change of the group's level is one update
// whatever the number of its bundles; only a bundle that changes bottleneck
// is touched by the allocator.
//
// A group knows, for every other link its bundles cross, how many of its
// flows cross it (an out-edge; the link has the mirror in-edge). Those edges
// are the bottleneck structure: a group's level depends on the levels of the
// groups with edges into its link, and a change of its level moves the load
// of the links its edges point to. Each edge also lists its bundles, so that
// the bundles of a group that cross a link which saturates first can be
// moved to that link's group without looking at the group's other bundles.
//
// An explicit-rate bundle (SetRate) is a group of its own, of kind gExplicit,
// with no edges: its rate is fixed and its load is counted apart (link.exp).

type groupKind uint8

const (
	gLink     groupKind = iota // the bundles of one class stopped by one link
	gCap                       // the bundles of one class held at one rate cap
	gExplicit                  // one explicit-rate bundle
)

type group struct {
	// Hot fields first: what Remaining and the allocator's scans read.
	rate        float64 // per-flow level, bytes/s
	clock, last float64 // service clock (see below)
	spec        uint64  // shift in progress that gave it nrate
	nrate       float64 // its level in that shift
	mark        uint64  // allocation pass that put it in the region
	nf          float64 // flows
	frozen      bool
	kind        groupKind
	cls         int32 // class (explicitClass for gExplicit)
	link        int32 // gLink: its bottleneck link; else -1
	capv        float64
	out         []outEdge
	eix         []int32 // eix[l] = 1 + index in out of the edge to link l, 0 if none
	cs          *classState

	// Service: clock is the bytes served to each flow of the group since the
	// group was created, advanced lazily (clock += rate·dt only when the rate
	// changes or someone looks). A member bundle's own clock is
	// clock + bundle.base.
	nk     [3]float64 // flows by path kind
	served [3]float64 // bytes carried by path kind, up to last
	bh     []member   // members: min-heap on (gkey, seq)
	capped []*bundle  // members with a rate cap (link groups)
	next   float64    // time its first flow completes (Inf if never)
	hidx   int        // position in the event heap, -1 if absent
	hkey   float64    // its key there
	seq    uint64     // creation order: deterministic tie-breaks
	gi     int        // position in Network.groups
	queued bool       // in Network.resched
	dead   bool       // dropped (possibly still queued)
}

// outEdge: w flows of the group's bundles cross link l; ii is the mirror's
// index in the link's in-edges, head the first of those bundles.
type outEdge struct {
	l    int32
	ii   int32
	w    float64
	head *bundle
}

// inEdge mirrors an outEdge on its link: group g has w flows crossing the
// link (the weight is kept on both sides so that a link's scan streams).
type inEdge struct {
	g  *group
	w  float64
	oi int32
}

// classState is the bottleneck structure of one priority class.
type classState struct {
	c     int
	hot   []chot
	ls    []clink
	caps  map[float64]*group
	count int // bundles of the class (free or grouped)
}

// clink is a link as one class sees it.
// chot is the part of a link's class state that shift's propagation reads
// and writes for every out-edge: small, so that the links stay in cache.
type chot struct {
	g      *group  // the group stopped by this link, nil if none
	acc    float64 // shift: the change of the class's load from new levels
	sc, sw uint32  // shift (low bits of its epoch): in its install list (acc valid), in its worklist
}

type clink struct {
	sm   uint64  // shift: its edges changed (its load is summed afresh)
	load float64 // the class's load on the link as of the last allocation
	// pend is the change of the class's load on the link since the last
	// allocation from bundles that joined, left or resized in their groups
	// (at their groups' rates).
	pend  float64
	in    []inEdge // other groups of the class crossing it
	sload float64  // shift: the link's new class load

	// Region pass scratch, valid while vis (or pe) equals the current pass.
	vis, scan, pe uint64
	res           float64 // capacity left for the region being filled
	rest          float64 // class load of the groups outside the region
	frozen        float64 // load of region flows already frozen
	weight        float64 // unfrozen region flows crossing
	win           float64 // of which in unfrozen region groups' in-edges
	f0, f1        int32   // this link's changed bundles in alloc.pairs
	inHeap        bool
}

func (n *Network) classOf(c int) *classState {
	cs := n.classes[c]
	if cs == nil {
		cs = &classState{c: c, hot: make([]chot, len(n.links)), ls: make([]clink, len(n.links)), caps: map[float64]*group{}}
		n.classes[c] = cs
		n.classList = append(n.classList, cs)
		for i := len(n.classList) - 1; i > 0 && n.classList[i-1].c > c; i-- {
			n.classList[i-1], n.classList[i] = n.classList[i], n.classList[i-1]
		}
	}
	return cs
}

// newGroup returns an empty group (recycled when possible).
func (n *Network) newGroup(kind groupKind, cs *classState, link int32, capv float64) *group {
	return n.initGroup(nil, kind, cs, link, capv)
}

// initGroup makes g (or a recycled or new group when g is nil) an empty
// group of the given kind.
func (n *Network) initGroup(g *group, kind groupKind, cs *classState, link int32, capv float64) *group {
	if g != nil {
		// (an explicit-rate bundle's own group, allocated with it)
	} else if k := len(n.spare); k > 0 {
		g = n.spare[k-1]
		n.spare = n.spare[:k-1]
	} else {
		g = &group{}
	}
	eix := g.eix
	*g = group{kind: kind, cs: cs, link: link, capv: capv, last: n.now, next: Inf, hidx: -1, eix: eix,
		bh: g.bh[:0], capped: g.capped[:0], out: g.out[:0]}
	n.seq++
	g.seq = n.seq
	switch kind {
	case gLink:
		g.cls = int32(cs.c)
		cs.hot[link].g = g
	case gCap:
		g.cls = int32(cs.c)
		cs.caps[capv] = g
	case gExplicit:
		g.cls = explicitClass
	}
	if kind != gExplicit && g.eix == nil {
		g.eix = make([]int32, len(n.links))
	}
	g.gi = len(n.groups)
	n.groups = append(n.groups, g)
	return g
}

// dropGroup deletes an empty group, folding its bytes into the counters.
func (n *Network) dropGroup(g *group) {
	g.advance(n.now)
	for k, s := range g.served {
		n.doneBytes[k] += s
	}
	if g.hidx >= 0 {
		n.events.remove(g)
	}
	switch g.kind {
	case gLink:
		g.cs.hot[g.link].g = nil
	case gCap:
		delete(g.cs.caps, g.capv)
	}
	g.cs = nil
	g.mark = 0
	g.dead = true
	last := len(n.groups) - 1
	if g.gi != last {
		n.groups[g.gi] = n.groups[last]
		n.groups[g.gi].gi = g.gi
	}
	n.groups[last] = nil
	n.groups = n.groups[:last]
	if !g.queued && g.kind != gExplicit {
		n.spare = append(n.spare, g) // its eix is all zero again: every edge left with its bundles
	}
}

// advance brings the service clock up to now at the current rate.
func (g *group) advance(now float64) {
	if dt := now - g.last; dt > 0 {
		s := g.rate * dt
		g.clock += s
		for k, f := range g.nk {
			if f != 0 {
				g.served[k] += s * f
			}
		}
		g.last = now
	}
}

// setRate switches the group's per-flow rate at now; it reports whether it
// changed.
func (n *Network) setRate(g *group, r float64) bool {
	if r == g.rate {
		return false
	}
	g.advance(n.now)
	g.last = n.now
	g.rate = r
	n.touch(g)
	return true
}

// touch queues g for rescheduling at the end of the next allocation: every
// change of a group's rate or members goes through an allocation before
// time moves.
func (n *Network) touch(g *group) {
	if !g.queued {
		g.queued = true
		n.resched = append(n.resched, g)
	}
}

// clockAt is the group's clock at time t >= last without advancing it.
func (g *group) clockAt(t float64) float64 { return g.clock + g.rate*(t-g.last) }

// nextFinish is the time the group's first flow completes at its rate.
func (g *group) nextFinish() float64 {
	if len(g.bh) == 0 || g.rate <= 0 {
		return Inf
	}
	return g.last + max(0, g.bh[0].gkey-g.clock)/g.rate
}

// reschedule updates g's next completion in the event heap.
func (n *Network) reschedule(g *group) {
	if nx := g.nextFinish(); nx != g.next {
		g.next = nx
		n.events.set(g)
	}
}

// Membership. A bundle's clock is its group's clock plus base (a free
// bundle, in no group, has clock base and rate 0).

// bclock is b's service clock at the current time.
func (n *Network) bclock(b *bundle) float64 {
	if g := b.g; g != nil {
		return g.clockAt(n.now) + b.base
	}
	return b.base
}

// enter adds a free bundle to g at the current time.
func (n *Network) enter(b *bundle, g *group) {
	g.advance(n.now)
	b.base -= g.clock // b.base held b's clock
	b.g = g
	w := b.nf
	g.nf += w
	g.nk[b.kind] += w
	if g.kind != gExplicit {
		for k, l := range b.links() {
			if l != g.link {
				n.link(g, b, k, l)
			}
		}
	}
	b.gidx = int32(len(g.bh))
	g.bh = append(g.bh, member{b.gkey(), b.seq, b})
	g.up(int(b.gidx))
	if b.capv > 0 && g.kind == gLink {
		b.cidx = int32(len(g.capped))
		g.capped = append(g.capped, b)
	}
	n.touch(g)
}

// exit takes b out of its group at the current time: b becomes free, with
// its clock in base. The group may be left empty: the caller drops it.
func (n *Network) exit(b *bundle) {
	g := b.g
	g.advance(n.now)
	b.base += g.clock
	w := b.nf
	g.nf -= w
	g.nk[b.kind] -= w
	if g.kind != gExplicit {
		for k, l := range b.links() {
			if l != g.link {
				n.unlink(g, b, k, l)
			}
		}
	}
	g.removeAt(int(b.gidx))
	if b.cidx >= 0 {
		last := len(g.capped) - 1
		if int(b.cidx) != last {
			g.capped[b.cidx] = g.capped[last]
			g.capped[b.cidx].cidx = b.cidx
		}
		g.capped[last] = nil
		g.capped = g.capped[:last]
		b.cidx = -1
	}
	b.g = nil
	n.touch(g)
}

// link adds b (route slot k, link l) to g's edge to l, creating the edge.
func (n *Network) link(g *group, b *bundle, k int, l int32) {
	i := g.eix[l] - 1
	if i < 0 {
		cl := &g.cs.ls[l]
		i = int32(len(g.out))
		g.out = append(g.out, outEdge{l: l, ii: int32(len(cl.in))})
		cl.in = append(cl.in, inEdge{g: g, oi: i})
		g.eix[l] = i + 1
	}
	e := &g.out[i]
	e.w += b.nf
	g.cs.ls[l].in[e.ii].w = e.w
	b.eprev[k] = nil
	b.enext[k] = e.head
	if e.head != nil {
		e.head.eprev[e.head.slot(l)] = b
	}
	e.head = b
}

// unlink removes b (route slot k, link l) from g's edge to l, deleting the
// edge when no flow is left on it.
func (n *Network) unlink(g *group, b *bundle, k int, l int32) {
	i := g.eix[l] - 1
	e := &g.out[i]
	e.w -= b.nf
	if p := b.eprev[k]; p != nil {
		p.enext[p.slot(l)] = b.enext[k]
	} else {
		e.head = b.enext[k]
	}
	if nx := b.enext[k]; nx != nil {
		nx.eprev[nx.slot(l)] = b.eprev[k]
	}
	b.enext[k], b.eprev[k] = nil, nil
	cl := &g.cs.ls[l]
	if e.head != nil {
		cl.in[e.ii].w = e.w
		return
	}
	// Delete the edge from both sides (swap with the last).
	ii := e.ii
	if last := int32(len(cl.in) - 1); ii != last {
		cl.in[ii] = cl.in[last]
		m := &cl.in[ii]
		m.g.out[m.oi].ii = ii
	}
	cl.in[len(cl.in)-1] = inEdge{}
	cl.in = cl.in[:len(cl.in)-1]
	g.eix[l] = 0
	if last := int32(len(g.out) - 1); i != last {
		g.out[i] = g.out[last]
		m := &g.out[i]
		cl2 := &g.cs.ls[m.l]
		cl2.in[m.ii].oi = i
		g.eix[m.l] = i + 1
	}
	g.out[len(g.out)-1] = outEdge{}
	g.out = g.out[:len(g.out)-1]
}

// reweigh adds dw flows to b's weight in its group (a flow joined or left a
// grouped bundle); b.nf already holds the new count.
func (n *Network) reweigh(b *bundle, dw float64) {
	g := b.g
	g.advance(n.now) // served bytes by kind change with the flow count
	n.touch(g)
	g.nf += dw
	g.nk[b.kind] += dw
	if g.kind == gExplicit {
		return
	}
	for _, l := range b.links() {
		cl := &g.cs.ls[l]
		cl.pend += dw * g.rate
		if l != g.link {
			e := &g.out[g.eix[l]-1]
			e.w += dw
			cl.in[e.ii].w = e.w
		}
	}
}

// refirst fixes b's place in its group's heap after its first flow changed.
func (n *Network) refirst(b *bundle) {
	if g := b.g; g != nil {
		g.rekey(b)
		n.touch(g)
	}
}

// Member heap on (gkey, seq).

// member is a heap entry with its bundle's key beside it, so that moving
// entries compares them without reading the bundles (cold in a large
// network).
type member struct {
	gkey float64 // b.gkey()
	seq  uint64  // b.seq
	b    *bundle
}

func (x member) less(y member) bool {
	if x.gkey != y.gkey {
		return x.gkey < y.gkey
	}
	return x.seq < y.seq
}

// gkey is the group clock at which member b's first flow completes.
func (b *bundle) gkey() float64 { return b.first - b.base }

// rekey recomputes member b's key from its first flow and fixes its place.
func (g *group) rekey(b *bundle) {
	g.bh[b.gidx].gkey = b.gkey()
	if !g.down(int(b.gidx)) {
		g.up(int(b.gidx))
	}
}

func (g *group) up(i int) {
	h := g.bh
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.less(h[p]) {
			break
		}
		h[i] = h[p]
		h[i].b.gidx = int32(i)
		i = p
	}
	h[i] = x
	x.b.gidx = int32(i)
}

func (g *group) down(i int) bool {
	h := g.bh
	x := h[i]
	start := i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1].less(h[c]) {
			c++
		}
		if !h[c].less(x) {
			break
		}
		h[i] = h[c]
		h[i].b.gidx = int32(i)
		i = c
	}
	h[i] = x
	x.b.gidx = int32(i)
	return i > start
}

func (g *group) removeAt(i int) {
	last := len(g.bh) - 1
	if i != last {
		g.bh[i] = g.bh[last]
		g.bh[i].b.gidx = int32(i)
	}
	g.bh[last] = member{}
	g.bh = g.bh[:last]
	if i != last {
		if !g.down(i) {
			g.up(i)
		}
	}
}
