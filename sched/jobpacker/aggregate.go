package jobpacker

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// aggregator is JobPacker's shuffle data aggregation (§4.2). The reducers
// of a planned shuffle-heavy job do not fetch as map outputs appear: the
// engine holds their transfers (FetchGater), and they are released per
// (source rack s, reduce rack d) as one aggregated transfer
// (Plan.ReleaseRackTogether over the job's reducers on d holding bytes
// from s) once
//
//   - the bytes held for that pair reach the elephant threshold, or
//   - no more will come: s runs no map of the job and will run none (every
//     map started, or s's planned maps all started), and no more reducers
//     of the job can join on d (none waiting, d's planned reducers all
//     started, reducers may not start now, or every container of d is held
//     by a task in its input phase, so none can free up for a joiner).
//
// Each released flow carries the group's total as its aggregate, so the
// OCS treats the group as one elephant when the total reaches the
// threshold (docs/network.md: demand per rack pair; the flows move to a
// circuit when the matching gives the pair one). Bytes from a reducer's
// own rack are released at once: they never cross the core.
//
// Bytes are tracked from events rather than by reading every reducer's
// fetches on every map completion: when a map on rack s finishes, each
// running reducer on another machine receives its partition of the map's
// estimated output (its share of the reduce stage's total share); the
// engine then calls FetchesReady for each of them, and the pair (s, d) is
// decided once every reducer on d has been told. A reducer's first call
// (as it starts, holding the outputs of maps that finished before) reads
// its fetches once.
//
// Every change that can make a held group releasable re-decides it, since
// nothing else would: a map starting or finishing (a source rack done), a
// reducer starting (its rack's quota reached, none left waiting), any task
// starting on a rack (its containers all held). A group that waited for a
// condition no event re-checks would hold its reducers forever.
type aggregator struct {
	stats  AggregationStats
	s      *Scheduler
	racks  int
	jobs   map[string]*aggJob
	active []*aggJob // jobs with bytes held in some group, in arrival order
}

type aggJob struct {
	job         sched.Job
	plan        *PlannedJob
	share       map[int]float64 // reduce stage index -> total share of its tasks
	runMaps     []int           // running maps per rack
	startedMaps []int           // maps started per rack
	startedReds []int           // reducers started per rack
	reducers    map[sched.Task]*reducer
	groups      []*group // by source rack x racks + reduce rack; nil when nothing is held
	held        int      // groups that are not nil
	mapsOut     int      // maps finished with output
	cur         mapDone
	active      bool // in aggregator.active
}

// AggregationStats counts the aggregated transfers released, by the
// estimated bytes held when each was released.
type AggregationStats struct {
	Groups, Elephants    int     // transfers released; those at or above the threshold
	Bytes, ElephantBytes float64 // their bytes
}

type reducer struct {
	rack  int
	share float64 // its share of the stage's output
	fresh bool    // started, first FetchesReady not seen yet
	in    []bool  // member of the group from each source rack
}

type group struct {
	bytes   float64
	members []sched.Task
}

// mapDone is the map completion being delivered to the reducers.
type mapDone struct {
	machine, rack int
	out           float64
	pending       []int // reducers per rack still to be told
}

func newAggregator(s *Scheduler, racks int) *aggregator {
	return &aggregator{s: s, racks: racks, jobs: map[string]*aggJob{}}
}

// gates reports whether t's fetches are held: a reducer of a planned
// shuffle-heavy job, with aggregation on.
func (a *aggregator) gates(t sched.Task) bool {
	if !a.s.cfg.Aggregate || mapreduce.IsMap(t.Stage()) {
		return false
	}
	_, ok := a.jobs[t.Job().ID()]
	return ok
}

