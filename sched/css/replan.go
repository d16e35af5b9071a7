package css

import (
	"math"
	"slices"

	"github.com/netsched/netsched/sched"
)

// replan is STSP (Algorithm 1 lines 1-19) over every task not yet
// started: "the task placement and order in the queues can be adjusted
// when more cotasks enter" (§III-A), so the queues are emptied and every
// pending cotask, old and new, is placed again, given the remaining work
// W of the running tasks. Running tasks stay where they are.
//
// Two rules are ours, both about data dependencies, which STSP assumes
// away ("no task would be blocked when it is fetching the required data",
// §III-B) but which a reducer started by slow-start makes real:
//
//   - A cotask is placed after the pending cotasks of its stage's
//     ancestors (stspUnit.after), so in every plan a task's queue holds
//     nothing it depends on behind it.
//   - Pending cotasks that a running task waits for (and their pending
//     ancestors) are placed first, and not on lanes whose running task is
//     itself waiting for data (unless every lane is). A running task was
//     placed by an earlier plan; without this rule a new plan could queue
//     the maps reducer A waits for behind reducer B, and B's maps behind
//     A: both lanes would wait forever. With it, every wait ends at a task
//     that runs.
//
// The remaining work of a lane whose task waits for data counts the wait,
// estimated from when the tasks it needs are expected to finish; that is
// only known once those are placed, so the awaited cotasks are placed in
// a first round and everything else in a second.
func (s *Scheduler) replan(v sched.View) error {
	s.stats.Replans++
	s.dirty = false
	now := v.Now()

	// Every pending task, grouped into units, oldest unit first.
	byUnit := map[int][]sched.Task{}
	var ids []int
	add := func(t sched.Task) {
		id := s.unit[t]
		if byUnit[id] == nil {
			ids = append(ids, id)
		}
		byUnit[id] = append(byUnit[id], t)
	}
	for k := range s.lanes.all {
		for _, t := range s.lanes.all[k].queue {
			add(t)
		}
	}
	for _, t := range s.loose {
		add(t)
	}
	s.lanes.clearQueues()
	s.loose = s.loose[:0]
	s.prunePlans()
	slices.Sort(ids)
	s.stats.Units += len(ids)
	s.stats.MaxUnits = max(s.stats.MaxUnits, len(ids))
	units := make([]*pending, len(ids))
	for i, id := range ids {
		ts := byUnit[id]
		slices.SortFunc(ts, func(a, b sched.Task) int { return a.Index() - b.Index() })
		units[i] = &pending{id: id, tasks: ts, stage: ts[0].Stage(), class: classNormal}
		for _, t := range ts {
			units[i].wait += now - t.ReadyAt()
		}
	}

	w := s.newWork(v)
	waiting := make([]bool, len(s.lanes.all))
	awaitedStages := map[sched.Stage]bool{}
	anc := ancestry{}
	allWaiting := true
	for k, l := range s.lanes.all {
		if waiting[k] = waitsForData(l.running) && !s.noAwaitGuard; waiting[k] {
			for st := range anc.of(l.running.Stage()) {
				awaitedStages[st] = true
			}
		} else {
			allWaiting = false
		}
	}

	// Classes, the ancestry constraint, and the promotion of ancestors to
	// their descendants' class.
	unitsOfStage := map[sched.Stage][]int{}
	for i, u := range units {
		unitsOfStage[u.stage] = append(unitsOfStage[u.stage], i)
	}
	for i, u := range units {
		switch {
		case awaitedStages[u.stage]:
			u.class = classAwaited
		case s.cfg.Starvation > 0 && u.wait > s.cfg.Starvation:
			u.class = classStarving
		}
		for st := range anc.of(u.stage) {
			for _, j := range unitsOfStage[st] {
				if j != i {
					u.after = append(u.after, j)
				}
			}
		}
		slices.Sort(u.after)
	}
	for _, u := range units {
		for _, j := range u.after {
			units[j].class = min(units[j].class, u.class)
		}
	}

	// Round 1: the awaited units, off the waiting lanes.
	var first, second []int
	for i, u := range units {
		if u.class == classAwaited {
			first = append(first, i)
		} else {
			second = append(second, i)
		}
	}
	exclude := waiting
	if allWaiting {
		exclude = nil
	}
	if err := s.placeRound(v, w, units, first, exclude); err != nil {
		return err
	}
	// Round 2: everything else, with the waits now estimable.
	return s.placeRound(v, s.newWork(v), units, second, nil)
}

// pending is one unit as replan gathers it.
type pending struct {
	id    int
	tasks []sched.Task
	stage sched.Stage
	class int
	wait  float64
	after []int // indices into replan's units
}

