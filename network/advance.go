package network

import (
	"math"
	"slices"
)

// timeTol is how close (in seconds) two internal events must be to be
// processed as one: floating-point noise in service clocks must not turn
// one instant into a storm of zero-length steps.
func timeTol(t float64) float64 { return 1e-11 * max(1, math.Abs(t)) }

// Apart reports whether an event at a comes strictly before one at b, beyond
// the tolerance within which AdvanceTo processes events as one.
func Apart(a, b float64) bool { return a+timeTol(a) < b }

// byteTol is the relative size below which a flow's remaining bytes count as
// nothing.
const byteTol = 1e-9

// NextEvent is the time of the earliest internal event, or Inf.
func (n *Network) NextEvent() float64 {
	n.flush()
	return n.nextTime()
}

func (n *Network) nextTime() float64 {
	t := Inf
	if g := n.events.top(); g != nil {
		t = g.next
	}
	if q := n.cfg.Granularity; q > 0 {
		// Coarser model: completions happen at the grid point at or after
		// their exact time, and changes waiting for an allocation at the
		// next grid point.
		t = n.ceilGrid(t)
		if n.unallocated() {
			t = min(t, n.ceilGrid(n.now))
		}
	}
	if n.ocs != nil {
		t = min(t, n.ocs.nextEvent())
	}
	if n.mon != nil && !n.mon.resting {
		t = min(t, n.mon.next)
	}
	return max(t, n.now)
}

// AdvanceTo processes every internal event at or before t and leaves the
// network at time t. Completions go to done in (time, id) order; done may
// start, cancel or change flows at the completion's time.
func (n *Network) AdvanceTo(t float64, done func(Completion)) {
	if len(n.pending) > 0 {
		p := n.pending
		n.pending = nil
		if done != nil {
			for _, c := range p {
				done(c)
			}
		}
	}
	n.advance(t, done)
}

func (n *Network) advance(t float64, done func(Completion)) {
	if math.IsNaN(t) {
		return
	}
	for n.err == nil {
		n.flush()
		te := n.nextTime()
		if m := n.mon; m != nil && m.resting {
			// Samples alone in their step repeat the last one: skip them.
			// The next is taken as usual (it leaves the monitor resting).
			if !n.unallocated() {
				m.skip(n, min(te, t))
			}
			te = max(min(te, m.next), n.now)
		}
		if te > t+timeTol(t) || math.IsInf(te, 1) {
			break
		}
		// An event within float noise after t happens at t: a flow must not
		// sit with a sliver of bytes left behind the caller's time.
		due := te
		te = min(te, max(t, n.now))
		n.now = te
		batch := n.complete(te, due)
		if len(batch) > 0 && done != nil {
			n.batch = nil // a re-entrant call must not reuse this slice
			for _, c := range batch {
				done(c)
			}
		}
		n.batch = batch[:0]
		if n.ocs != nil && n.ocs.nextEvent() <= te+timeTol(te) {
			n.flush()
			n.ocsStep(te)
		}
		if n.mon != nil && n.mon.next <= te+timeTol(te) {
			n.flush()
			n.mon.sample(n, te)
		}
	}
	if t > n.now && !math.IsInf(t, 1) && n.err == nil {
		n.now = t
	}
}

// complete finishes every flow due by te (within tolerance) and returns the
// completions sorted by id. due is the event time te stands for (te may be
// the caller's time within the tolerance before it): in the coarser model a
// completion due at grid point due is processed at te even when its exact
// time lies past te's own horizon (before due), or advance would come back
// to due forever.
func (n *Network) complete(te, due float64) []Completion {
	batch := n.batch[:0]
	horizon := te + timeTol(te)
	if n.cfg.Granularity > 0 {
		horizon = max(horizon, due+timeTol(due))
	}
	for {
		g := n.events.top()
		if g == nil || g.next > horizon {
			break
		}
		g.advance(te)
		some := false
		// Members in completion order; a flow is due when its remaining
		// bytes are within byteTol of nothing or it would finish within the
		// horizon (the same expression as nextFinish).
		for len(g.bh) > 0 {
			b := g.bh[0].b
			done := 0
			for len(b.flows) > 0 {
				f := b.flows[0]
				rem := (f.finish - b.base) - g.clock
				if rem > byteTol*f.size && (g.rate <= 0 || g.last+rem/g.rate > horizon) && (some || done > 0) {
					// (a group that was due completes at least its first
					// flow, even if rounding put it a hair past the horizon)
					break
				}
				b.remove(f)
				if n.cfg.Granularity > 0 {
					// (its group served it rem bytes too many, at most one
					// grid interval of its rate: count its size exactly)
					n.doneBytes[b.kind] += rem
				} else {
					n.doneBytes[b.kind] += max(rem, 0) // count the flow's full size
				}
				n.dropFlow(f.id)
				batch = append(batch, Completion{ID: f.id, Tag: f.tag, Time: te, Size: f.size})
				done++
			}
			some = some || done > 0
			if done == 0 {
				break
			}
			n.reweigh(b, -float64(done))
			if len(b.flows) == 0 {
				n.retire(b)
				if g.dead {
					break
				}
				continue
			}
			n.refirst(b)
			n.markDirty(b)
		}
		if g.dead {
			continue
		}
		g.next = g.nextFinish()
		n.events.set(g)
	}
	if len(batch) > 1 {
		slices.SortFunc(batch, func(a, b Completion) int { return int(a.ID - b.ID) })
	}
	return batch
}

// Grid of the coarser model (Config.Granularity = q > 0).

// onGrid reports whether t is a grid point (within the event tolerance).
func (n *Network) onGrid(t float64) bool {
	q := n.cfg.Granularity
	k := math.Round(t / q)
	return math.Abs(t-k*q) <= timeTol(t)
}

// ceilGrid is the first grid point at or after t.
func (n *Network) ceilGrid(t float64) float64 {
	if math.IsInf(t, 1) || n.onGrid(t) {
		if math.IsInf(t, 1) {
			return t
		}
		return math.Round(t/n.cfg.Granularity) * n.cfg.Granularity
	}
	q := n.cfg.Granularity
	return math.Ceil(t/q) * q
}