// observe follows a planned shuffle-heavy job's maps and reducers, and
// re-decides held groups when something changed the conditions.
func (a *aggregator) observe(v sched.View, e sched.Event, p *sched.Plan, pj *PlannedJob) {
	if e.Kind == sched.TaskStarted {
		// A container taken on rack d may leave no room for more reducers.
		d := v.RackOf(e.Task.Machine())
		for _, aj := range append([]*aggJob(nil), a.active...) {
			if aj.job != e.Job {
				a.decideTo(v, aj, d, p)
			}
		}
	}
	if !a.s.cfg.Aggregate || pj == nil || !pj.Heavy {
		return
	}
	aj := a.jobs[e.Job.ID()]
	switch e.Kind {
	case sched.JobArrived:
		aj = &aggJob{job: e.Job, plan: pj, share: map[int]float64{}, runMaps: make([]int, a.racks), startedMaps: make([]int, a.racks),
			startedReds: make([]int, a.racks), reducers: map[sched.Task]*reducer{}, groups: make([]*group, a.racks*a.racks)}
		for _, st := range e.Job.Stages() {
			for _, t := range st.Tasks() {
				aj.share[st.Index()] += t.Share()
			}
		}
		a.jobs[e.Job.ID()] = aj
	case sched.TaskStarted:
		r := v.RackOf(e.Task.Machine())
		if mapreduce.IsMap(e.Stage) {
			aj.runMaps[r]++
			aj.startedMaps[r]++
			a.decideAll(v, aj, p, -1) // a rack may now be done
			return
		}
		aj.startedReds[r]++
		sh := 0.0
		if tot := aj.share[e.Stage.Index()]; tot > 0 {
			sh = e.Task.Share() / tot
		}
		aj.reducers[e.Task] = &reducer{rack: r, share: sh, fresh: true, in: make([]bool, a.racks)}
		// One more reducer started: on other racks no more may be able to
		// join (none waiting any more). Its own rack is decided when its
		// held bytes join (FetchesReady) or, if no map has written
		// anything yet, now.
		a.decideAll(v, aj, p, r)
		if aj.mapsOut == 0 {
			a.decideTo(v, aj, r, p)
		}
	case sched.TaskFinished:
		if !mapreduce.IsMap(e.Stage) {
			return
		}
		m := e.Task.Machine()
		r := v.RackOf(m)
		a.decideAll(v, aj, p, -1) // every earlier delivery is complete; this map still runs
		aj.runMaps[r]--
		aj.cur = mapDone{machine: m, rack: r, out: v.Estimate(e.Task).Output, pending: make([]int, a.racks)}
		if aj.cur.out > 0 {
			aj.mapsOut++
		}
		for t, red := range aj.reducers {
			red.fresh = false // nothing was held at its start, or its first call came
			if aj.cur.out > 0 && red.share > 0 && t.Machine() != m {
				aj.cur.pending[red.rack]++
			}
		}
		for d, n := range aj.cur.pending {
			if n == 0 {
				a.decide(v, aj, r, d, p) // nothing more for (r, d) from this map
			}
		}
	case sched.InputDone:
		delete(aj.reducers, e.Task)
	case sched.JobFinished:
		delete(a.jobs, e.Job.ID())
		a.setActive(aj, false)
	}
}

// ready handles the engine's FetchesReady for reducer t.
func (a *aggregator) ready(v sched.View, t sched.Task, p *sched.Plan) {
	aj := a.jobs[t.Job().ID()]
	if aj == nil {
		return
	}
	red := aj.reducers[t]
	if red == nil {
		return
	}
	d := red.rack
	if red.fresh {
		red.fresh = false
		held := make([]float64, a.racks)
		for _, f := range v.Fetches(t) {
			if f.Held {
				held[f.Rack] += f.Bytes
			}
		}
		if held[d] > 0 && p.ReleaseRack(t, d) != nil {
			return
		}
		for s, b := range held {
			if s != d && b > 0 {
				a.join(aj, red, t, s, b)
			}
		}
		a.decideTo(v, aj, d, p)
		return
	}
	c := &aj.cur
	if t.Machine() == c.machine || c.out <= 0 || red.share <= 0 {
		return // a node-local output: nothing new is held (other bytes are)
	}
	if c.rack == d {
		if p.ReleaseFetch(t, c.machine) != nil {
			return
		}
	} else {
		a.join(aj, red, t, c.rack, c.out*red.share)
	}
	c.pending[d]--
	if c.pending[d] <= 0 && c.rack != d {
		a.decide(v, aj, c.rack, d, p)
	}
}

// join adds b bytes of reducer t from rack s to its group.
func (a *aggregator) join(aj *aggJob, red *reducer, t sched.Task, s int, b float64) {
	g := aj.groups[s*a.racks+red.rack]
	if g == nil {
		g = &group{}
		aj.groups[s*a.racks+red.rack] = g
		aj.held++
	}
	g.bytes += b
	if !red.in[s] {
		red.in[s] = true
		g.members = append(g.members, t)
	}
	a.setActive(aj, true)
}

