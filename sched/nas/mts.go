package nas

import (
	"container/heap"
	"iter"
	"math"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
)

// mapCand is one waiting map considered for machine m.
type mapCand struct {
	t    sched.Task
	j    *job
	out  float64 // predicted shuffle output
	cost float64 // MapCost = γ·input, γ = 0 node-local, 1 rack-local, 2 remote
}

// mapFor is Algorithm 2 for user u on a request from machine m with avail
// bytes of shuffle budget left: a data-local, shuffle-qualified map
// launches and resets the user's skip counter; a user skipped D^m times may
// launch a qualified map anywhere (four categories, then MapCost, then the
// output closest to the space left), else a data-local map, else its
// smallest-output map; otherwise the user is skipped and counted.
func (s *Scheduler) mapFor(v sched.View, u *user, m int, avail float64) sched.Task {
	s.refused = s.refused[:0]
	best, eligible := s.localQualified(v, u, m, avail)
	if !eligible {
		if s.hold {
			s.stats.Held++
			if s.perJob {
				for j := range u.mapJobs() {
					if j.tasks.WaitingMaps > 0 && s.held(j) {
						s.jobStats(j).Held++
					}
				}
			}
		}
		return sched.Task{} // every waiting map of the user is held: not a skip
	}
	s.stats.MapRequests++
	for _, j := range s.refused {
		s.jobStats(j).BudgetRefused++ // (one job stands for all without CountPerJob)
	}
	if !best.IsZero() {
		if len(s.refused) > 0 {
			s.stats.BudgetChanged++
		}
		u.mapSkip = 0
		return best
	}
	if len(s.refused) > 0 {
		s.stats.BudgetSkipped++
	}
	if u.mapSkip >= s.cfg.MapSkips {
		t := s.anyQualified(v, u, m, avail)
		if t.IsZero() {
			t = s.leastOutput(v, u, m)
		}
		if !t.IsZero() {
			s.stats.AtMapSkips++
		}
		return t
	}
	u.mapSkip++
	s.stats.MapSkipsCount++
	return sched.Task{}
}

// held reports maps MTS must not start: CR-RTS asked it to hold shuffle-
// heavy and -medium jobs until the congestion clears.
func (s *Scheduler) held(j *job) bool { return s.hold && j.class != Light }

// eachMapStage calls fn on the user's map stages with waiting tasks of jobs
// that are not held, jobs in arrival order, until fn returns false.
func (s *Scheduler) eachMapStage(u *user, fn func(j *job, st sched.Stage) bool) {
	s.eachStageOf(u.mapJobs(), fn)
}

// eachStageOf is eachMapStage over the jobs of jobs.
func (s *Scheduler) eachStageOf(jobs iter.Seq[*job], fn func(j *job, st sched.Stage) bool) {
	for j := range jobs {
		if j.tasks.WaitingMaps == 0 || s.held(j) {
			continue
		}
		for _, st := range j.maps {
			if st.WaitingCount() > 0 && !fn(j, st) {
				return
			}
		}
	}
}

// localQualified finds the user's best data-local map whose predicted output
// fits in avail: unpredicted jobs first (so they become predicted), then the
// output closest to avail. eligible is false when the user has no map MTS
// may start at all.
//
// Only the jobs that may have a data-local map on m are visited (local.go),
// in arrival order. The scan stops at a candidate no later map can replace
// or be refused against: unpredicted (or no unpredicted job is left to
// prefer) and at least as close to avail as bound, the largest output any
// waiting map of the user may have (u.outs), since avail-out only grows as
// out shrinks, rounding included. A bound above avail, where a map could be
// refused, is always closer than a fitting candidate, so the scan then goes
// on.
func (s *Scheduler) localQualified(v sched.View, u *user, m int, avail float64) (best sched.Task, eligible bool) {
	s.eachMapStage(u, func(*job, sched.Stage) bool {
		eligible = true
		return false
	})
	if !eligible {
		return sched.Task{}, false
	}
	if !s.perJob && avail < u.lows.top() {
		// Every waiting map's output exceeds avail: nothing qualifies, and
		// the counters need only know whether a data-local map was refused.
		s.eachStageOf(u.localJobs(m), func(j *job, st sched.Stage) bool {
			if locate.Local(st, m).IsZero() {
				return true
			}
			s.refused = append(s.refused, j)
			return false
		})
		return sched.Task{}, true
	}
	var bc mapCand
	bound := u.outs.top()
	s.eachStageOf(u.localJobs(m), func(j *job, st sched.Stage) bool {
		t := locate.Local(st, m)
		if t.IsZero() {
			return true
		}
		c := mapCand{t: t, j: j, out: s.mapOutput(v, j, t)}
		if c.out > avail {
			s.refused = append(s.refused, j) // counters only
			return true
		}
		if bc.t.IsZero() || s.betterLocal(c, bc, avail) {
			bc = c
		}
		return (s.predicted(bc.j) && u.unpredicted > 0) || closer(bound, bc.out, avail)
	})
	return bc.t, true
}

