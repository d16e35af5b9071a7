// Package netpolicy registers the network policies a scenario can combine
// with any task scheduler (`scheduler: {name: fair, network: fifo}`): how
// the flows of different jobs share links, as priority classes.
//
// The coflow schedulers Varys (MADD rates) and Aalo (D-CLAS queues by bytes
// sent) run in the network-only coflow replay (package coflow); they are
// not network policies of the task engine yet, since they need rate and
// re-classing hooks driven by flow progress.
package netpolicy

import (
	"math"

	"github.com/netsched/netsched/sched"
)

func init() {
	sched.RegisterNetwork(sched.NetworkInfo{
		Name:        "fair",
		Description: "every flow in one class: max-min fair sharing (the default)",
		New:         func(*sched.Params) (sched.NetworkPolicy, error) { return Fair{}, nil },
	})
	sched.RegisterNetwork(sched.NetworkInfo{
		Name:        "fifo",
		Description: "strict priority by job arrival: an earlier job's flows are served first (PushBox's Hadoop(FIFO) network)",
		New:         func(*sched.Params) (sched.NetworkPolicy, error) { return FIFO{}, nil },
	})
	sched.RegisterNetwork(sched.NetworkInfo{
		Name: "scf",
		Description: "smallest coflow first, clairvoyant: a job's flows get the priority of its estimated shuffle size, " +
			"in exponentially spaced bins (Aalo's queue thresholds applied to the estimated total)",
		Params: []sched.ParamInfo{
			{Name: "first", Default: "10MB", Help: "upper bound of the highest-priority bin (bytes or a size like 10MB)"},
			{Name: "factor", Default: "10", Help: "each bin's bound is this times the previous one's"},
		},
		New: func(p *sched.Params) (sched.NetworkPolicy, error) {
			s := &SCF{First: p.Size("first", 10e6), Factor: p.Float("factor", 10), class: map[sched.Job]int{}}
			if !(s.First > 0) || math.IsInf(s.First, 0) {
				p.Fail("first", s.First, "a size > 0")
			}
			if !(s.Factor > 1) || math.IsInf(s.Factor, 0) {
				p.Fail("factor", s.Factor, "a number > 1")
			}
			return s, nil
		},
	})
}

// Fair puts every flow in class 0.
type Fair struct{}

func (Fair) FlowClass(sched.View, sched.Task, int) int { return 0 }

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
