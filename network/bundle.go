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
	elephant bool
	class    int
	cap      float64 // 0 = none
	explicit float64 // < 0 = max-min shared
}

// bundle is a set of flows with one route and one per-flow rate. clock is the
// bytes served to each of its flows since the bundle was created, so starting,
// finishing or reading a flow never touches its siblings.
type bundle struct {
	// Hot fields first, laid out so that the allocator's search and freeze
	// read one cache line per bundle (64 bytes: mark .. cls).
	mark    uint64   // allocation pass that put it in the region
	route   [4]int32 // links, NIC up first
	pos     [4]int32 // pos[k] = index of this bundle in links[route[k]].ents
	nf      float64  // len(flows), as the allocator's weight
	capv    float64  // key.cap (hot copy)
	nr      uint8    // route length
	frozen  bool
	changed bool // created, resized or re-routed since the last allocation
	retired bool
	cls     int32 // allocation class: key.class, or explicitClass

	// Service state: read and written when the rate changes.
	rate   float64 // per flow, bytes/s
	clock  float64 // per-flow service up to time last
	last   float64
	first  float64 // finish clock of flows[0] (Inf when empty)
	next   float64 // time its first flow completes (Inf if never)
	served float64 // bytes carried since created or last re-routed; folded into Stats then
	hidx   int     // position in the event heap, -1 if absent
	hkey   float64 // its key there: a slower completion is told apart without reading the heap
	seq    uint64  // creation order: deterministic tie-breaks

	flows []*flow // min-heap on (finish, id)
	key   bundleKey
	kind  pathKind
	// fresh: routed (or re-routed) since the last allocation, which so gave
	// it no rate on these links.
	fresh bool
	aidx  int // position in Network.all
}

// links is the bundle's route.
func (b *bundle) links() []int32 { return b.route[:b.nr] }

func (b *bundle) n() float64 { return b.nf }

// advance brings the service clock up to now at the current rate.
func (b *bundle) advance(now float64) {
	if dt := now - b.last; dt > 0 {
		s := b.rate * dt
		b.clock += s
		b.served += s * b.n()
		b.last = now
	}
}

// rerate switches the per-flow rate at now, first serving the old rate up to
// now; it reports whether the rate changed.
func (b *bundle) rerate(now, r float64) bool {
	if r == b.rate {
		return false
	}
	b.advance(now)
	b.last = now
	b.rate = r
	return true
}

// nextFinish is the time the first flow completes at the current rate.
func (b *bundle) nextFinish() float64 {
	if b.nf == 0 || b.rate <= 0 {
		return Inf
	}
	return b.last + max(0, b.first-b.clock)/b.rate
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
	return int32(k.class)
}

func (b *bundle) setFirst() {
	if len(b.flows) == 0 {
		b.first = Inf
	} else {
		b.first = b.flows[0].finish
	}
}
