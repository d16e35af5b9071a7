package coflow

import (
	"cmp"
	"slices"
)

// ratePolicy computes explicit rates (flowState.next) for the active
// coflows, whose rem fields are current. active is in arrival order.
type ratePolicy interface {
	allocate(a *allocator, active []*coflowState)
}

// orderPolicy is the clairvoyant family (fifo, scf, ncf, lcf, sebf): sort
// the coflows by key, give each the MADD allocation against the bandwidth
// the earlier ones left, then backfill in arrival order.
type orderPolicy struct {
	key   func(a *allocator, c *coflowState) float64
	order []*coflowState // scratch
}

// Order keys; smaller goes first, ties in arrival order. "Size" means the
// bytes a coflow puts on the network at arrival (local shares excluded);
// "remaining" means its network bytes not yet delivered at the time of the
// allocation.
var orderKeys = map[string]func(a *allocator, c *coflowState) float64{
	// Arrival order.
	FIFO: func(_ *allocator, c *coflowState) float64 { return float64(c.idx) },
	// Size of the largest flow at arrival (CoflowSim's "length": the largest
	// reducer's bytes over the number of mappers).
	SCF: func(_ *allocator, c *coflowState) float64 { return c.longest },
	// Fewest of distinct mapper ports or distinct reducer ports (CoflowSim).
	NCF: func(_ *allocator, c *coflowState) float64 { return float64(c.narrow) },
	// Remaining bytes over all flows.
	LCF: func(_ *allocator, c *coflowState) float64 {
		var s float64
		for i := range c.flows {
			s += c.flows[i].rem
		}
		return s
	},
	// Effective bottleneck as in Varys: the most remaining bytes any one
	// port of the coflow must send or receive, divided by the port speed
	// (the time it would take alone on an idle fabric). Recomputed from
	// remaining bytes at every allocation.
	SEBF: func(a *allocator, c *coflowState) float64 {
		a.portLoads(c)
		full := a.speed
		var worst float64
		for _, p := range a.upTouched {
			worst = max(worst, a.upBytes[p])
		}
		for _, p := range a.downTouched {
			worst = max(worst, a.downBytes[p])
		}
		return worst / full
	},
}

func (o *orderPolicy) allocate(a *allocator, active []*coflowState) {
	for _, c := range active {
		c.key = o.key(a, c)
	}
	o.order = append(o.order[:0], active...)
	slices.SortStableFunc(o.order, func(x, y *coflowState) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.idx, y.idx))
	})
	a.reset(active)
	for _, c := range o.order {
		a.madd(c)
	}
	a.backfill(active)
}
