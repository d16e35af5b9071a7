package css

import "github.com/netsched/netsched/sched"

// STFConfig is stf's parameters.
type STFConfig struct {
	Transfer bool `param:"transfer" help:"a task's time on a machine includes its remote input over the machine's NIC (false: compute only)"`
}

func init() {
	sched.Register(sched.Define("stf",
		"shortest task first (the CSS paper's motivating example, §II-B): a free slot takes the waiting task with the smallest estimated time there",
		STFConfig{Transfer: true}, func(c STFConfig) (sched.Scheduler, error) { return &STF{transfer: c.Transfer}, nil }))
}

// STF is the "Shortest Task First" scheme of the CSS paper's motivating
// example (§II-B, Fig. 2): to minimise the average task completion time,
// "when there is an idle host, the smallest task should be assigned to
// it". The size of a task is TaskTime on the offered machine, the same
// estimate CSS uses. Ties go to the earlier job, then stage and task
// index.
//
// A task whose parent stages are unfinished (a reducer ready by
// slow-start) would hold the slot waiting for data, so it is not a short
// task: STF takes one only when no other waiting task may run on the
// machine. Then every task it waits for is running or done, so STF never
// fills the cluster with tasks that wait for each other.
//
// The waiting tasks are kept in heaps ordered by that rule (stf_index.go),
// updated on lifecycle events, so a decision costs a few heap operations
// rather than a scan of every waiting task.
type STF struct {
	transfer bool
	// reference makes every decision scan all waiting tasks, the original
	// implementation; set only by tests, which compare it with the index.
	reference bool
	idx       *stfIndex // nil: decide by the scan
}

// Init builds the index of waiting tasks for the run.
func (s *STF) Init(v sched.View) error {
	s.idx = nil
	if !s.reference {
		s.idx = newSTFIndex(v, s.transfer)
	}
	return nil
}

// Observe keeps the index in step with the waiting tasks.
func (s *STF) Observe(v sched.View, e sched.Event, _ *sched.Plan) {
	if s.idx != nil && !s.idx.observe(v, e) {
		s.idx = nil // a key the heaps cannot order: scan from now on
	}
}

func (s *STF) Offer(v sched.View, m int, p *sched.Plan) {
	if s.idx != nil {
		if t := s.idx.best(v, m); !t.IsZero() {
			p.Place(t, m)
		}
		return
	}
	s.scan(v, m, p)
}

// scan is the decision computed from every waiting task: the reference
// the index must match, and the fallback when it cannot be used.
func (s *STF) scan(v sched.View, m int, p *sched.Plan) {
	var best sched.Task
	bestEarly, bestTime := false, 0.0
	for _, j := range v.Jobs() {
		if j.Waiting() == 0 {
			continue
		}
		for _, st := range j.Stages() {
			if st.WaitingCount() == 0 {
				continue
			}
			early := unfinishedParents(st)
			if !best.IsZero() && early && !bestEarly {
				continue
			}
			for _, t := range st.Waiting() {
				if t.Pin() >= 0 && t.Pin() != m {
					continue
				}
				d := TaskTime(v, t, m, s.transfer)
				if best.IsZero() || bestEarly && !early || bestEarly == early && d < bestTime {
					best, bestEarly, bestTime = t, early, d
				}
			}
		}
	}
	if !best.IsZero() {
		p.Place(best, m)
	}
}
