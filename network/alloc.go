package network

import (
	"math"
	"slices"
)

// flush recomputes rates if anything changed since the last allocation.
func (n *Network) flush() {
	if len(n.dirty) > 0 {
		n.allocate()
	}
}

// allocate recomputes the rates of the connected part of the bundle/link
// graph reachable from the dirty links. Bundles outside it share no link
// with any changed bundle, so (strict priority and max-min being decided
// link by link) their rates cannot change.
func (n *Network) allocate() {
	n.collectComponent()
	n.dirty = n.dirty[:0]
	n.Allocations++
	n.AllocatedBundles += int64(len(n.compB))

	for _, l := range n.compL {
		ln := &n.links[l]
		ln.res = ln.cap
	}
	// Explicit rates are served first, whatever their class.
	n.classes = n.classes[:0]
	explicit := false
	for _, b := range n.compB {
		b.frozen = false
		if b.key.explicit >= 0 {
			b.newRate = b.key.explicit
			b.frozen = true
			explicit = true
			for _, l := range b.route {
				n.links[l].res -= b.key.explicit * b.n()
			}
			continue
		}
		if i, ok := slices.BinarySearch(n.classes, b.key.class); !ok {
			n.classes = slices.Insert(n.classes, i, b.key.class)
		}
	}
	for _, l := range n.compL {
		ln := &n.links[l]
		ln.res = max(ln.res, 0) // the caller keeps explicit rates feasible; clamp if not
	}
	// Strict priority: fill classes one after another, lower class first.
	if len(n.classes) == 1 && !explicit {
		n.waterFill(n.compB)
		n.applyRates()
		return
	}
	for len(n.byClass) < len(n.classes) {
		n.byClass = append(n.byClass, nil)
	}
	for i := range n.classes {
		n.byClass[i] = n.byClass[i][:0]
	}
	for _, b := range n.compB {
		if b.key.explicit < 0 {
			i, _ := slices.BinarySearch(n.classes, b.key.class)
			n.byClass[i] = append(n.byClass[i], b)
		}
	}
	for i := range n.classes {
		n.waterFill(n.byClass[i])
	}
	n.applyRates()
}

// collectComponent gathers into compB/compL every bundle and link reachable
// from the dirty links through shared links.
func (n *Network) collectComponent() {
	n.epoch++
	ep := n.epoch
	n.compB, n.compL = n.compB[:0], n.compL[:0]
	for _, l := range n.dirty {
		if n.links[l].mark != ep {
			n.links[l].mark = ep
			n.compL = append(n.compL, l)
		}
	}
	// compL doubles as the BFS queue.
	for i := 0; i < len(n.compL); i++ {
		for _, b := range n.links[n.compL[i]].bundles {
			if b.mark == ep {
				continue
			}
			b.mark = ep
			n.compB = append(n.compB, b)
			for _, l := range b.route {
				if n.links[l].mark != ep {
					n.links[l].mark = ep
					n.compL = append(n.compL, l)
				}
			}
		}
	}
}

// waterFill gives the bundles of one class their max-min fair per-flow rates
// over the capacity the higher classes left (links[l].res), then subtracts
// what it used. Progressive filling: all unfrozen flows rise together; the
// link whose capacity runs out first (the lowest saturation level) freezes
// the bundles crossing it; a cap freezes a bundle at the cap. Links sit in a
// heap keyed by saturation level, so one class costs
// O(sum of route lengths x log links + bundles on saturated links).
func (n *Network) waterFill(bs []*bundle) {
	n.pass++
	ps := n.pass
	n.touched = n.touched[:0]
	n.capped = n.capped[:0]
	for _, b := range bs {
		b.pass = ps
		b.frozen = false
		if b.key.cap > 0 {
			n.capped = append(n.capped, b)
		}
		w := b.n()
		for _, l := range b.route {
			ln := &n.links[l]
			if ln.pass != ps {
				ln.pass = ps
				ln.frozen, ln.weight = 0, 0
				n.touched = append(n.touched, l)
			}
			ln.weight += w
		}
	}
	if len(n.capped) > 1 {
		slices.SortFunc(n.capped, func(a, b *bundle) int {
			if a.key.cap != b.key.cap {
				if a.key.cap < b.key.cap {
					return -1
				}
				return 1
			}
			return int(a.seq - b.seq)
		})
	}
	q := &n.lh
	q.h = q.h[:0]
	for _, l := range n.touched {
		ln := &n.links[l]
		ln.level = ln.res / ln.weight
		q.push(l)
	}
	unfrozen, ci := len(bs), 0
	for unfrozen > 0 {
		// Next freezing event: a cap or a link running out.
		for ci < len(n.capped) && n.capped[ci].frozen {
			ci++
		}
		lvl := Inf
		if len(q.h) > 0 {
			lvl = n.links[q.h[0]].level
		}
		if ci < len(n.capped) && n.capped[ci].key.cap <= lvl {
			n.freeze(n.capped[ci], n.capped[ci].key.cap)
			unfrozen--
			continue
		}
		if len(q.h) == 0 {
			break // cannot happen: every unfrozen bundle keeps its links in the heap
		}
		l := q.pop()
		for _, b := range n.links[l].bundles {
			if b.pass == ps && !b.frozen {
				n.freeze(b, lvl)
				unfrozen--
			}
		}
	}
	for _, l := range q.h {
		n.links[l].hidx = -1
	}
	for _, l := range n.touched {
		ln := &n.links[l]
		ln.res = max(0, ln.res-ln.frozen)
	}
}

// freeze fixes b's per-flow rate and updates the saturation level of the
// links it crosses: level = (capacity left - frozen load) / unfrozen flows.
func (n *Network) freeze(b *bundle, rate float64) {
	b.frozen = true
	b.newRate = rate
	w := b.n()
	q := &n.lh
	for _, l := range b.route {
		ln := &n.links[l]
		ln.frozen += rate * w
		ln.weight -= w
		if ln.hidx < 0 {
			continue
		}
		if ln.weight <= 0.5 { // weights are flow counts: 0.5 means none left
			ln.weight = 0
			q.removeAt(ln.hidx)
			continue
		}
		ln.level = max(rate, (ln.res-ln.frozen)/ln.weight)
		q.fix(l)
	}
}

// applyRates installs the new rates at the current time, reschedules the
// bundles' completions and refreshes the loads of the component's links.
func (n *Network) applyRates() {
	now := n.now
	for _, b := range n.compB {
		if b.newRate != b.rate {
			b.advance(now)
			b.last = now
			b.rate = b.newRate
		}
		if nx := b.nextFinish(); nx != b.next {
			b.next = nx
			n.events.set(b)
		}
	}
	for _, l := range n.compL {
		ln := &n.links[l]
		ln.advance(now)
		load := 0.0
		for _, b := range ln.bundles {
			load += b.rate * b.n()
		}
		if math.Abs(load) < 1e-300 {
			load = 0
		}
		ln.load = load
	}
}
