package queue

import (
	"fmt"

	"github.com/netsched/netsched/sched"
)

// FairConfig is fair's parameters: the queue tree, the locality
// thresholds, the network.
type FairConfig struct {
	FairTreeConfig
	LocalityNode float64 `param:"locality_node" max:"1" help:"locality.threshold.node: opportunities an app passes up before rack-local, as a fraction of the machines (at most 1; either threshold <0: no delay)"`
	LocalityRack float64 `param:"locality_rack" max:"1" help:"locality.threshold.rack: further opportunities before off-switch, as a fraction of the machines (at most 1; either threshold <0: no delay)"`
	NetworkConfig
}

func init() {
	sched.Register(sched.Define("fair",
		"YARN Fair Scheduler: weighted queue tree with min/max shares, fair or fifo leaves, optional locality thresholds",
		FairConfig{FairTreeConfig: defaultFairTree, LocalityNode: -1, LocalityRack: -1, NetworkConfig: NetworkConfig{"fair"}},
		func(c FairConfig) (sched.Scheduler, error) {
			t, err := c.tree()
			if err != nil {
				return nil, err
			}
			return &Fair{base: base{flows: c.flows(), tree: t}, node: c.LocalityNode, rack: c.LocalityRack}, nil
		}))
}

// Fair is the YARN Fair Scheduler in a slot model (§1). Each offer goes to
// the first app, in tree order, that places a task under §1.4's locality
// rule; apps passed over still count the opportunity.
type Fair struct {
	base
	fairOrder
	node, rack float64 // locality thresholds, fractions of the cluster
}

// Heartbeats: with locality thresholds an app waits for opportunities, which
// must keep coming while slots stay free.
func (f *Fair) Heartbeats() bool { return f.delaying() }

func (f *Fair) delaying() bool { return f.node >= 0 && f.rack >= 0 }

func (f *Fair) Offer(v sched.View, m int, p *sched.Plan) { f.tree.offer(v, m, f, p) }

// assign is FSAppAttempt.assignContainer: priorities in order, each counting
// an opportunity, placing at the best locality its allowed level permits.
func (f *Fair) assign(v sched.View, a *app, m int) sched.Task {
	for p := range priorities {
		if waitingAt(a.job, p) == 0 {
			continue
		}
		r := &a.req[p]
		r.opportunities++
		t, got := pick(v, a.job, p, m, f.allowed(r, v.NumMachines()))
		if t.IsZero() {
			continue
		}
		if got != sched.NoPreference && got < r.allowed {
			r.allowed = got // a better placement tightens the level again
		}
		r.opportunities = 0
		return t
	}
	return sched.Task{}
}

// allowed is getAllowedLocalityLevel (§1.4): NODE on first evaluation, then
// one level looser each time the opportunities since the last assignment
// exceed the threshold times the machines, resetting the count.
func (f *Fair) allowed(r *request, machines int) sched.Locality {
	if !f.delaying() {
		return sched.OffSwitch
	}
	if r.allowed == sched.NoPreference {
		r.allowed = sched.NodeLocal
		return r.allowed
	}
	threshold := f.node
	if r.allowed == sched.RackLocal {
		threshold = f.rack
	}
	if r.allowed != sched.OffSwitch && float64(r.opportunities) > threshold*float64(machines) {
		r.allowed++
		r.opportunities = 0
	}
	return r.allowed
}

func checkFairQueue(q *queue) error {
	switch q.Policy {
	case "":
		q.Policy = "fair"
	case "fair", "drf":
	case "fifo":
		if !q.jobsGoHere {
			return fmt.Errorf("queue %q: policy fifo is valid for leaf queues only (it has children)", q.Name)
		}
	default:
		return fmt.Errorf("queue %q: policy %q, expected fair, fifo or drf", q.Name, q.Policy)
	}
	if q.MaxShare < 1 {
		return fmt.Errorf("queue %q: max_share %g, expected at least 1 slot", q.Name, q.MaxShare)
	}
	if q.MinShare > q.MaxShare {
		return fmt.Errorf("queue %q: min_share %g is above max_share %g", q.Name, q.MinShare, q.MaxShare)
	}
	return nil
}
