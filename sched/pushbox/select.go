package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/sched"
)

// selectTask is Algorithm 1's selectTask for job js and machine m. Stages
// are tried most critical first; the first one with a waiting task that may
// run on m decides. A stage that reads only DFS blocks (few sources, e.g.
// maps) goes through delay scheduling, which may return no task (no local
// task yet, skip count not reached); any other stage gives its waiting task
// with the largest estimated input (§5.1 "Task Selection"). With the RS
// ablation that task is drawn at random among the stage's instead (lines
// 5-7 of Algorithm 1 replaced; stage order and locality branch kept).
// Tasks picked earlier in the pass are no longer waiting: the plan holds
// them (Phase() == sched.Planned).
func (s *Scheduler) selectTask(v sched.View, js *jobState, m int) sched.Task {
	for _, ss := range js.critical {
		if !ss.st.Ready() || ss.st.WaitingCount() <= 0 {
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
		if t := pick(v, ss, m); !t.IsZero() {
			return t
		}
	}
	return sched.Task{}
}

// listed reports whether a task stays in a stage's bySize list: waiting,
// or picked in this pass (the list's head and the RS ablation's draws
// count the tasks picked in the pass until the next one).
func listed(t sched.Task) bool { return t.Phase() == sched.Waiting || t.Phase() == sched.Planned }

// largest is the stage's waiting task with the largest estimated input
// that may run on m.
func (s *Scheduler) largest(v sched.View, ss *stageState, m int) sched.Task {
	if ss.bySize == nil {
		ss.bySize = make([]sched.Task, 0, ss.st.WaitingCount())
		for _, t := range ss.st.Waiting() {
			ss.bySize = append(ss.bySize, t)
		}
		in := make(map[sched.Task]float64, len(ss.bySize))
		for _, t := range ss.bySize {
			in[t] = v.Estimate(t).Input
		}
		slices.SortStableFunc(ss.bySize, func(a, b sched.Task) int { return cmp.Compare(in[b], in[a]) })
	}
	for ss.head < len(ss.bySize) && !listed(ss.bySize[ss.head]) {
		ss.bySize[ss.head] = sched.Task{}
		ss.head++
	}
	for _, t := range ss.bySize[ss.head:] {
		if t.Phase() == sched.Waiting && mayRun(t, m) {
			return t
		}
	}
	return sched.Task{}
}

func mayRun(t sched.Task, m int) bool { return t.Pin() < 0 || t.Pin() == m }

// localityPick is delay scheduling (one level, skip count) on a stage with
// few sources: a local task if there is one; after enough skipped
// opportunities any task, rack-local first; otherwise nothing, counting one
// skip of this job on m in this pass. tried is false when the stage has no
// task that may run on m at all (the next stage is then tried). Not queue's
// delay nor locate.Nearest: tasks picked earlier in the pass are skipped.
func (s *Scheduler) localityPick(v sched.View, js *jobState, ss *stageState, m int) (t sched.Task, tried bool) {
	id := s.pass.id
	if t := s.localTask(v, ss, m); !t.IsZero() {
		return t, true
	}
	// No task local to m is left, so the first waiting task with a replica
	// in m's rack is rack-local, and no task pinned to m is waiting.
	rack := ss.st.RackLocalWaiting(v.RackOf(m))
	if !rack.IsZero() && s.rackLocal {
		return rack, true
	}
	if js.skips >= s.delay {
		if !rack.IsZero() {
			return rack, true
		}
		t := ss.st.NextWaiting(m)
		return t, !t.IsZero()
	}
	if js.skipMark[m] != id {
		js.skipMark[m] = id
		js.skips++
	}
	return sched.Task{}, true
}

// localTask is the stage's waiting task local to m: pinned to m or with a
// replica on m. It is Stage.LocalWaiting (tasks pinned to m first, then
// those with a replica on m, each in index order), except when the task
// that lookup gave before this pass's picks was picked: then it is the
// first such task in index order, pinned or not, as PushBox always chose.
// That differs from LocalWaiting only when the stage mixes tasks pinned to
// m with unpinned ones, and a pinned one was picked before the one
// LocalWaiting now gives (all tasks pinned to m are planned on m).
func (s *Scheduler) localTask(v sched.View, ss *stageState, m int) sched.Task {
	t := ss.st.LocalWaiting(m)
	if t.IsZero() || t.Pin() != m {
		return t
	}
	pickedBefore := false
	for _, p := range v.Machine(m).Planned() {
		if p.Stage() == ss.st && p.Pin() == m && p.Index() < t.Index() {
			pickedBefore = true
			break
		}
	}
	if !pickedBefore {
		return t
	}
	for _, w := range ss.st.Waiting() {
		if v.Locality(w, m) == sched.NodeLocal && w.Pin() < 0 || w.Pin() == m {
			return w
		}
	}
	return t // not reached: t itself qualifies
}

// randomTask is the RS ablation: a waiting task of the stage drawn
// uniformly among those that may run on m, by rejection from the stage's
// list (compacted when draws keep missing).
func (s *Scheduler) randomTask(v sched.View, ss *stageState, m int) sched.Task {
	if s.largest(v, ss, m).IsZero() { // also builds the list
		return sched.Task{}
	}
	ok := func(t sched.Task) bool { return t.Phase() == sched.Waiting && mayRun(t, m) }
	for range 8 {
		if t := ss.bySize[ss.head+s.rng.IntN(len(ss.bySize)-ss.head)]; ok(t) {
			return t
		}
	}
	var fit []sched.Task
	left := ss.bySize[:0]
	for _, t := range ss.bySize[ss.head:] {
		if listed(t) {
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
