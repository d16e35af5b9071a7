package css

import (
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/sched/css/cotask"
)

// This file is STSP (Algorithm 1, lines 1-19) on plain data: pending
// cotasks as matrices of task times per lane, lanes as their backlogs W.
// The engine-facing side (replan.go) builds the units from the View and
// applies the result to the lanes' queues.

// Classes order the pending cotasks before MCTF. A unit's class is the
// most urgent of its own and its pending descendants' (a parent is never
// placed after a child, see stspUnit.after).
const (
	// classAwaited: a running task waits for this unit's output. Placed
	// first so that the task it blocks is released as early as possible,
	// and never behind a task that itself waits for data (see replan.go:
	// this keeps the lanes free of circular waits).
	classAwaited = iota
	// classStarving: waited longer than δ (Algorithm 1, lines 7-10).
	classStarving
	// classNormal: ordered by MCTF (lines 12-14).
	classNormal
	numClasses
)

// stspUnit is one pending cotask (or the part of one still queued, or a
// task DTPA split off as a new cotask).
type stspUnit struct {
	times [][]float64 // times[j][k]: seconds task j takes on lane k; +Inf: not there
	class int
	wait  float64 // waitTime(): total seconds its tasks have waited so far
	// after lists units that must be placed before this one: the pending
	// units of its stage's ancestors. STSP assumes no task is blocked
	// fetching data (§III-B); placing a reducer ahead of the maps it reads
	// would make that assumption false by construction, and could leave a
	// host holding a reducer whose maps queue behind it.
	after []int
	// fixed, when set, is the lane of every task, decided beforehand (the
	// random-placement ablation): no LP, and MCTF ranks the unit by the
	// CCT of that placement.
	fixed []int
}

// slotted is one task of a placed unit: its lane and its planned start
// and finish (seconds from the plan's instant, W included).
type slotted struct {
	task, lane    int
	start, finish float64
}

// placedUnit is one unit as STSP placed it.
type placedUnit struct {
	unit  int
	tasks []slotted // lane by lane, longest first within a lane (§IV-C)
	bound float64   // minCCT lower bound t* when it was placed
	cct   float64   // the placement's CCT (seconds from the plan's instant)
}

// stspResult is the plan: units in the order STSP placed them.
type stspResult struct {
	placed   []placedUnit
	lpSolves int // MinCCT LPs solved (diagnostics)
	minCCTs  int // MinCCT evaluations
}

// stspOptions are the switches of one STSP run.
type stspOptions struct {
	byArrival bool // order units by index instead of MCTF
	improve   bool // cotask.Improve between rounding and aggregation
	lp        *cotask.Options
}

// stsp places units onto lanes with backlogs w (seconds; updated in place)
// in STSP's order: class by class (awaited, starving, normal); within the
// starving class the longest-waiting first (line 2); within the others the
// unit with the smallest minimum CCT given the current W (MCTF, lines
// 5-14), or with byArrival the first by index. Ties go to the lower index,
// so callers list units oldest first. Each chosen unit is placed with
// Algorithm 2 and 3 and its lanes' W grow by its tasks (line 17).
//
// MCTF re-evaluates minCCT for every remaining unit after each placement
// in the paper. Placing work only raises W, and minCCT is monotone in W
// (the LP's constraints only tighten), so a value computed earlier is a
// lower bound: units sit in a heap on their last value and only the top
// is re-evaluated, until the top is current. The choice is the same as the
// full re-evaluation, ties included, at a fraction of the LPs.
func stsp(units []stspUnit, w []float64, o stspOptions) (stspResult, error) {
	byArrival, opt := o.byArrival, o.lp
	n := len(units)
	var res stspResult
	blockers := make([]int, n) // unplaced units each one waits for
	children := make([][]int, n)
	for i, u := range units {
		if u.class < 0 || u.class >= numClasses {
			return res, fmt.Errorf("css: unit %d has class %d", i, u.class)
		}
		for _, p := range u.after {
			if p < 0 || p >= n || p == i {
				return res, fmt.Errorf("css: unit %d waits for unit %d", i, p)
			}
			if units[p].class > u.class {
				return res, fmt.Errorf("css: unit %d (class %d) waits for unit %d of a later class %d", i, u.class, p, units[p].class)
			}
			blockers[i]++
			children[p] = append(children[p], i)
		}
	}
	placed := make([]bool, n)
	version := 0 // bumped whenever w changes
	for class := range numClasses {
		q := &unitHeap{}
		add := func(i int) error {
			e := entry{unit: i, version: -1}
			switch {
			case class == classStarving:
				e.key = -units[i].wait // longest wait first
			case byArrival:
				e.key = 0 // ties: by index
			default:
				if err := res.evaluate(&e, units[i], w, version, opt); err != nil {
					return err
				}
				e.key = e.value
			}
			heap.Push(q, e)
			return nil
		}
		for i, u := range units {
			if u.class == class && blockers[i] == 0 {
				if err := add(i); err != nil {
					return res, err
				}
			}
		}
		for q.Len() > 0 {
			e := heap.Pop(q).(entry)
			mctf := class != classStarving && !byArrival
			if mctf && e.version != version {
				// A stale lower bound: re-evaluate and put back.
				if err := res.evaluate(&e, units[e.unit], w, version, opt); err != nil {
					return res, err
				}
				e.key = e.value
				heap.Push(q, e)
				continue
			}
			if !mctf {
				// Starving or by arrival: no MCTF value was needed to choose.
				if err := res.evaluate(&e, units[e.unit], w, version, opt); err != nil {
					return res, err
				}
			}
			pu, err := place(units[e.unit], w, e.frac, o.improve)
			if err != nil {
				return res, fmt.Errorf("css: placing unit %d: %w", e.unit, err)
			}
			pu.unit = e.unit
			res.placed = append(res.placed, pu)
			placed[e.unit] = true
			version++
			for _, c := range children[e.unit] {
				blockers[c]--
				if blockers[c] == 0 && units[c].class == class {
					if err := add(c); err != nil {
						return res, err
					}
				}
			}
		}
	}
	for i := range units {
		if !placed[i] {
			return res, fmt.Errorf("css: unit %d was never placed (it waits for units of a later class)", i)
		}
	}
	return res, nil
}

