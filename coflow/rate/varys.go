package rate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Orders of Varys, smaller key first, ties in arrival order.
const (
	FIFO = "fifo" // arrival order
	SCF  = "scf"  // smallest largest flow (Coflow.Longest)
	NCF  = "ncf"  // narrowest (Coflow.Narrow)
	LCF  = "lcf"  // least remaining bytes
	SEBF = "sebf" // smallest effective bottleneck from remaining bytes
)

// Orders lists Varys's orders, the default (SEBF) first.
func Orders() []string { return []string{SEBF, FIFO, SCF, NCF, LCF} }

// orderKeys are the order keys; "remaining" bytes are those not yet
// delivered at the allocation.
var orderKeys = map[string]func(a *Allocator, c *Coflow) float64{
	FIFO: func(_ *Allocator, c *Coflow) float64 { return float64(c.Index) },
	SCF:  func(_ *Allocator, c *Coflow) float64 { return c.Longest },
	NCF:  func(_ *Allocator, c *Coflow) float64 { return float64(c.Narrow) },
	LCF: func(_ *Allocator, c *Coflow) float64 {
		var s float64
		for i := range c.Flows {
			s += c.Flows[i].Rem
		}
		return s
	},
	// Recomputed from remaining bytes at every allocation, as in Varys.
	SEBF: (*Allocator).effectiveBottleneck,
}

// Varys is the clairvoyant family: sort the coflows by the order's key,
// give each the MADD allocation against the bandwidth the earlier ones
// left, then backfill in arrival order.
type Varys struct {
	name  string
	key   func(a *Allocator, c *Coflow) float64
	order []*Coflow // scratch
}

// NewVarys makes Varys with one of Orders().
func NewVarys(order string) (*Varys, error) {
	key, ok := orderKeys[order]
	if !ok {
		return nil, fmt.Errorf("rate: unknown varys order %q (want one of %s)", order, strings.Join(Orders(), ", "))
	}
	return &Varys{name: order, key: key}, nil
}

// Order is the order's name.
func (v *Varys) Order() string { return v.name }

// Allocate implements Policy.
func (v *Varys) Allocate(a *Allocator, active []*Coflow) {
	a.begin(active)
	for _, c := range active {
		c.key = v.key(a, c)
	}
	v.order = append(v.order[:0], active...)
	slices.SortStableFunc(v.order, func(x, y *Coflow) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.Index, y.Index))
	})
	a.Reset(active)
	for _, c := range v.order {
		a.MADD(c)
	}
	a.Backfill(active)
}
