package rate

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Aalo defaults.
const (
	DefaultQueues     = 10
	DefaultFirstLimit = 10 << 20 // bytes sent that move a coflow out of Q0 (10 MiB)
	DefaultMultiplier = 10.0
	MaxQueues         = 64
)

// AaloConfig is Aalo's queue structure.
type AaloConfig struct {
	Queues     int     // number of queues K
	FirstLimit float64 // bytes sent that move a coflow out of Q0
	Multiplier float64 // each later limit is this times the previous
	// Weighted shares each resource between the queues present at it by
	// weight K-q (Q0 heaviest) instead of strict priority across queues.
	Weighted bool
}

// Validate reports a configuration no queue structure can have.
func (c AaloConfig) Validate() error {
	switch {
	case c.Queues < 1 || c.Queues > MaxQueues:
		return fmt.Errorf("rate: aalo queues %d must be in [1, %d]", c.Queues, MaxQueues)
	case !(c.FirstLimit > 0) || math.IsInf(c.FirstLimit, 0):
		return fmt.Errorf("rate: aalo first queue limit %v bytes must be positive and finite", c.FirstLimit)
	case !(c.Multiplier > 1) || math.IsInf(c.Multiplier, 0):
		return fmt.Errorf("rate: aalo queue multiplier %v must be above 1 and finite", c.Multiplier)
	}
	return nil
}

// Aalo is D-CLAS (discretized coflow-aware least attained service). A
// coflow's queue is the number of queue limits its sent bytes have reached:
// Q0 holds coflows that sent less than the first limit, each later limit is
// Multiplier times the previous, the last queue is unbounded. Coflows only
// move to lower-priority queues. Inside a queue coflows are served FIFO;
// across queues either strict priority or, when weighted, each resource is
// divided between the queues present at it by weight K-q.
type Aalo struct {
	cfg        AaloConfig
	noBackfill bool // SetBackfill(false): CoflowSim's Dark simulator
	order      []*Coflow
	// Weighted mode: per-queue budgets per resource, and the sum of the
	// weights present at each resource.
	bud [][]float64
	w   []float64
}

// NewAalo makes D-CLAS with a valid configuration.
func NewAalo(c AaloConfig) (*Aalo, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Aalo{cfg: c}, nil
}

// Config is the queue structure.
func (p *Aalo) Config() AaloConfig { return p.cfg }

// SetBackfill switches the backfill pass of Allocate on (the default) or
// off. Without it, bandwidth the split leaves idles until the next
// allocation, as in CoflowSim's Dark simulator: Aalo is then not
// work-conserving.
func (p *Aalo) SetBackfill(on bool) { p.noBackfill = !on }

// crossTol is the relative slack with which a coflow reaches a limit, so
// that floating-point noise at the exact crossing time cannot leave it a
// hair below and schedule a zero-length event.
const crossTol = 1e-9

// Limit is the upper bound, in bytes sent, of queue q.
func (p *Aalo) Limit(q int) float64 { return p.cfg.FirstLimit * math.Pow(p.cfg.Multiplier, float64(q)) }

// QueueFor is the queue of a coflow that has sent the given bytes.
func (p *Aalo) QueueFor(sent float64) int {
	q := 0
	for q < p.cfg.Queues-1 && sent >= p.Limit(q)*(1-crossTol) {
		q++
	}
	return q
}

// Between allocations each coflow's sent bytes are tracked incrementally
// (sent0 at time sentAt, growing at sendRate, the sum of its unfinished
// flows' applied rates), so that checking a coflow costs O(1) instead of a
// pass over its flows. Every change of sendRate (a flow finishing, a refill
// raising a rate) first brings sent0 up to that instant.

// Resync restarts the tracking from the flows' current Rem and Rate; call
// after applying an allocation.
func (p *Aalo) Resync(t float64, active []*Coflow) {
	for _, c := range active {
		c.sent0, c.sentAt, c.sendRate = c.Sent(), t, 0
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done && f.Rate > 0 {
				c.sendRate += f.Rate
			}
		}
	}
}

func advance(c *Coflow, t float64) {
	if t > c.sentAt {
		c.sent0 += c.sendRate * (t - c.sentAt)
		c.sentAt = t
	}
}

// RateChanged records that one of c's flows went from rate old to new at t
// (new = 0 when it finished).
func (p *Aalo) RateChanged(c *Coflow, old, new, t float64) {
	advance(c, t)
	c.sendRate = max(0, c.sendRate+max(new, 0)-max(old, 0))
}

// Requeue moves the coflows whose sent bytes reached their queue's limit by
// time t and reports whether any moved.
func (p *Aalo) Requeue(t float64, active []*Coflow) bool {
	moved := false
	for _, c := range active {
		advance(c, t)
		if q := p.QueueFor(c.sent0); q > c.Queue {
			c.Queue, moved = q, true
		}
	}
	return moved
}

// Crossing is the earliest time c can reach its queue's limit: at its
// current sending rate, which until the next allocation or refill can only
// fall as flows finish. A check at that time either finds the limit reached
// or yields a later bound, so a coflow changes queue at the very instant it
// reaches the limit, without time steps.
func (p *Aalo) Crossing(c *Coflow) float64 {
	if c.Queue >= p.cfg.Queues-1 || c.sendRate <= 0 {
		return math.Inf(1)
	}
	need := p.Limit(c.Queue) - c.sent0
	return max(c.sentAt+need/c.sendRate, math.Nextafter(c.sentAt, math.Inf(1)))
}

// NextCrossing is the earliest crossing bound over the active coflows.
func (p *Aalo) NextCrossing(active []*Coflow) float64 {
	next := math.Inf(1)
	for _, c := range active {
		next = min(next, p.Crossing(c))
	}
	return next
}

// Allocate implements Policy: in (queue, arrival) order each coflow gets
// CoflowSim's split, then the backfill runs in the same order.
func (p *Aalo) Allocate(a *Allocator, active []*Coflow) {
	a.begin(active)
	p.order = append(p.order[:0], active...)
	slices.SortStableFunc(p.order, func(x, y *Coflow) int {
		return cmp.Or(cmp.Compare(x.Queue, y.Queue), cmp.Compare(x.Index, y.Index))
	})
	a.Reset(active)
	if p.cfg.Weighted {
		p.budgets(a, active)
	}
	for _, c := range p.order {
		if p.cfg.Weighted {
			a.split(c, p.bud[c.Queue])
		} else {
			a.split(c, nil)
		}
	}
	if !p.noBackfill {
		a.Backfill(p.order)
	}
}

// budgets divides every resource between the queues that have an
// unfinished flow through it, queue q getting weight K-q.
func (p *Aalo) budgets(a *Allocator, active []*Coflow) {
	if len(p.w) != a.Resources() {
		p.bud = make([][]float64, p.cfg.Queues)
		for q := range p.bud {
			p.bud[q] = make([]float64, a.Resources())
		}
		p.w = make([]float64, a.Resources())
	}
	for q := range p.bud {
		clear(p.bud[q])
	}
	clear(p.w)
	// Mark presence with -1 first, then turn marks into weighted shares.
	for _, c := range active {
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done {
				for _, x := range f.Res[:f.N] {
					p.bud[c.Queue][x] = -1
				}
			}
		}
	}
	for q, bud := range p.bud {
		w := float64(p.cfg.Queues - q)
		for x, b := range bud {
			if b < 0 {
				p.w[x] += w
			}
		}
	}
	for q, bud := range p.bud {
		w := float64(p.cfg.Queues - q)
		for x, b := range bud {
			if b < 0 {
				bud[x] = a.cap[x] * w / p.w[x]
			}
		}
	}
}
