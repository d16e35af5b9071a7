// Package netpolicy registers the network policies a scenario can combine
// with any task scheduler (`scheduler: {name: fair, network: varys}`): how
// the flows of different jobs share links. fair, fifo and scf set priority
// classes; varys (MADD rates in an order) and aalo (D-CLAS queues by bytes
// sent) set every flow's rate from its job's coflow (sched.CoflowRater)
// with package coflow/rate. The coflow replay (`netsched coflow`) resolves
// its policies here too: fair, varys and aalo run without tasks; fifo and
// scf class flows by task state and do not.
package netpolicy

import (
	"math"

	"github.com/netsched/netsched/coflow/rate"
	"github.com/netsched/netsched/sched"
)

func init() {
	sched.RegisterNetwork(sched.DefineNetwork("fair",
		"every flow in one class: max-min fair sharing (the default)",
		sched.NoConfig{}, func(sched.NoConfig) (sched.NetworkPolicy, error) { return Fair{}, nil }))
	sched.RegisterNetwork(sched.DefineNetwork("fifo",
		"strict priority by job arrival: an earlier job's flows are served first (PushBox's Hadoop(FIFO) network); "+
			"not the MADD order (varys, order fifo), which `netsched coflow --policy fifo` names",
		sched.NoConfig{}, func(sched.NoConfig) (sched.NetworkPolicy, error) { return FIFO{}, nil }))
	sched.RegisterNetwork(sched.DefineNetwork("scf",
		"smallest coflow first, clairvoyant: a job's flows get the priority of its estimated shuffle size, "+
			"in exponentially spaced bins (Aalo's queue thresholds applied to the estimated total); "+
			"not the MADD order (varys, order scf), which `netsched coflow --policy scf` names",
		SCFConfig{First: 10e6, Factor: 10},
		func(c SCFConfig) (sched.NetworkPolicy, error) {
			return &SCF{First: c.First, Factor: c.Factor, class: map[sched.Job]int{}}, nil
		}))
}

// SCFConfig is scf's parameters.
type SCFConfig struct {
	First  float64 `param:"first" unit:"B" help:"upper bound of the highest-priority bin (bytes or a size like 10MB)"`
	Factor float64 `param:"factor" help:"each bin's bound is this times the previous one's"`
}

// Validate: bounds that tags cannot state (exclusive, finite).
func (c *SCFConfig) Validate() error {
	if !(c.First > 0) || math.IsInf(c.First, 0) {
		return sched.BadParam("first", c.First, "a size > 0")
	}
	if !(c.Factor > 1) || math.IsInf(c.Factor, 0) {
		return sched.BadParam("factor", c.Factor, "a number > 1")
	}
	return nil
}

// Fair puts every flow in class 0.
type Fair struct{}

func (Fair) FlowClass(sched.View, sched.Task, int) int { return 0 }

// RatePolicy is nil: fair sets no explicit rates, also in the coflow replay.
func (Fair) RatePolicy() rate.Policy { return nil }

// FIFO gives every flow of a job the job's arrival rank.
type FIFO struct{}

func (FIFO) FlowClass(v sched.View, t sched.Task, src int) int { return t.Job().Seq() }

// SCF gives a job's flows the bin of its estimated shuffle: bin 0 below
// First bytes, bin k below First x Factor^k.
type SCF struct {
	First, Factor float64
	class         map[sched.Job]int // per job, computed at its first flow
}

func (s *SCF) FlowClass(v sched.View, t sched.Task, src int) int {
	j := t.Job()
	if c, ok := s.class[j]; ok {
		return c
	}
	total := 0.0
	for _, st := range j.Stages() {
		if st.NumChildren() == 0 {
			continue
		}
		for _, pt := range st.Tasks() {
			total += v.Estimate(pt).Output
		}
	}
	class := 0
	for bound := s.First; total >= bound && class < 62; bound *= s.Factor {
		class++
	}
	s.class[j] = class
	return class
}
