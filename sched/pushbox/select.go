package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/sim"
)

// selectTask is Algorithm 1's selectTask for job js and machine m. Stages
// are tried most critical first; the first one with a waiting task that may
// run on m decides. A stage that reads only DFS blocks (few sources, e.g.
// maps) goes through delay scheduling, which may return nil (no local task
// yet, skip count not reached); any other stage gives its waiting task with
// the largest estimated input (§5.1 "Task Selection"). With the RS ablation
// that task is drawn at random among the stage's instead (lines 5-7 of
// Algorithm 1 replaced; stage order and locality branch kept).
func (s *Scheduler) selectTask(v *sim.View, js *jobState, m int) *sim.Task {
	id := s.pass.id
	for _, ss := range js.critical {
		if !ss.st.Ready || ss.waitingLeft(id) <= 0 {
			continue
		}
		if ss.fileOnly {
			if t, tried := s.localityPick(v, js, ss, m); tried {
				return t
			}
			continue
		}
		pick := s.largest
		if s.cfg.RS {
			pick = s.randomTask
		}
		if t := pick(v, ss, m); t != nil {
			return t
		}
	}
	return nil
}

// largest is the stage's waiting task with the largest estimated input
// that may run on m and was not picked in this pass.
func (s *Scheduler) largest(v *sim.View, ss *stageState, m int) *sim.Task {
	if ss.bySize == nil {
		ss.bySize = make([]*sim.Task, 0, ss.st.WaitingCount())
		ss.st.ForEachWaiting(func(t *sim.Task) bool {
			ss.bySize = append(ss.bySize, t)
			return true
		})
		in := make(map[*sim.Task]float64, len(ss.bySize))
		for _, t := range ss.bySize {
			in[t] = v.Estimate(t).Input
		}
		slices.SortStableFunc(ss.bySize, func(a, b *sim.Task) int { return cmp.Compare(in[b], in[a]) })
	}
	for ss.head < len(ss.bySize) && ss.bySize[ss.head].State != sim.Waiting {
		ss.bySize[ss.head] = nil
		ss.head++
	}
	for _, t := range ss.bySize[ss.head:] {
		if t.State == sim.Waiting && mayRun(t, m) && !ss.isPicked(s.pass.id, t) {
			return t
		}
	}
	return nil
}

func mayRun(t *sim.Task, m int) bool { return t.Pin < 0 || t.Pin == m }

// localityPick is delay scheduling (one level, skip count) on a stage with
// few sources: a local task if there is one; after enough skipped
// opportunities any task, rack-local first; otherwise nothing, counting one
// skip of this job on m in this pass. tried is false when the stage has no
// task that may run on m at all (the next stage is then tried). Not queue's
// delay nor locate.Nearest: tasks picked earlier in the pass are skipped.
func (s *Scheduler) localityPick(v *sim.View, js *jobState, ss *stageState, m int) (t *sim.Task, tried bool) {
	id := s.pass.id
	if t := s.unpicked(ss, ss.st.LocalWaiting(m), func(t *sim.Task) bool { return v.Locality(t, m) == sim.NodeLocal && t.Pin < 0 || t.Pin == m }); t != nil {
		return t, true
	}
	rack := s.unpicked(ss, ss.st.RackLocalWaiting(v.RackOf(m)), func(t *sim.Task) bool { return v.Locality(t, m) == sim.RackLocal && mayRun(t, m) })
	if rack != nil && s.rackLocal {
		return rack, true
	}
	if js.skips >= s.delay {
		if rack != nil {
			return rack, true
		}
		t := s.unpicked(ss, ss.st.NextWaiting(m), func(t *sim.Task) bool { return mayRun(t, m) })
		return t, t != nil
	}
	if js.skipMark[m] != id {
		js.skipMark[m] = id
		js.skips++
	}
	return nil, true
}

// unpicked returns first if it was not picked in this pass, else scans the
// stage's waiting tasks for one that satisfies ok and was not picked.
func (s *Scheduler) unpicked(ss *stageState, first *sim.Task, ok func(*sim.Task) bool) *sim.Task {
	if first == nil {
		return nil
	}
	if !ss.isPicked(s.pass.id, first) {
		return first
	}
	var found *sim.Task
	ss.st.ForEachWaiting(func(t *sim.Task) bool {
		if ok(t) && !ss.isPicked(s.pass.id, t) {
			found = t
			return false
		}
		return true
	})
	return found
}

// randomTask is the RS ablation: a waiting task of the stage drawn
// uniformly among those that may run on m, by rejection from the stage's
// list (compacted when draws keep missing).
func (s *Scheduler) randomTask(v *sim.View, ss *stageState, m int) *sim.Task {
	id := s.pass.id
	if s.largest(v, ss, m) == nil { // also builds the list
		return nil
	}
	ok := func(t *sim.Task) bool { return t.State == sim.Waiting && mayRun(t, m) && !ss.isPicked(id, t) }
	for range 8 {
		if t := ss.bySize[ss.head+s.rng.IntN(len(ss.bySize)-ss.head)]; ok(t) {
			return t
		}
	}
	var fit []*sim.Task
	left := ss.bySize[:0]
	for _, t := range ss.bySize[ss.head:] {
		if t.State == sim.Waiting {
			left = append(left, t)
			if ok(t) {
				fit = append(fit, t)
			}
		}
	}
	clear(ss.bySize[len(left):])
	ss.bySize, ss.head = left, 0
	return fit[s.rng.IntN(len(fit))] // not empty: largest found one
}
