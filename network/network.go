package network

import (
	"fmt"
	"math"
)

// Network is the flow-level model. It is not safe for concurrent use.
type Network struct {
	cfg   Config
	topo  topology
	links []link
	now   float64

	// flows[i] is flow flowBase+i (ids are sequential from 1, never
	// reused): a lookup is one subtraction and a bounds check; nil for
	// finished or cancelled flows. Finished flows at the front are trimmed,
	// so it holds one pointer per id from the oldest active flow to the
	// newest, not one per flow ever started (934 M on the full-size FB-2010
	// day).
	flows    []*flow
	flowBase FlowID
	nflows   int         // active flows
	bundles  bundleTable // max-min bundles; explicit ones are private
	all      []*bundle   // the same bundles, in a deterministic order
	lastID   FlowID
	seq      uint64
	events   eventHeap

	// The bottleneck structure, one per class present (group.go).
	classes   map[int]*classState
	classList []*classState // by class
	groups    []*group      // every group, in a deterministic order
	spare     []*group      // dropped groups for reuse
	resched   []*group      // groups whose next completion may have changed

	// What changed since the last allocation: links (with the class of the
	// change) and bundles. allocate starts from them.
	dirty   []dirtyLink
	changed []*bundle
	epoch   uint64
	allocEp uint64 // epoch of the allocation in progress

	doneBytes [3]float64 // bytes by pathKind of dropped groups and completions' last slivers

	ocs *ocsState
	mon *monitor
	err error // stops the clock (Err)

	pending []Completion // found while a mutation moved time forward
	batch   []Completion

	alloc allocScratch
	// Allocations counts calls that recomputed rates; AllocatedBundles sums
	// the bundles those calls covered (cost accounting for benchmarks).
	Allocations, AllocatedBundles int64
	// Moves counts bundles that changed bottleneck (group) in an allocation;
	// Shifts counts class passes done without any (shift.go).
	Moves, Shifts int64
}

var _ API = (*Network)(nil)

// New validates cfg and builds the network at time 0.
func New(cfg Config) (*Network, error) {
	cfg, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := checkIntervals(cfg); err != nil {
		return nil, err
	}
	n := &Network{
		cfg:     cfg,
		flows:   make([]*flow, 1, 64), // flows[0]: no flow has id 0
		classes: make(map[int]*classState),
	}
	n.topo, n.links = buildTopology(cfg)
	if cfg.Kind == Hybrid {
		n.ocs = newOCS(cfg.OCS, cfg.Racks)
	}
	if cfg.Monitor.Interval > 0 {
		n.mon = newMonitor(cfg.Monitor, n)
	}
	return n, nil
}

// Err is the error that stopped the network's clock, or nil.
func (n *Network) Err() error { return n.err }

// Config returns the configuration as checked (Kind and Racks filled in).
func (n *Network) Config() Config { return n.cfg }

// Now is the network's current time.
func (n *Network) Now() float64 { return n.now }

// at moves the clock to a mutation's time. Internal events due before it are
// processed first; their completions wait for the next AdvanceTo call. A time
// in the past is treated as the current time.
func (n *Network) at(now float64) {
	if now > n.now && !math.IsInf(now, 1) {
		n.advance(now, func(c Completion) { n.pending = append(n.pending, c) })
	}
}

// Start adds a flow at time now.
func (n *Network) Start(now float64, f FlowSpec) (FlowID, error) {
	M := len(n.topo.machines)
	switch {
	case math.IsNaN(now) || now < n.now:
		return 0, fmt.Errorf("network: start at time %v, before the current time %v", now, n.now)
	case f.Src < 0 || f.Src >= M || f.Dst < 0 || f.Dst >= M:
		return 0, fmt.Errorf("network: flow %d->%d: machine out of range [0,%d)", f.Src, f.Dst, M)
	case f.Src == f.Dst:
		return 0, fmt.Errorf("network: flow %d->%d: a node-local transfer is not a flow", f.Src, f.Dst)
	case !finite(f.Size) || f.Size <= 0:
		return 0, fmt.Errorf("network: flow %d->%d: size %v must be positive and finite", f.Src, f.Dst, f.Size)
	case f.Class < 0 || f.Class > MaxClass:
		return 0, fmt.Errorf("network: flow %d->%d: class %d is outside [0, %d]", f.Src, f.Dst, f.Class, MaxClass)
	case !finite(f.RateCap) || f.RateCap < 0:
		return 0, fmt.Errorf("network: flow %d->%d: rate cap %v must be finite and >= 0", f.Src, f.Dst, f.RateCap)
	case !finite(f.Aggregate) || f.Aggregate < 0:
		return 0, fmt.Errorf("network: flow %d->%d: aggregate %v must be finite and >= 0", f.Src, f.Dst, f.Aggregate)
	case f.FromRack && (n.topo.rackBase < 0 || n.topo.kindOf(int32(f.Src), int32(f.Dst)) == pathIntra):
		return 0, fmt.Errorf("network: flow %d->%d: a flow from a rack needs rack links and a destination in another rack", f.Src, f.Dst)
	}
	n.at(now)
	n.lastID++
	fl := &flow{id: n.lastID, tag: f.Tag, size: f.Size}
	fl.elephant = n.ocs != nil && max(f.Size, f.Aggregate) >= n.cfg.OCS.ElephantThreshold &&
		n.topo.kindOf(int32(f.Src), int32(f.Dst)) != pathIntra
	fl.key = bundleKey{src: int32(f.Src), dst: int32(f.Dst), elephant: fl.elephant, fromRack: f.FromRack,
		class: int32(f.Class), cap: f.RateCap, explicit: -1}
	n.flows = append(n.flows, fl) // index lastID - flowBase
	n.nflows++
	n.addFlow(fl, fl.key, f.Size)
	return fl.id, nil
}