// setActive keeps a.active, ordered by job arrival, in step with aj.active.
func (a *aggregator) setActive(aj *aggJob, on bool) {
	if aj.active == on {
		return
	}
	aj.active = on
	if !on {
		for i, x := range a.active {
			if x == aj {
				a.active = append(a.active[:i], a.active[i+1:]...)
				break
			}
		}
		return
	}
	i := len(a.active)
	for i > 0 && a.active[i-1].job.Seq() > aj.job.Seq() {
		i--
	}
	a.active = append(a.active, nil)
	copy(a.active[i+1:], a.active[i:])
	a.active[i] = aj
}

// decideAll decides every group of the job, except those into rack skip.
func (a *aggregator) decideAll(v sched.View, aj *aggJob, p *sched.Plan, skip int) {
	for k, g := range aj.groups {
		if aj.held == 0 {
			return
		}
		if g != nil && k%a.racks != skip {
			a.decide(v, aj, k/a.racks, k%a.racks, p)
		}
	}
}

// decideTo decides the job's groups into rack d.
func (a *aggregator) decideTo(v sched.View, aj *aggJob, d int, p *sched.Plan) {
	for s := range a.racks {
		if aj.groups[s*a.racks+d] != nil {
			a.decide(v, aj, s, d, p)
		}
	}
}

// decide releases group (s, d) when it reached the threshold or can grow
// no more.
func (a *aggregator) decide(v sched.View, aj *aggJob, s, d int, p *sched.Plan) {
	g := aj.groups[s*a.racks+d]
	if g == nil {
		return
	}
	if g.bytes < a.s.cfg.Elephant && !(a.rackDone(aj, s) && a.noJoiners(v, aj, d)) {
		return
	}
	// Every member holds bytes from s: it joined with bytes the engine
	// reported held, and only this release takes them. Check mode
	// verifies it against the engine's fetches (which costs a scan of
	// each member's sources).
	members := g.members
	if v.Checking() {
		members = members[:0]
		for _, t := range g.members {
			if holdsFrom(v, t, s) {
				members = append(members, t)
			}
		}
	}
	for _, t := range g.members {
		if red := aj.reducers[t]; red != nil {
			red.in[s] = false
		}
	}
	aj.groups[s*a.racks+d] = nil
	if aj.held--; aj.held == 0 {
		a.setActive(aj, false)
	}
	if len(members) > 0 && p.ReleaseRackTogether(members, s) == nil {
		a.stats.Groups++
		a.stats.Bytes += g.bytes
		if g.bytes >= a.s.cfg.Elephant {
			a.stats.Elephants++
			a.stats.ElephantBytes += g.bytes
		}
	}
}

func holdsFrom(v sched.View, t sched.Task, s int) bool {
	if t.Phase() != sched.InInput {
		return false
	}
	for _, f := range v.Fetches(t) {
		if f.Held && f.Rack == s {
			return true
		}
	}
	return false
}

// rackDone: rack s runs no map of the job and will run none.
func (a *aggregator) rackDone(aj *aggJob, s int) bool {
	if aj.runMaps[s] > 0 {
		return false
	}
	if q := aj.plan.MapQuota[s]; q > 0 && aj.startedMaps[s] >= q {
		return true
	}
	for _, st := range aj.job.Stages() {
		if mapreduce.IsMap(st) && st.Started() < st.NumTasks() {
			return false
		}
	}
	return true
}

// noJoiners: no more reducers of the job can join on rack d: none is
// waiting, d's planned reducers have all started, reducers may not start
// now, or every container of d is held by a task in its input phase (no
// container will free up for a joiner unless something is released: the
// guard against holding forever).
func (a *aggregator) noJoiners(v sched.View, aj *aggJob, d int) bool {
	waiting := 0
	for _, st := range aj.job.Stages() {
		if !mapreduce.IsMap(st) {
			waiting += st.WaitingCount()
		}
	}
	if waiting == 0 {
		return true
	}
	if q := aj.plan.RedQuota[d]; q > 0 && aj.startedReds[d] >= q {
		return true
	}
	if j := a.s.follow.Planned(aj.job.ID()); j != nil && !a.s.follow.MayReduce(v, j) {
		return true
	}
	for _, m := range v.RackMachines(d) {
		if mc := v.Machine(m); mc.InputPhase() < mc.Slots() {
			return false
		}
	}
	return true
}
