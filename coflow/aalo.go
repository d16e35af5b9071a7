package coflow

import (
	"cmp"
	"math"
	"slices"
)

// aaloPolicy is Aalo's D-CLAS (discretized coflow-aware least attained
// service). A coflow's queue is the number of queue limits its sent bytes
// have reached: Q0 holds coflows that sent less than the first limit, each
// later limit is mult times the previous, the last queue is unbounded.
// Coflows only move to lower-priority queues. Inside a queue coflows are
// served FIFO; across queues either strict priority or, when weighted, each
// port is divided between the queues present at it by weight K-q.
type aaloPolicy struct {
	queues   int
	first    float64
	mult     float64
	weighted bool

	order []*coflowState
	segs  []segment // scratch for crossing
	// Weighted mode: per-queue budgets per port, and the sum of the weights
	// present at each port.
	budUp, budDown [][]float64
	wUp, wDown     []float64
}

func newAalo(o Options, ports int) *aaloPolicy {
	p := &aaloPolicy{queues: o.AaloQueues, first: o.AaloFirstLimit, mult: o.AaloMultiplier, weighted: o.AaloWeighted}
	if p.weighted {
		p.budUp, p.budDown = make([][]float64, p.queues), make([][]float64, p.queues)
		for q := range p.queues {
			p.budUp[q], p.budDown[q] = make([]float64, ports), make([]float64, ports)
		}
		p.wUp, p.wDown = make([]float64, ports), make([]float64, ports)
	}
	return p
}

// crossTol is the relative slack with which a coflow reaches a limit, so
// that floating-point noise at the exact crossing time cannot leave it a
// hair below and schedule a zero-length event.
const crossTol = 1e-9

// limit is the upper bound, in bytes sent, of queue q.
func (p *aaloPolicy) limit(q int) float64 { return p.first * math.Pow(p.mult, float64(q)) }

// queueFor is the queue of a coflow that has sent the given bytes.
func (p *aaloPolicy) queueFor(sent float64) int {
	q := 0
	for q < p.queues-1 && sent >= p.limit(q)*(1-crossTol) {
		q++
	}
	return q
}

func sent(c *coflowState) float64 {
	s := c.netBytes
	for i := range c.flows {
		s -= c.flows[i].rem
	}
	return max(0, s)
}

// requeue moves coflows whose sent bytes reached their queue's limit and
// reports whether any moved.
func (p *aaloPolicy) requeue(active []*coflowState) bool {
	moved := false
	for _, c := range active {
		if q := p.queueFor(sent(c)); q > c.queue {
			c.queue, moved = q, true
		}
	}
	return moved
}

// nextCrossing is the earliest time any active coflow reaches its queue's
// limit at the rates currently applied.
func (p *aaloPolicy) nextCrossing(now float64, active []*coflowState) float64 {
	next := math.Inf(1)
	for _, c := range active {
		next = min(next, p.crossing(now, c))
	}
	return next
}

// crossing is when c's sent bytes reach its queue's limit at the rates
// applied now (+Inf if never). It accounts for flows finishing before then
// (each stops adding to the coflow's sending rate), so the time is exact.
// Its flows' rem must be current.
func (p *aaloPolicy) crossing(now float64, c *coflowState) float64 {
	if c.queue >= p.queues-1 {
		return math.Inf(1)
	}
	need := p.limit(c.queue) - sent(c)
	p.segs = p.segs[:0]
	var rate float64
	for i := range c.flows {
		f := &c.flows[i]
		if !f.done && f.rate > 0 {
			p.segs = append(p.segs, segment{f.rem / f.rate, f.rate})
			rate += f.rate
		}
	}
	slices.SortFunc(p.segs, func(x, y segment) int { return cmp.Compare(x.end, y.end) })
	// Walk the piecewise-linear sent(t): each segment ends when a flow
	// finishes and the rate drops by that flow's rate.
	t := 0.0
	for _, s := range p.segs {
		if rate*(s.end-t) >= need {
			return max(now+t+need/rate, math.Nextafter(now, math.Inf(1)))
		}
		need -= rate * (s.end - t)
		t, rate = s.end, rate-s.rate
	}
	return math.Inf(1)
}

// segment is one flow's contribution to its coflow's sending rate: rate
// until end (seconds from now).
type segment struct{ end, rate float64 }

func (p *aaloPolicy) allocate(a *allocator, active []*coflowState) {
	p.order = append(p.order[:0], active...)
	slices.SortStableFunc(p.order, func(x, y *coflowState) int {
		return cmp.Or(cmp.Compare(x.queue, y.queue), cmp.Compare(x.idx, y.idx))
	})
	a.reset(active)
	if p.weighted {
		p.budgets(a, active)
	}
	for _, c := range p.order {
		if p.weighted {
			a.split(c, p.budUp[c.queue], p.budDown[c.queue])
		} else {
			a.split(c, nil, nil)
		}
	}
	a.backfill(p.order)
}

// budgets divides every port between the queues that have an unfinished
// flow through it, queue q getting weight K-q.
func (p *aaloPolicy) budgets(a *allocator, active []*coflowState) {
	for q := range p.queues {
		clear(p.budUp[q])
		clear(p.budDown[q])
	}
	clear(p.wUp)
	clear(p.wDown)
	// Mark presence with -1 first, then turn marks into weighted shares.
	for _, c := range active {
		for i := range c.flows {
			if f := &c.flows[i]; !f.done {
				p.budUp[c.queue][f.src] = -1
				p.budDown[c.queue][f.dst] = -1
			}
		}
	}
	for q := range p.queues {
		w := float64(p.queues - q)
		for port := range p.wUp {
			if p.budUp[q][port] < 0 {
				p.wUp[port] += w
			}
			if p.budDown[q][port] < 0 {
				p.wDown[port] += w
			}
		}
	}
	for q := range p.queues {
		w := float64(p.queues - q)
		for port := range p.wUp {
			if p.budUp[q][port] < 0 {
				p.budUp[q][port] = a.speed * w / p.wUp[port]
			}
			if p.budDown[q][port] < 0 {
				p.budDown[q][port] = a.speed * w / p.wDown[port]
			}
		}
	}
}
