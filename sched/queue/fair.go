package queue

import (
	"fmt"

	"github.com/netsched/netsched/sched"
)

func init() {
	registerFair("fair",
		"YARN Fair Scheduler: weighted queue tree with min/max shares, fair or fifo leaves, optional locality thresholds",
		[]sched.ParamInfo{
			{Name: "locality_node", Default: "-1", Help: "locality.threshold.node: opportunities an app passes up before rack-local, as a fraction of the machines (at most 1; either threshold <0: no delay)"},
			{Name: "locality_rack", Default: "-1", Help: "locality.threshold.rack: further opportunities before off-switch, as a fraction of the machines (at most 1; either threshold <0: no delay)"},
		},
		func(b base, p *sched.Params) sched.Scheduler {
			f := &Fair{base: b}
			f.node = min(p.Float("locality_node", -1), 1)
			f.rack = min(p.Float("locality_rack", -1), 1)
			return f
		})
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

// registerFair registers a scheduler over fair's queue tree (fair, delay):
// its parameters are the tree's, its own, then network; build gets the
// tree and network policy read from them, and reads its own.
func registerFair(name, description string, own []sched.ParamInfo, build func(b base, p *sched.Params) sched.Scheduler) {
	params := []sched.ParamInfo{
		{Name: "queues", Default: "none", Help: "queue tree: list of {name, parent, weight, min_share, max_share, policy: fair|fifo|drf}"},
		{Name: "auto_create_queues", Default: "true", Help: "a job's unconfigured queue is created under root with weight 1 (false: the job is an error)"},
		{Name: "user_weights", Default: "none", Help: "mapping user -> weight (default 1); when given, each leaf shares its slots among its users first"},
	}
	sched.Register(sched.Info{
		Name:        name,
		Description: description,
		Params:      append(append(params, own...), networkParam),
		New: func(p *sched.Params) (sched.Scheduler, error) {
			t, err := newFairTree(p)
			if err != nil {
				return nil, err
			}
			return build(base{flows: newFlowPolicy(p), tree: t}, p), nil
		},
	})
}

// newFairTree builds fair's queue tree from the parameters and checks it.
func newFairTree(p *sched.Params) (*tree, error) {
	def := queueSpec{Weight: 1, MaxShare: inf}
	var specs []queueSpec
	if raw, ok := p.Raw("queues"); ok {
		var err error
		if specs, err = parseQueues(raw, fairKeys, def); err != nil {
			return nil, fmt.Errorf("parameter queues: %w", err)
		}
	}
	t, err := buildTree(specs, def)
	if err == nil {
		err = t.each(checkFairQueue)
	}
	if err != nil {
		return nil, fmt.Errorf("parameter queues: %w", err)
	}
	t.created = queueSpec{Weight: 1, MaxShare: inf, Policy: "fair"}
	t.root.Policy = "fair"
	t.autoCreate = p.Bool("auto_create_queues", true)
	if raw, ok := p.Raw("user_weights"); ok {
		if t.userWeights, err = parseWeights(raw); err != nil {
			return nil, fmt.Errorf("parameter user_weights: %w", err)
		}
	}
	return t, nil
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
