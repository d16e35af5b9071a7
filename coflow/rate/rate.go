// Package rate computes explicit coflow rates. Given the active coflows,
// each a set of flows with remaining bytes and the capacitated resources
// (links) every flow crosses, it gives every flow a rate: Varys's MADD with
// its orderings (fifo, scf, ncf, lcf, sebf) and backfill, and Aalo's D-CLAS
// (strict or weighted queues, with the exact time a coflow next reaches its
// queue's limit). A Refiller hands a finished flow's bandwidth on between
// allocations.
//
// The package knows neither the network model nor the task engine, so both
// of its users share one allocator: the coflow replay (package coflow) maps
// every port of its big switch to an uplink and a downlink resource, the
// task engine's network policies (sched/netpolicy) map a flow to the links
// of its route. Rates are bytes/s, sizes bytes, times seconds.
package rate

import "math"

// MaxHops is the most resources one flow crosses: NIC up, rack uplink, rack
// downlink, NIC down on a two-tier network.
const MaxHops = 4

// Flow is one flow of a coflow.
type Flow struct {
	Rem  float64 // bytes left; the caller refreshes it before an allocation
	Rate float64 // rate the caller applied last, -1 before the first
	Next float64 // rate computed by the last allocation (or refill)
	Done bool    // finished: it gets nothing
	// N and Res: the first N entries of Res are the resources the flow
	// crosses, each at most once.
	N   uint8
	Res [MaxHops]int32
}

// Resources are the resources f crosses.
func (f *Flow) Resources() []int32 { return f.Res[:f.N] }

// Coflow is a set of flows scheduled as a unit.
type Coflow struct {
	Index int    // arrival rank: the fifo key and the tie-breaker of every order
	Flows []Flow // nil once the coflow is gone (a Refiller then skips it)
	// Bytes is the size of all its flows so far, finished ones included, so
	// that Bytes minus the remaining bytes is what it sent (Aalo).
	Bytes   float64
	Longest float64 // size of its largest flow (the scf key)
	Narrow  int     // min(distinct senders, distinct receivers) (the ncf key)
	// Queue is its Aalo queue. The caller keeps the Coflow across
	// allocations: queues only grow.
	Queue int
	// Still, set by the caller before an allocation, says that no flow's
	// Rem or Done changed since the previous allocation: the allocator then
	// reuses the per-resource loads it computed for c there.
	Still bool

	key   float64   // order key of the allocation under way
	ld    loadCache // c's loads, reused within an allocation and while Still
	moved bool      // a Refiller places its entries anew at the next sort
	// Aalo: bytes sent as of sentAt, and the rate they grow at.
	sent0, sentAt, sendRate float64
}

// Sent is the bytes c delivered so far, from Bytes and its flows' Rem.
func (c *Coflow) Sent() float64 {
	s := c.Bytes
	for i := range c.Flows {
		s -= c.Flows[i].Rem
	}
	return max(0, s)
}

// Policy computes Next for every flow of the active coflows, whose Rem are
// current. active is in arrival order (Index ascending).
type Policy interface {
	Allocate(a *Allocator, active []*Coflow)
}

// Reallocate is one allocation for a caller that reallocates from scratch
// whenever a flow starts or finishes and applies every computed rate (the
// task engine): Aalo's queues are first brought up to the bytes sent, and
// every unfinished flow's Rate is set to its Next afterwards. It returns the
// time of the policy's next own event (Aalo's next queue crossing), +Inf
// when it has none.
func Reallocate(p Policy, a *Allocator, now float64, active []*Coflow) float64 {
	aalo, _ := p.(*Aalo)
	if aalo != nil {
		aalo.Resync(now, active)
		aalo.Requeue(now, active)
	}
	p.Allocate(a, active)
	for _, c := range active {
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done {
				f.Rate = f.Next
			}
		}
	}
	if aalo == nil {
		return math.Inf(1)
	}
	aalo.Resync(now, active)
	return aalo.NextCrossing(active)
}
