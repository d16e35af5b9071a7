package queue

import (
	"fmt"

	"github.com/netsched/netsched/sched"
)

// NetworkConfig is the flow sharing every queue scheduler offers: "fair"
// (one class, max-min) or "fifo" (strict priority by job arrival,
// PushBox's Hadoop(FIFO) baseline).
type NetworkConfig struct {
	Network string `param:"network" choices:"fair|fifo" help:"flow sharing: fair (max-min) or fifo (priority by job arrival)"`
}

func (n NetworkConfig) flows() flows { return flows{byArrival: n.Network == "fifo"} }

// FairTreeConfig is the queue tree of fair and delay.
type FairTreeConfig struct {
	Queues      FairQueues  `param:"queues" help:"queue tree: list of {name, parent, weight, min_share, max_share, policy: fair|fifo|drf}"`
	AutoCreate  bool        `param:"auto_create_queues" help:"a job's unconfigured queue is created under root with weight 1 (false: the job is an error)"`
	UserWeights UserWeights `param:"user_weights" help:"mapping user -> weight (default 1); when given, each leaf shares its slots among its users first"`
}

var defaultFairTree = FairTreeConfig{AutoCreate: true}

// FairQueues is fair's `queues` parameter: the entries as given, checked
// by building the tree once when decoded.
type FairQueues struct{ specs []queueSpec }

var fairQueueDefault = queueSpec{Weight: 1, MaxShare: inf}

func (q *FairQueues) SetParam(raw any) error {
	specs, err := parseQueues(raw, fairKeys, fairQueueDefault)
	if err == nil {
		_, err = buildFairTree(specs)
	}
	if err != nil {
		return err
	}
	q.specs = specs
	return nil
}

func (q FairQueues) String() string { return "none" }

// Given reports whether the scenario set the queues.
func (q FairQueues) Given() bool { return q.specs != nil }

// UserWeights is the `user_weights` parameter: user -> weight.
type UserWeights map[string]float64

func (w *UserWeights) SetParam(raw any) error {
	m, err := parseWeights(raw)
	if err != nil {
		return err
	}
	*w = m
	return nil
}

func (w UserWeights) String() string { return "none" }

// tree builds a fresh queue tree (schedulers mutate theirs).
func (c FairTreeConfig) tree() (*tree, error) {
	t, err := buildFairTree(c.Queues.specs)
	if err != nil {
		return nil, sched.ParamErrorf("queues", "%v", err)
	}
	t.autoCreate = c.AutoCreate
	t.userWeights = c.UserWeights
	return t, nil
}

// buildFairTree builds fair's queue tree from its entries and checks it.
func buildFairTree(specs []queueSpec) (*tree, error) {
	t, err := buildTree(specs, fairQueueDefault)
	if err == nil {
		err = t.each(checkFairQueue)
	}
	if err != nil {
		return nil, err
	}
	t.created = queueSpec{Weight: 1, MaxShare: inf, Policy: "fair"}
	t.root.Policy = "fair"
	return t, nil
}

// CapacityQueues is capacity's `queues` parameter.
type CapacityQueues struct{ specs []queueSpec }

var defaultCapacityQueues = CapacityQueues{specs: []queueSpec{{Name: "default", Capacity: 1, MaxCapacity: 1, MaxShare: inf}}}

func (q *CapacityQueues) SetParam(raw any) error {
	specs, err := parseQueues(raw, capacityKeys, queueSpec{Capacity: -1, MaxCapacity: 1, MaxShare: inf})
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		return fmt.Errorf("the list is empty; give at least one queue with capacity 1")
	}
	if _, err := buildCapacityTree(specs); err != nil {
		return err
	}
	q.specs = specs
	return nil
}

func (q CapacityQueues) String() string { return "[{name: default, capacity: 1}]" }