// Cancel removes an active flow; the bytes it already moved stay counted.
// Unknown or finished ids are ignored.
func (n *Network) Cancel(now float64, id FlowID) {
	fl := n.flow(id)
	if fl == nil {
		return
	}
	n.at(now)
	if fl = n.flow(id); fl == nil { // finished while time moved
		return
	}
	n.removeFlow(fl)
	n.dropFlow(id)
}

// flow returns the active flow id, or nil.
func (n *Network) flow(id FlowID) *flow {
	i := id - n.flowBase
	if id <= 0 || i < 0 || i >= FlowID(len(n.flows)) {
		return nil
	}
	return n.flows[i]
}

// dropFlow forgets a finished or cancelled flow, and the finished ids at
// the front of the index (append moves the rest to a new array when the
// old one's capacity runs out, so the trimmed front is freed then).
func (n *Network) dropFlow(id FlowID) {
	n.flows[id-n.flowBase] = nil
	n.nflows--
	for len(n.flows) > 0 && n.flows[0] == nil {
		n.flows = n.flows[1:]
		n.flowBase++
	}
}

// SetClass changes a flow's priority class (values outside [0, MaxClass]
// are ignored: callers check them, as Start does).
func (n *Network) SetClass(now float64, id FlowID, class int) {
	if class < 0 || class > MaxClass {
		return
	}
	n.rekey(now, id, func(k *bundleKey) { k.class = int32(class) })
}

// MaxClass is the largest priority class (classes are kept in 32 bits).
const MaxClass = math.MaxInt32

// SetRateCap caps a max-min flow's rate; 0 (or a bad value) removes the cap.
func (n *Network) SetRateCap(now float64, id FlowID, c float64) {
	if !finite(c) || c < 0 {
		c = 0
	}
	n.rekey(now, id, func(k *bundleKey) { k.cap = c })
}

// SetRate pins a flow to an explicit rate (the cap does not apply to it);
// rate < 0 returns it to max-min sharing.
func (n *Network) SetRate(now float64, id FlowID, rate float64) {
	if math.IsNaN(rate) || rate < 0 {
		rate = -1
	}
	if math.IsInf(rate, 1) {
		return
	}
	n.rekey(now, id, func(k *bundleKey) { k.explicit = rate })
}

// rekey moves a flow to the bundle of its changed key, keeping its progress.
// An explicit-rate flow has a private bundle: changing its rate only
// re-rates that bundle, and its class or cap (which do not apply to it) are
// just recorded.
func (n *Network) rekey(now float64, id FlowID, change func(*bundleKey)) {
	fl := n.flow(id)
	if fl == nil {
		return
	}
	k := fl.key
	change(&k)
	if k == fl.key {
		return
	}
	if k.explicit >= 0 && fl.key.explicit >= 0 && k.explicit == fl.key.explicit {
		fl.key = k // class or cap of a pinned flow: no rate changes
		fl.b.key, fl.b.capv = k, k.cap
		return
	}
	n.at(now)
	if fl = n.flow(id); fl == nil {
		return
	}
	if k.explicit >= 0 && fl.key.explicit >= 0 {
		b := fl.b
		fl.key, b.key, b.capv = k, k, k.cap
		n.markDirty(b)
		return
	}
	rem := n.removeFlow(fl)
	fl.key = k
	n.addFlow(fl, k, rem)
}

// addFlow puts fl with rem bytes left into the bundle of key k.
func (n *Network) addFlow(fl *flow, k bundleKey, rem float64) {
	var b *bundle
	if k.explicit < 0 {
		k.wait = 0
		if n.cfg.Granularity > 0 && !n.onGrid(n.now) {
			k.wait = n.ceilGrid(n.now) // (not the running bundle of its route: see bundleKey)
		}
		fl.key = k
		b = n.bundles.get(&k)
	}
	if b == nil {
		b = n.newBundle(k)
	}
	fl.finish = n.bclock(b) + rem
	first := b.first
	b.push(fl)
	if b.g != nil {
		n.reweigh(b, 1)
		if b.first != first {
			n.refirst(b)
		}
	}
	n.markDirty(b)
}