// evaluate computes a unit's fractional placement and minimum CCT at
// backlogs w (Algorithm 1 line 6) into e.frac and e.value; for a unit with
// a fixed placement, the CCT of that placement.
func (res *stspResult) evaluate(e *entry, u stspUnit, w []float64, version int, opt *cotask.Options) error {
	e.version = version
	if u.fixed != nil {
		c, err := cotask.CCT(cotask.Instance{Times: u.times, Backlog: w}, u.fixed)
		e.value = c
		return err
	}
	f, err := cotask.MinCCT(cotask.Instance{Times: u.times, Backlog: w}, opt)
	if err != nil {
		return fmt.Errorf("css: minCCT of unit %d: %w", e.unit, err)
	}
	res.minCCTs++
	res.lpSolves += f.LPSolves
	e.frac, e.value = f, f.T
	return nil
}

// place rounds a unit's fractional placement (Algorithm 2), optionally
// improves it (cotask.Improve), aggregates it (Algorithm 3), orders each
// lane's tasks longest first (§IV-C) and adds them to w.
func place(u stspUnit, w []float64, f cotask.Fractional, improve bool) (placedUnit, error) {
	in := cotask.Instance{Times: u.times, Backlog: w}
	host := u.fixed
	if host == nil {
		var err error
		if host, err = cotask.Round(in, f); err != nil {
			return placedUnit{}, err
		}
		if improve {
			if host, err = cotask.Improve(in, host); err != nil {
				return placedUnit{}, err
			}
		}
		if host, err = cotask.Aggregate(in, host); err != nil {
			return placedUnit{}, err
		}
	}
	byLane := map[int][]int{}
	var lanes []int
	for j, k := range host {
		if byLane[k] == nil {
			lanes = append(lanes, k)
		}
		byLane[k] = append(byLane[k], j)
	}
	slices.Sort(lanes)
	pu := placedUnit{bound: f.T}
	if u.fixed != nil {
		pu.bound = math.NaN()
	}
	for _, k := range lanes {
		order, err := cotask.OrderLongestFirst(in, k, byLane[k])
		if err != nil {
			return placedUnit{}, err
		}
		for _, j := range order {
			s := slotted{task: j, lane: k, start: w[k]}
			w[k] += u.times[j][k]
			s.finish = w[k]
			pu.cct = math.Max(pu.cct, s.finish)
			pu.tasks = append(pu.tasks, s)
		}
	}
	return pu, nil
}

// entry is a unit in STSP's selection heap.
type entry struct {
	key     float64 // MCTF: its minCCT; starving: minus its wait
	value   float64 // the last evaluation: minCCT, or a fixed placement's CCT
	unit    int
	version int // the w version key was computed at; -1: none yet
	frac    cotask.Fractional
}

type unitHeap []entry

func (h unitHeap) Len() int { return len(h) }
func (h unitHeap) Less(a, b int) bool {
	if h[a].key != h[b].key {
		return h[a].key < h[b].key
	}
	return h[a].unit < h[b].unit
}
func (h unitHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *unitHeap) Push(x any)   { *h = append(*h, x.(entry)) }
func (h *unitHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
