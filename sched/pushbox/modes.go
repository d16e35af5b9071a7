package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/sim"
)

// slotChange is Algorithm 2 for one free slot of machine m: the jobs in
// multi-queue order each propose a task. A local task of the legitimate job
// (no slot yielded yet) is taken; a local task of a later (beneficiary) job
// must pass notHinderTask; a task with an input phase must pass
// canBePlaced, and failing it yields the slot to the next job. nil keeps
// the slot free.
func (s *Scheduler) slotChange(v *sim.View, m int) *sim.Task {
	s.load(v, m)
	if s.pass.free[m] <= 0 {
		return nil
	}
	yielded := false
	for _, js := range s.jobOrder(v) {
		t := s.selectTask(v, js, m)
		switch {
		case t == nil:
			yielded = true
		case s.isLocal(v, t, m):
			if !yielded || s.notHinderTask(v, t, m) {
				return t
			}
		case s.canBePlaced(v, t, m):
			return t
		default:
			yielded = true
		}
	}
	return nil
}

// fill runs slot-change mode on machine m until it keeps a slot free.
func (s *Scheduler) fill(v *sim.View, m int) {
	for {
		t := s.slotChange(v, m)
		if t == nil {
			return
		}
		s.place(v, t, m)
	}
}

// taskArrival is Algorithm 3: repeatedly sort the machines with a free slot
// by ascending dataTransferTime (pack the task as early as possible), and
// place one task on the first machine that accepts one; stop when none
// does. Line 9's selectTask over the waiting tasks goes through the job
// order exactly as Algorithm 2 does (line 13's test "chosenTask.job =
// Jobs[0]" is Algorithm 2's slotYield = 0 once jobs without waiting tasks
// are left out of the order).
func (s *Scheduler) taskArrival(v *sim.View) {
	ms := v.Machines()
	cands := make([]int, 0, len(ms))
	dtt := make([]float64, len(ms))
	for {
		cands = cands[:0]
		for m := range ms {
			s.load(v, m)
			if s.pass.free[m] > 0 {
				cands = append(cands, m)
				dtt[m] = s.dataTransferTime(v, m)
			}
		}
		slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(dtt[a], dtt[b]) })
		placed := false
		for _, m := range cands {
			if t := s.slotChange(v, m); t != nil {
				s.place(v, t, m)
				placed = true
				break
			}
		}
		if !placed {
			return
		}
	}
}
