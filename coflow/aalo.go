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

// sent is the bytes c delivered so far, from its flows' rem.
func sent(c *coflowState) float64 {
	s := c.netBytes
	for i := range c.flows {
		s -= c.flows[i].rem
	}
	return max(0, s)
}

// Between reallocations each coflow's sent bytes are tracked incrementally
// (sent0 at time sentAt, growing at sendRate, the sum of its unfinished
// flows' applied rates), so that checking a coflow costs O(1) instead of a
// pass over its flows. Every change of sendRate (a flow finishing, a refill
// raising a rate) first brings sent0 up to that instant.

// resync restarts the tracking from the flows' current rem and rates; call
// after a reallocation.
func (p *aaloPolicy) resync(t float64, active []*coflowState) {
	for _, c := range active {
		c.sent0, c.sentAt, c.sendRate = sent(c), t, 0
		for i := range c.flows {
			if f := &c.flows[i]; !f.done && f.rate > 0 {
				c.sendRate += f.rate
			}
		}
	}
}

func advance(c *coflowState, t float64) {
	if t > c.sentAt {
		c.sent0 += c.sendRate * (t - c.sentAt)
		c.sentAt = t
	}
}

// rateChanged records that one of c's flows went from rate old to new at t
// (new = 0 when it finished).
func (p *aaloPolicy) rateChanged(c *coflowState, old, new, t float64) {
	advance(c, t)
	c.sendRate = max(0, c.sendRate+max(new, 0)-max(old, 0))
}

// requeue moves the coflows whose sent bytes reached their queue's limit by
// time t and reports whether any moved.
func (p *aaloPolicy) requeue(t float64, active []*coflowState) bool {
	moved := false
	for _, c := range active {
		advance(c, t)
		if q := p.queueFor(c.sent0); q > c.queue {
			c.queue, moved = q, true
		}
	}
	return moved
}

// crossing is the earliest time c can reach its queue's limit: at its
// current sending rate, which until the next reallocation or refill can
// only fall as flows finish. A check at that time either finds the limit
// reached or yields a later bound, so a coflow changes queue at the very
// instant it reaches the limit, without time steps.
func (p *aaloPolicy) crossing(c *coflowState) float64 {
	if c.queue >= p.queues-1 || c.sendRate <= 0 {
		return math.Inf(1)
	}
	need := p.limit(c.queue) - c.sent0
	return max(c.sentAt+need/c.sendRate, math.Nextafter(c.sentAt, math.Inf(1)))
}

// nextCrossing is the earliest crossing bound over the active coflows.
func (p *aaloPolicy) nextCrossing(active []*coflowState) float64 {
	next := math.Inf(1)
	for _, c := range active {
		next = min(next, p.crossing(c))
	}
	return next
}

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