// placeRound runs STSP on the units listed (indices into units) with the
// lanes' current backlogs, keeping them off the excluded lanes where every
// task has another lane, and appends the result to the queues.
func (s *Scheduler) placeRound(v sched.View, w *work, units []*pending, idx []int, exclude []bool) error {
	if len(idx) == 0 {
		return nil
	}
	pos := map[int]int{} // units index -> position in this round
	for p, i := range idx {
		pos[i] = p
	}
	nl := len(s.lanes.all)
	backlog := make([]float64, nl)
	for k := range backlog {
		backlog[k] = w.backlog(k)
	}
	in := make([]stspUnit, len(idx))
	for p, i := range idx {
		u := units[i]
		su := stspUnit{times: make([][]float64, len(u.tasks)), class: u.class, wait: u.wait}
		for j, t := range u.tasks {
			row := make([]float64, nl)
			for k, l := range s.lanes.all {
				row[k] = math.Inf(1)
				if t.Pin() < 0 || t.Pin() == l.machine {
					row[k] = w.duration(t, l.machine)
				}
			}
			su.times[j] = row
		}
		keepOff(su.times, exclude)
		if s.cfg.Placement == "random" {
			su.fixed = make([]int, len(u.tasks))
			for j, t := range u.tasks {
				su.fixed[j] = randomLane(v.Seed(), t, su.times[j])
			}
		}
		for _, j := range u.after {
			if q, ok := pos[j]; ok {
				su.after = append(su.after, q)
			}
		}
		in[p] = su
	}
	res, err := stsp(in, backlog, stspOptions{byArrival: s.cfg.Order == "arrival", improve: s.cfg.Improve, lp: s.opt})
	s.stats.MinCCTs += res.minCCTs
	s.stats.LPSolves += res.lpSolves
	if err != nil {
		return err
	}
	now := v.Now()
	for _, pu := range res.placed {
		u := units[idx[pu.unit]]
		switch u.class {
		case classAwaited:
			s.stats.Awaited++
		case classStarving:
			s.stats.Starving++
		}
		cct := now + pu.cct
		for _, sl := range pu.tasks {
			t := u.tasks[sl.task]
			s.lanes.enqueue(sl.lane, t)
		}
		// The cotask's running tasks count toward its completion too.
		for k, l := range s.lanes.all {
			if !l.running.IsZero() && s.unit[l.running] == u.id {
				cct = math.Max(cct, now+w.remaining(k))
			}
		}
		s.plannedCCT[u.id] = cct
	}
	return nil
}

// keepOff makes the excluded lanes unavailable to every task that can run
// on some other lane.
func keepOff(times [][]float64, exclude []bool) {
	if exclude == nil {
		return
	}
	for _, row := range times {
		other := false
		for k, d := range row {
			other = other || !exclude[k] && !math.IsInf(d, 1)
		}
		if !other {
			continue
		}
		for k := range row {
			if exclude[k] {
				row[k] = math.Inf(1)
			}
		}
	}
}

// ancestry memoises the ancestor stages of stages (their parents, the
// parents' parents, ...), within one job.
type ancestry map[sched.Stage]map[sched.Stage]bool

func (a ancestry) of(st sched.Stage) map[sched.Stage]bool {
	if set, ok := a[st]; ok {
		return set
	}
	set := map[sched.Stage]bool{}
	for _, e := range st.Parents() {
		set[e.Parent] = true
		for p := range a.of(e.Parent) {
			set[p] = true
		}
	}
	a[st] = set
	return set
}

// prunePlans forgets the planned CCT of units with no task left.
func (s *Scheduler) prunePlans() {
	live := map[int]bool{}
	for _, id := range s.unit {
		live[id] = true
	}
	for id := range s.plannedCCT {
		if !live[id] {
			delete(s.plannedCCT, id)
		}
	}
}

// randomLane is the random-placement ablation's lane for task t: uniform
// over the lanes that can run it, drawn from a hash of the seed and the
// task, so the same task gets the same lane at every re-plan (as if it had
// been placed once, on arrival, as a queue-based cluster without CSS
// would).
func randomLane(seed uint64, t sched.Task, times []float64) int {
	var ok []int
	for k, d := range times {
		if !math.IsInf(d, 1) {
			ok = append(ok, k)
		}
	}
	h := mix(seed ^ mix(uint64(t.Job().Seq())<<24^uint64(t.Stage().Index())<<16^0xc55) ^ mix(uint64(t.Index())+0x7a5))
	return ok[h%uint64(len(ok))]
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