func (s *Scheduler) betterLocal(a, b mapCand, avail float64) bool {
	if pa, pb := s.predicted(a.j), s.predicted(b.j); pa != pb {
		return !pa
	}
	return closer(a.out, b.out, avail)
}

// closer: a's output leaves less of avail unused than b's (ties: b, the
// earlier job, stays).
func closer(a, b, avail float64) bool {
	if math.IsInf(avail, 1) {
		return false
	}
	return avail-a < avail-b
}

// category is Algorithm 2's lines 9-12: small-input unpredicted,
// small-input predicted, large-input unpredicted, large-input predicted.
func (s *Scheduler) category(j *job) int {
	c := 0
	if !s.small(j) {
		c = 2
	}
	if s.predicted(j) {
		c++
	}
	return c
}

// nearest is the most local waiting map of st for machine m with its cost.
func (s *Scheduler) nearest(v sched.View, j *job, st sched.Stage, m int) (mapCand, bool) {
	t := locate.Nearest(v, st, m)
	if t.IsZero() {
		return mapCand{}, false
	}
	gamma := 0.0
	switch v.Locality(t, m) {
	case sched.RackLocal:
		gamma = 1
	case sched.OffSwitch:
		gamma = 2
	}
	return mapCand{t: t, j: j, out: s.mapOutput(v, j, t), cost: gamma * v.Estimate(t).Input}, true
}

// anyQualified is lines 7-12: the user's qualified map in category order,
// then lowest MapCost, then output closest to avail. Within a stage the
// most local task stands for the stage (its tasks read equal-sized splits).
func (s *Scheduler) anyQualified(v sched.View, u *user, m int, avail float64) sched.Task {
	if avail < u.lows.top() {
		return sched.Task{} // every waiting map's output exceeds avail
	}
	var bc mapCand
	bcat := 0
	s.eachMapStage(u, func(j *job, st sched.Stage) bool {
		c, ok := s.nearest(v, j, st, m)
		if !ok || c.out > avail {
			return true
		}
		cat := s.category(j)
		switch {
		case bc.t.IsZero(), cat < bcat:
		case cat > bcat:
			return true
		case c.cost < bc.cost:
		case c.cost > bc.cost || !closer(c.out, bc.out, avail):
			return true
		}
		bc, bcat = c, cat
		return true
	})
	return bc.t
}

// leastOutput is lines 13-16, when no map of the user fits the budget: the
// data-local map with the smallest output, else the smallest-output map
// (ties: the earlier job, then the earlier stage).
//
// A map costs 0 only where it is data-local or reads no input, so the first
// part (cheapestLocal) considers the jobs of u.localJobs(m). Both parts walk
// u.lows, the heap of the jobs' lower bounds on output (walkLows).
func (s *Scheduler) leastOutput(v sched.View, u *user, m int) sched.Task {
	if t := s.cheapestLocal(v, u, m); !t.IsZero() {
		return t
	}
	least, scan := s.walkLows(v, u, m, -1, nil)
	if scan {
		return s.leastOutputScan(v, u, m, nil) // a NaN output: no order to walk by
	}
	return least.t
}

