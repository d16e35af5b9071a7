package queue

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/sched"
)

// CapacityConfig is capacity's parameters.
type CapacityConfig struct {
	Queues    CapacityQueues `param:"queues" help:"queue tree: list of {name, parent, capacity, maximum_capacity, policy: fifo|fair, user_limit_factor}"`
	NodeDelay int            `param:"node_locality_delay" help:"missed opportunities before rack-local (capped at the machine count; <0: rack-local at once)"`
	RackDelay int            `param:"rack_locality_additional_delay" help:"further missed opportunities before off-switch (-1: requested locations x containers / machines)"`
	NetworkConfig
}

func init() {
	sched.Register(sched.Define("capacity",
		"YARN CapacityScheduler core: queues with guaranteed and maximum capacities, least used/guaranteed first, node-locality delay",
		CapacityConfig{Queues: defaultCapacityQueues, NodeDelay: 40, RackDelay: -1, NetworkConfig: NetworkConfig{"fair"}},
		func(c CapacityConfig) (sched.Scheduler, error) {
			t, err := buildCapacityTree(c.Queues.specs)
			if err != nil {
				return nil, sched.ParamErrorf("queues", "%v", err)
			}
			return &Capacity{base: base{flows: c.flows(), tree: t}, nodeDelay: c.NodeDelay, rackDelay: c.RackDelay}, nil
		}))
}

// Capacity is the CapacityScheduler's core ordering (§2) in a slot model.
type Capacity struct {
	base
	nodeDelay, rackDelay int
	slots                float64 // cluster slots, read at the first offer

	mark  []int // scratch for counting a request's distinct locations
	epoch int
}

// Heartbeats: apps wait for opportunities (the off-switch delay applies
// even without a node delay), which must keep coming while slots stay free.
func (c *Capacity) Heartbeats() bool { return true }

func (c *Capacity) Offer(v sched.View, m int, p *sched.Plan) {
	if c.slots == 0 {
		for i := range v.NumMachines() {
			c.slots += float64(v.Machine(i).Slots())
		}
	}
	c.tree.offer(v, m, c, p)
}

// open keeps a queue within its absolute maximum capacity.
func (c *Capacity) open(q *queue) bool { return float64(q.running+1) <= q.absMax*c.slots+1e-9 }

// before: least used relative to the guarantee first
// (PriorityUtilizationQueueOrderingPolicy without priorities), then path.
func (c *Capacity) before(a, b *queue) bool {
	ra, rb := c.relativeUse(a), c.relativeUse(b)
	if ra != rb {
		return ra < rb
	}
	return a.path < b.path
}

func (c *Capacity) relativeUse(q *queue) float64 {
	if q.running == 0 {
		return 0
	}
	return float64(q.running) / (q.absCap * c.slots)
}

// assign is the CS allocation for one app: per priority, count a missed
// opportunity, then node-local, rack-local once the node delay has passed,
// off-switch once the rack delay has passed (RegularContainerAllocator).
func (c *Capacity) assign(v sched.View, a *app, m int) sched.Task {
	q := a.leaf
	if q.UserLimitFactor > 0 && float64(q.byUser[a.job.User()]) >= math.Max(1, math.Ceil(q.UserLimitFactor*q.absCap*c.slots-1e-9)) {
		return sched.Task{}
	}
	machines := v.NumMachines()
	for p := range priorities {
		waiting := waitingAt(a.job, p)
		if waiting == 0 {
			continue
		}
		r := &a.req[p]
		r.opportunities++
		t, got := pick(v, a.job, p, m, sched.NodeLocal)
		if t.IsZero() {
			allowed := sched.NodeLocal
			if c.nodeDelay < 0 || r.opportunities > min(machines, c.nodeDelay) {
				allowed = sched.RackLocal
			}
			if float64(r.opportunities) > c.offSwitchDelay(v, a.job, p, waiting) {
				allowed = sched.OffSwitch
			}
			t, got = pick(v, a.job, p, m, allowed)
		}
		if t.IsZero() {
			continue
		}
		// CS keeps counting after an off-switch placement so that apps with
		// many remote requests are not delayed again for each [R].
		if got == sched.NodeLocal || got == sched.RackLocal {
			r.opportunities = 0
		}
		return t
	}
	return sched.Task{}
}

// offSwitchDelay is the missed opportunities after which off-switch is
// allowed: node plus additional delay, or with the additional delay off,
// containers x min(locations/machines, 1), both capped at the machine count.
func (c *Capacity) offSwitchDelay(v sched.View, j sched.Job, p, waiting int) float64 {
	machines := v.NumMachines()
	if c.rackDelay >= 0 {
		return float64(min(machines, max(c.nodeDelay, 0)+c.rackDelay))
	}
	locations := c.locations(v, j, p)
	return math.Min(float64(machines), float64(waiting)*math.Min(float64(locations)/float64(machines), 1))
}

// locations counts the distinct machines and racks holding replicas of the
// waiting tasks of j at priority p (the request's resource names).
func (c *Capacity) locations(v sched.View, j sched.Job, p int) int {
	machines := v.NumMachines()
	if len(c.mark) < machines+v.Racks() {
		c.mark = make([]int, machines+v.Racks())
	}
	c.epoch++
	n := 0
	see := func(k int) {
		if c.mark[k] != c.epoch {
			c.mark[k] = c.epoch
			n++
		}
	}
	for _, st := range j.Stages() {
		if priorityOf(st) != p {
			continue
		}
		for _, t := range st.Waiting() {
			for _, r := range t.Replicas() {
				see(r)
				see(machines + v.RackOf(r))
			}
		}
	}
	return n
}

// buildCapacityTree builds and checks the capacity queue tree.
func buildCapacityTree(specs []queueSpec) (*tree, error) {
	t, err := buildTree(specs, queueSpec{Capacity: 1, MaxCapacity: 1, MaxShare: inf})
	if err == nil {
		t.root.absCap, t.root.absMax = 1, 1
		err = checkCapacities(t.root)
	}
	if err == nil {
		err = t.each(checkCapacityQueue)
	}
	return t, err
}

// checkCapacities checks that siblings' capacities sum to 1 and sets the
// absolute capacities top-down.
func checkCapacities(q *queue) error {
	if len(q.children) == 0 {
		return nil
	}
	sum := 0.0
	for _, c := range q.children {
		if c.Capacity < 0 {
			return fmt.Errorf("queue %q: capacity is required (a fraction of its parent)", c.Name)
		}
		if c.MaxCapacity < c.Capacity {
			return fmt.Errorf("queue %q: maximum_capacity %g is below its capacity %g", c.Name, c.MaxCapacity, c.Capacity)
		}
		sum += c.Capacity
		c.absCap, c.absMax = q.absCap*c.Capacity, q.absMax*c.MaxCapacity
		if err := checkCapacities(c); err != nil {
			return err
		}
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("the capacities of the children of %s sum to %.6g, expected 1", q.path, sum)
	}
	return nil
}

func checkCapacityQueue(q *queue) error {
	if !q.jobsGoHere {
		if q.Policy != "" || q.UserLimitFactor != 0 {
			return fmt.Errorf("queue %q: policy and user_limit_factor apply to leaf queues only (it has children)", q.Name)
		}
		return nil
	}
	switch q.Policy {
	case "":
		q.Policy = "fifo"
	case "fifo", "fair":
	default:
		return fmt.Errorf("queue %q: policy %q, expected fifo or fair", q.Name, q.Policy)
	}
	return nil
}