// removeFlow takes fl out of its bundle and returns its remaining bytes.
func (n *Network) removeFlow(fl *flow) float64 {
	b := fl.b
	rem := fl.finish - b.base
	if g := b.g; g != nil {
		g.advance(n.now)
		n.touch(g)
		rem -= g.clock
	}
	if rem < 0 && n.cfg.Granularity > 0 {
		// (its bytes ran out between grid points and its group served it
		// past its end: count its size exactly, as a completion does)
		n.doneBytes[b.kind] += rem
	}
	rem = max(0, rem)
	first := b.first
	b.remove(fl)
	if b.g != nil {
		n.reweigh(b, -1)
	}
	if len(b.flows) == 0 {
		n.retire(b)
		return rem
	}
	if b.first != first {
		n.refirst(b)
	}
	n.markDirty(b)
	return rem
}

func (n *Network) newBundle(k bundleKey) *bundle {
	n.seq++
	var b *bundle
	if k.explicit >= 0 {
		// An explicit-rate bundle is its own group: allocated together, so
		// that reading its progress touches neighbouring memory.
		x := &struct {
			b bundle
			g group
		}{}
		b, x.b.own = &x.b, &x.g
	} else {
		b = &bundle{}
	}
	*b = bundle{own: b.own, key: k, capv: k.cap, seq: n.seq, cls: classOf(k), first: Inf, cidx: -1}
	b.kind = n.topo.kindOf(k.src, k.dst)
	if k.elephant && n.ocs.active(n.topo.machines[k.src].Rack, n.topo.machines[k.dst].Rack, n.now) {
		b.kind = pathOCS
	}
	b.nr = n.topo.route(&b.route, k, b.kind)
	if k.elephant {
		n.ocs.addElephant(b)
	}
	if k.explicit < 0 {
		n.bundles.put(b)
	}
	if c := b.class(); c != explicitClass {
		n.classOf(c).count++
	}
	b.aidx = len(n.all)
	n.all = append(n.all, b)
	return b
}

// release takes b out of its group (b becomes free, keeping its clock) and
// takes an explicit-rate bundle's load off its links. The links are marked
// dirty.
func (n *Network) release(b *bundle) {
	if g := b.g; g != nil {
		if g.kind == gExplicit {
			for _, l := range b.links() {
				ln := &n.links[l]
				ln.exp -= b.expInst
				if ln.nexp--; ln.nexp == 0 {
					ln.exp = 0
				}
			}
			b.expInst = 0
		}
		if g.kind != gExplicit {
			for _, l := range b.links() {
				g.cs.ls[l].pend -= b.nf * g.rate
			}
		}
		n.exit(b)
		if g.nf == 0 {
			n.dropGroup(g)
		}
	}
	c := b.class()
	for _, l := range b.links() {
		n.dirty = append(n.dirty, dirtyLink{l, c})
	}
}

// retire deletes an empty bundle.
func (n *Network) retire(b *bundle) {
	n.release(b)
	if b.key.elephant {
		n.ocs.removeElephant(b)
	}
	if b.key.explicit < 0 {
		n.bundles.remove(b)
	}
	b.retired = true
	if c := b.class(); c != explicitClass {
		n.classes[c].count-- // an empty class is dropped after its last pass
	}
	last := len(n.all) - 1
	if b.aidx != last {
		n.all[b.aidx] = n.all[last]
		n.all[b.aidx].aidx = b.aidx
	}
	n.all[last] = nil
	n.all = n.all[:last]
}

// reroute moves a bundle (and its flows) to a path of another kind.
func (n *Network) reroute(b *bundle, k pathKind) {
	n.release(b)
	b.kind = k
	b.nr = n.topo.route(&b.route, b.key, b.kind)
	n.markDirty(b)
}

// markDirty records that b must get a new rate and its links new loads.
func (n *Network) markDirty(b *bundle) {
	c := b.class()
	for _, l := range b.links() {
		n.dirty = append(n.dirty, dirtyLink{l, c})
	}
	if !b.changed {
		b.changed = true
		n.changed = append(n.changed, b)
	}
}

type dirtyLink struct {
	l     int32
	class int
}

// Remaining is the flow's bytes left at the current time (0 if unknown).
func (n *Network) Remaining(id FlowID) float64 {
	fl := n.flow(id)
	if fl == nil {
		return 0
	}
	b := fl.b
	rem := fl.finish - b.base // (in this order: exact for a bundle whose clock is its group's)
	if g := b.g; g != nil {
		rem = rem - g.clock - g.rate*(n.now-g.last)
	}
	return max(0, rem)
}

// Rate is the flow's current rate in bytes/s (0 if unknown).
func (n *Network) Rate(id FlowID) float64 {
	fl := n.flow(id)
	if fl == nil {
		return 0
	}
	n.flush()
	return fl.b.rate()
}

// ActiveFlows is the number of flows started and not yet finished or cancelled.
func (n *Network) ActiveFlows() int { return n.nflows }

// ActiveBundles is the number of bundles: distinct (route, class, cap)
// groups of max-min flows, plus one per explicit-rate flow.
func (n *Network) ActiveBundles() int { return len(n.all) }

// Groups is the number of bottleneck groups (group.go): the distinct rates
// of the max-min bundles, plus one per explicit-rate bundle.
func (n *Network) Groups() int { return len(n.groups) }