// cheapestLocal is leastOutput's first part: the smallest-output map of
// u.localJobs(m) that costs 0 from m. It walks u.lows restricted to those
// jobs, which stops near the smallest bounds, and falls back to visiting
// the jobs in arrival order when the walk has visited as many jobs as the
// sets hold, so it costs at most about twice the visit.
func (s *Scheduler) cheapestLocal(v sched.View, u *user, m int) sched.Task {
	set := u.local[m]
	if set == nil {
		set = &noJobs
	}
	isLocal := func(j *job) bool { return set.has(j.seq) || u.anyLocal.has(j.seq) }
	if best, scan := s.walkLows(v, u, m, set.n+u.anyLocal.n, isLocal); !scan {
		return best.t
	}
	return s.leastOutputScan(v, u, m, isLocal)
}

// walkLows finds the smallest-output waiting map for m among u's jobs
// accepted by keep (nil: all; a kept map must then cost 0), ties to the
// earlier job, then the earlier stage. It visits u.lows best first, in
// (bound, arrival) order, and stops at the first job that comes after the
// best map found: no later job can have a smaller output or win a tie.
// scan reports that the caller must visit the jobs instead: an output is
// NaN (no order to walk by) or, with limit >= 0, more than limit jobs were
// visited.
func (s *Scheduler) walkLows(v sched.View, u *user, m, limit int, keep func(*job) bool) (least mapCand, scan bool) {
	h := u.lows.js
	if len(h) == 0 {
		return mapCand{}, false
	}
	front := frontier{h: h, at: append(s.walk[:0], 0)}
	defer func() { s.walk = front.at[:0] }()
	for visited := 1; len(front.at) > 0; visited++ {
		i := front.pop()
		j := h[i]
		if !least.t.IsZero() && (j.lowBound > least.out || j.lowBound == least.out && j.seq > least.j.seq) {
			break
		}
		if limit >= 0 && visited > limit {
			return mapCand{}, true
		}
		if j.tasks.WaitingMaps > 0 && !s.held(j) && (keep == nil || keep(j)) {
			for _, st := range j.maps {
				if st.WaitingCount() == 0 {
					continue
				}
				c, ok := s.nearest(v, j, st, m)
				if !ok || keep != nil && c.cost != 0 {
					continue
				}
				if math.IsNaN(c.out) {
					return mapCand{}, true
				}
				if least.t.IsZero() || c.out < least.out || c.out == least.out && j.seq < least.j.seq {
					least = c
				}
			}
		}
		for _, k := range [2]int{2*i + 1, 2*i + 2} {
			if k < len(h) {
				front.at = append(front.at, k)
				heap.Fix(&front, len(front.at)-1)
			}
		}
	}
	return least, false
}

// frontier is walkLows' queue (a container/heap): positions in the lows
// heap h, smallest (lowBound, arrival) first.
type frontier struct {
	h  []*job
	at []int
}

func (f *frontier) Len() int { return len(f.at) }
func (f *frontier) Less(a, b int) bool {
	x, y := f.h[f.at[a]], f.h[f.at[b]]
	return x.lowBound < y.lowBound || x.lowBound == y.lowBound && x.seq < y.seq
}
func (f *frontier) Swap(a, b int) { f.at[a], f.at[b] = f.at[b], f.at[a] }
func (f *frontier) Push(x any)    { f.at = append(f.at, x.(int)) }
func (f *frontier) Pop() any      { panic("unused: pop avoids boxing") }

// pop takes the smallest position out (heap.Pop without boxing it).
func (f *frontier) pop() int {
	i, n := f.at[0], len(f.at)-1
	f.at[0] = f.at[n]
	f.at = f.at[:n]
	if n > 0 {
		heap.Fix(f, 0)
	}
	return i
}

// leastOutputScan is walkLows by a visit of the jobs in arrival order:
// every job with waiting maps (keep nil), or u.localJobs(m) with the maps
// that cost 0.
func (s *Scheduler) leastOutputScan(v sched.View, u *user, m int, keep func(*job) bool) sched.Task {
	var least mapCand
	fn := func(j *job, st sched.Stage) bool {
		if c, ok := s.nearest(v, j, st, m); ok && (keep == nil || c.cost == 0) && (least.t.IsZero() || c.out < least.out) {
			least = c
		}
		return true
	}
	if keep == nil {
		s.eachMapStage(u, fn)
	} else {
		s.eachStageOf(u.localJobs(m), fn)
	}
	return least.t
}
