package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/sched"
)

// slotChange is Algorithm 2 for one free slot of machine m: the jobs in
// multi-queue order each propose a task. A local task of the legitimate job
// (no slot yielded yet) is taken; a local task of a later (beneficiary) job
// must pass notHinderTask; a task with an input phase must pass
// canBePlaced, and failing it yields the slot to the next job. The zero
// Task keeps the slot free.
func (s *Scheduler) slotChange(v sched.View, m int) sched.Task {
	if v.Machine(m).Free() <= 0 {
		return sched.Task{}
	}
	yielded := false
	for js := range s.jobOrder(v) {
		t := s.selectTask(v, js, m)
		switch {
		case t.IsZero():
			yielded = true
		case s.isLocal(v, t, m):
			if !yielded {
				return s.placing(t)
			}
			if s.notHinderTask(v, t, m) {
				if s.cfg.H && !(v.Estimate(t).Compute < s.dataTransferTime(v, m)) {
					s.stats.Hindering++
					s.jobStats(js).Hindering++
				}
				return s.placing(t)
			}
		case s.canBePlaced(v, t, m):
			if s.pass.count[m] >= s.cfg.M { // admitted by the wildcard
				s.stats.WildcardPlaced++
				s.jobStats(js).WildcardPlaced++
			}
			return s.placing(t)
		default:
			yielded = true
		}
	}
	return sched.Task{}
}

// placing counts a placement slotChange decided.
func (s *Scheduler) placing(t sched.Task) sched.Task {
	s.stats.Placements++
	return t
}

// fill runs slot-change mode on machine m until it keeps a slot free.
func (s *Scheduler) fill(v sched.View, p *sched.Plan, m int) {
	for {
		t := s.slotChange(v, m)
		if t.IsZero() || !s.place(v, p, t, m) {
			return
		}
	}
}

// taskArrival is Algorithm 3: repeatedly sort the machines with a free slot
// by ascending dataTransferTime (pack the task as early as possible), and
// place one task on the first machine that accepts one; stop when none
// does. Line 9's selectTask over the waiting tasks goes through the job
// order exactly as Algorithm 2 does (line 13's test "chosenTask.job =
// Jobs[0]" is Algorithm 2's slotYield = 0 once jobs without waiting tasks
// are left out of the order).
func (s *Scheduler) taskArrival(v sched.View, p *sched.Plan) {
	if n := v.NumMachines(); len(s.dtt) < n {
		s.dtt = make([]float64, n)
	}
	cands, dtt := s.cands[:0], s.dtt
	defer func() { s.cands = cands[:0] }()
	for {
		cands = cands[:0]
		for m := range v.FreeMachines() {
			cands = append(cands, m)
			dtt[m] = s.dataTransferTime(v, m)
		}
		slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(dtt[a], dtt[b]) })
		placed := false
		for _, m := range cands {
			if t := s.slotChange(v, m); !t.IsZero() {
				if !s.place(v, p, t, m) {
					return
				}
				placed = true
				break
			}
		}
		if !placed {
			return
		}
	}
}
