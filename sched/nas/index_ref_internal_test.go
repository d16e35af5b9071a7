package nas

import (
	"iter"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
)

// The original decision code, kept as the reference of
// TestIndexesMatchReference: every scan walks all of the user's active jobs
// in arrival order.

// allJobs is the user's active jobs in arrival order, as the original
// per-user list held them.
func (u *user) allJobs() iter.Seq[*job] {
	return func(yield func(*job) bool) {
		for _, j := range u.bySeq {
			if j != nil && !yield(j) {
				return
			}
		}
	}
}

// Offer is Algorithm 1 for a request from machine m. Users are visited in
// fairness order; for each, a request is first a reduce request (an MR
// application master asks for reducers before maps, baselines.md §0),
// served by CA-RTS, or by CR-RTS while the cross-rack network is congested,
// then a map request served by MTS. The first task found is launched.
func (s *Scheduler) oldOffer(v sched.View, m int, p *sched.Plan) {
	if !s.thresholdSet {
		s.recompute()
	}
	congested := v.Monitor().CrossRackUtilization >= s.cfg.CongestionThreshold
	if !congested {
		s.hold = false
	}
	if s.total.WaitingMaps+s.total.WaitingReduces == 0 {
		return
	}
	avail := s.available(v, m)
	for u := range s.users.order.All() {
		if u.tasks.WaitingReduces > 0 {
			if t := s.oldReduceFor(v, u, m, congested); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
		if u.tasks.WaitingMaps > 0 {
			if t := s.oldMapFor(v, u, m, avail); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
	}
}

// mapFor is Algorithm 2 for user u on a request from machine m with avail
// bytes of shuffle budget left: a data-local, shuffle-qualified map
// launches and resets the user's skip counter; a user skipped D^m times may
// launch a qualified map anywhere (four categories, then MapCost, then the
// output closest to the space left), else a data-local map, else its
// smallest-output map; otherwise the user is skipped and counted.
func (s *Scheduler) oldMapFor(v sched.View, u *user, m int, avail float64) sched.Task {
	s.refused = s.refused[:0]
	best, eligible := s.oldLocalQualified(v, u, m, avail)
	if !eligible {
		if s.hold {
			s.stats.Held++
			for j := range u.allJobs() {
				if j.tasks.WaitingMaps > 0 && s.held(j) {
					s.jobStats(j).Held++
				}
			}
		}
		return sched.Task{} // every waiting map of the user is held: not a skip
	}
	s.stats.MapRequests++
	for _, j := range s.refused {
		s.jobStats(j).BudgetRefused++
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
		t := s.oldAnyQualified(v, u, m, avail)
		if t.IsZero() {
			t = s.oldLeastOutput(v, u, m)
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

// eachMapStage calls fn on the user's map stages with waiting tasks of jobs
// that are not held, jobs in arrival order.
func (s *Scheduler) oldEachMapStage(u *user, fn func(j *job, st sched.Stage)) {
	for j := range u.allJobs() {
		if j.tasks.WaitingMaps == 0 || s.held(j) {
			continue
		}
		for _, st := range j.maps {
			if st.WaitingCount() > 0 {
				fn(j, st)
			}
		}
	}
}

// localQualified finds the user's best data-local map whose predicted output
// fits in avail: unpredicted jobs first (so they become predicted), then the
// output closest to avail. eligible is false when the user has no map MTS
// may start at all.
func (s *Scheduler) oldLocalQualified(v sched.View, u *user, m int, avail float64) (best sched.Task, eligible bool) {
	var bc mapCand
	s.oldEachMapStage(u, func(j *job, st sched.Stage) {
		eligible = true
		t := locate.Local(st, m)
		if t.IsZero() {
			return
		}
		c := mapCand{t: t, j: j, out: s.mapOutput(v, j, t)}
		if c.out > avail {
			s.refused = append(s.refused, j) // counters only
			return
		}
		if bc.t.IsZero() || s.betterLocal(c, bc, avail) {
			bc = c
		}
	})
	return bc.t, eligible
}

// anyQualified is lines 7-12: the user's qualified map in category order,
// then lowest MapCost, then output closest to avail. Within a stage the
// most local task stands for the stage (its tasks read equal-sized splits).
func (s *Scheduler) oldAnyQualified(v sched.View, u *user, m int, avail float64) sched.Task {
	var bc mapCand
	bcat := 0
	s.oldEachMapStage(u, func(j *job, st sched.Stage) {
		c, ok := s.nearest(v, j, st, m)
		if !ok || c.out > avail {
			return
		}
		cat := s.category(j)
		switch {
		case bc.t.IsZero(), cat < bcat:
		case cat > bcat:
			return
		case c.cost < bc.cost:
		case c.cost > bc.cost || !closer(c.out, bc.out, avail):
			return
		}
		bc, bcat = c, cat
	})
	return bc.t
}

// leastOutput is lines 13-16, when no map of the user fits the budget: the
// data-local map with the smallest output, else the smallest-output map.
func (s *Scheduler) oldLeastOutput(v sched.View, u *user, m int) sched.Task {
	var local, least mapCand
	s.oldEachMapStage(u, func(j *job, st sched.Stage) {
		c, ok := s.nearest(v, j, st, m)
		if !ok {
			return
		}
		if c.cost == 0 && (local.t.IsZero() || c.out < local.out) {
			local = c
		}
		if least.t.IsZero() || c.out < least.out {
			least = c
		}
	})
	if !local.t.IsZero() {
		return local.t
	}
	return least.t
}

// bestReducer picks the user's reducer for machine m: jobs ordered by
// CA-RTS's key, or when congested by class (light first) and the same
// tie-breaks; only jobs accepted by keep are considered.
func (s *Scheduler) oldBestReducer(v sched.View, u *user, m int, congested bool, keep func(*job) bool) sched.Task {
	r := v.RackOf(m)
	var best sched.Task
	var bk redKey
	for j := range u.allJobs() {
		if j.tasks.WaitingReduces == 0 || keep != nil && !keep(j) || !s.mayStartReducer(j) {
			continue
		}
		k := redKey{boost: j.delayed || j.done == j.est.Maps, shuffle: j.shuffle}
		if congested {
			k.cat = int(j.class)
		} else {
			k.cat = caCategory(j, r)
		}
		if !best.IsZero() && !k.before(bk) {
			continue
		}
		if t := reduceTask(j, m); !t.IsZero() {
			best, bk = t, k
		}
	}
	return best
}

// reduceFor is reduce scheduling for user u on a request from machine m:
// CA-RTS (Algorithm 3) while the core is not congested, CR-RTS (Algorithm
// 4) while it is, or without CA-RTS the user's jobs in arrival order.
func (s *Scheduler) oldReduceFor(v sched.View, u *user, m int, congested bool) sched.Task {
	switch {
	case congested && s.cfg.CRRTS:
		s.hold = s.cfg.HoldMaps
		s.stats.Activations++
		s.stats.CongestionSum += v.Monitor().CrossRackUtilization
		return s.oldCrRTS(v, u, m)
	case s.cfg.CARTS:
		t := s.oldBestReducer(v, u, m, false, nil)
		if !t.IsZero() {
			s.stats.CARTS++
			j := s.byJob[t.Job()]
			if caCategory(j, v.RackOf(m)) < 3 {
				s.stats.CARTSUnder++
			}
			if f := s.oldFirstReducer(u, m); !f.IsZero() && f.Job() != t.Job() {
				s.stats.CARTSMoved++
				s.jobStats(j).CARTSMoved++
				s.jobStats(s.byJob[f.Job()]).CARTSDisplaced++
			}
		}
		return t
	}
	return s.oldFirstReducer(u, m)
}

// crRTS is Algorithm 4 for user u: below D^r skips it launches a reducer of
// a shuffle-light job (resetting its counter) or is skipped, its heavier
// jobs' reducers marked delayed; at D^r it launches any reducer, lighter
// jobs first.
func (s *Scheduler) oldCrRTS(v sched.View, u *user, m int) sched.Task {
	if u.reduceSkip >= s.cfg.ReduceSkips {
		t := s.oldBestReducer(v, u, m, true, nil)
		if !t.IsZero() {
			s.stats.CRRTS++
			s.stats.CRRTSForced++
		}
		return t
	}
	if t := s.oldBestReducer(v, u, m, true, isLight); !t.IsZero() {
		u.reduceSkip = 0
		s.stats.CRRTS++
		s.stats.CRRTSLight++
		return t
	}
	skipped := false
	for j := range u.allJobs() {
		if j.tasks.WaitingReduces > 0 && j.class != Light && s.mayStartReducer(j) {
			j.delayed = true
			skipped = true
			s.jobStats(j).CRDelayed++
		}
	}
	if skipped {
		u.reduceSkip++
		s.stats.CRRTSSkipped++
	}
	return sched.Task{}
}

// firstReducer is reduce scheduling without CA-RTS (the MTS-only
// ablation): the user's jobs in arrival order.
func (s *Scheduler) oldFirstReducer(u *user, m int) sched.Task {
	for j := range u.allJobs() {
		if j.tasks.WaitingReduces > 0 && s.mayStartReducer(j) {
			if t := reduceTask(j, m); !t.IsZero() {
				return t
			}
		}
	}
	return sched.Task{}
}
