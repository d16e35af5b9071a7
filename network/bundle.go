package network

// flow is one active transfer. Its progress lives in its bundle: the flow is
// done when the bundle's service clock reaches finish.
type flow struct {
	id       FlowID
	tag      int64
	size     float64
	key      bundleKey
	b        *bundle
	finish   float64 // bundle clock value at which the flow completes
	hidx     int     // position in b.flows
	elephant bool
}

// bundleKey groups max-min flows that always get the same per-flow rate:
// same endpoints (hence same route), class and cap. Elephants are kept apart
// from mice because only elephants may take a circuit. An explicit-rate flow
// (explicit >= 0) gets a private bundle, not shared and not in
// Network.bundles, so re-rating it moves nothing.
type bundleKey struct {
	src, dst int32
	class    int32 // <= MaxClass
	elephant bool
	fromRack bool    // FlowSpec.FromRack: no source NIC on the path
	cap      float64 // 0 = none
	explicit float64 // < 0 = max-min shared
	// wait, with a Granularity, is the grid point a max-min flow started
	// between grid points waits for (0 otherwise): such a flow must not join
	// a bundle that already has a rate, so it gets a bundle of its own kind
	// that stays free (rate 0) until the allocation at that grid point.
	wait float64
}

// bundle is a set of flows with one route and one per-flow rate: its group's
// (see group.go). Its service clock is its group's clock plus base, so a
// change of the group's rate moves no bundle; starting, finishing or reading
// a flow never touches its siblings.
type bundle struct {
	g     *group  // nil: free (new, resized out of a group or re-routed) until the next allocation
	base  float64 // clock = group clock + base; a free bundle's clock is base
	gidx  int32   // position in g.bh
	cidx  int32   // position in g.capped, -1
	route [4]int32
	nr    uint8 // route length
	cls   int32 // allocation class: key.class, or explicitClass
	nf    float64
	capv  float64 // key.cap (hot copy)
	// enext/eprev[k]: neighbours in the list of the group's edge to route[k].
	enext, eprev [4]*bundle

	changed bool // created, resized or re-routed since the last allocation
	retired bool
	smoves  uint8   // moves in the shift of epoch mark
	mark    uint64  // allocation pass scratch
	expInst float64 // explicit: the load it put on each of its links

	own   *group  // an explicit-rate bundle's group, allocated with it
	first float64 // finish clock of flows[0] (Inf when empty)
	flows []*flow // min-heap on (finish, id)
	key   bundleKey
	kind  pathKind
	seq   uint64 // creation order: deterministic tie-breaks
	aidx  int    // position in Network.all
}

// links is the bundle's route.
func (b *bundle) links() []int32 { return b.route[:b.nr] }

// slot is the index of link l in b's route.
func (b *bundle) slot(l int32) int {
	for k := range b.nr {
		if b.route[k] == l {
			return int(k)
		}
	}
	panic("network: link not on the bundle's route")
}

func (b *bundle) n() float64 { return b.nf }

// rate is the bundle's per-flow rate.
func (b *bundle) rate() float64 {
	if b.g == nil {
		return 0
	}
	return b.g.rate
}

// Flow heap on (finish, id): the completion order inside a bundle.

func flowLess(a, b *flow) bool {
	if a.finish != b.finish {
		return a.finish < b.finish
	}
	return a.id < b.id
}

func (b *bundle) push(f *flow) {
	f.b = b
	f.hidx = len(b.flows)
	b.flows = append(b.flows, f)
	b.nf = float64(len(b.flows))
	b.up(f.hidx)
	b.setFirst()
}

// remove takes f out of the heap.
func (b *bundle) remove(f *flow) {
	i, last := f.hidx, len(b.flows)-1
	if i != last {
		b.flows[i] = b.flows[last]
		b.flows[i].hidx = i
	}
	b.flows[last] = nil
	b.flows = b.flows[:last]
	b.nf = float64(last)
	if i != last {
		if !b.down(i) {
			b.up(i)
		}
	}
	f.b, f.hidx = nil, -1
	b.setFirst()
}

func (b *bundle) up(i int) {
	h := b.flows
	for i > 0 {
		p := (i - 1) / 2
		if !flowLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		h[i].hidx, h[p].hidx = i, p
		i = p
	}
}

func (b *bundle) down(i int) bool {
	h := b.flows
	start := i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && flowLess(h[c+1], h[c]) {
			c++
		}
		if !flowLess(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		h[i].hidx, h[c].hidx = i, c
		i = c
	}
	return i > start
}

// class is the bundle's priority for the allocator: explicit-rate bundles
// come before every class.
func (b *bundle) class() int { return int(b.cls) }

const explicitClass = -1

func classOf(k bundleKey) int32 {
	if k.explicit >= 0 {
		return explicitClass
	}
	return k.class
}

func (b *bundle) setFirst() {
	if len(b.flows) == 0 {
		b.first = Inf
	} else {
		b.first = b.flows[0].finish
	}
}
