package jobpacker

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/mapreduce"
	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

// Scheduler is JobPacker: an offline scheduler (Plan) that puts the
// recurring jobs on racks and a real-time scheduler (Offer and the other
// hooks) that carries the plan out.
type Scheduler struct {
	cfg     Config
	model   Model
	plan    *rackplan.Plan
	jobs    map[string]*PlannedJob // the planned (recurring) jobs
	follow  *rackplan.Follower
	adhoc   *rackplan.Adhoc
	agg     *aggregator
	heavyOn []int // running tasks of shuffle-heavy jobs, per rack
	batch   bool
}

// New builds JobPacker with c; the plan is made when the engine calls Plan.
func New(c Config) *Scheduler { return &Scheduler{cfg: c} }

// batchStream separates the sub-batch order's draws from other streams of
// the seed.
const batchStream = 0x10bbac

// Plan is the offline scheduler (§4.3): it profiles the recurring jobs
// (the ones a Forecast marks Recurring; the others are ad-hoc and not
// planned), orders them (batch: Tetris sub-batches sorted by width and
// latency; online: by predicted arrival) and schedules them one by one
// on the racks' container free times.
func (s *Scheduler) Plan(v sched.View, fc []sched.Forecast) error {
	cont := containersPerRack(v)
	total, racksUsed := 0, 0
	for _, c := range cont {
		total += c
		if c > 0 {
			racksUsed++
		}
	}
	if total == 0 {
		return fmt.Errorf("the cluster has no slots")
	}
	s.model = Model{Racks: racksUsed, Containers: total / racksUsed, OCS: s.cfg.OCS, EPS: s.cfg.EPS, Elephant: s.cfg.Elephant, Over: s.cfg.Over}
	var ps []Profile
	for i, f := range fc {
		if f.Recurring {
			ps = append(ps, ProfileOf(f, i))
		}
	}
	s.batch = s.cfg.Mode == "batch" || s.cfg.Mode == "auto" && sameArrival(ps)
	ordered, err := order(s.model, ps, s.batch, s.cfg.SubBatches, rand.New(rand.NewPCG(v.Seed(), batchStream)))
	if err != nil {
		return err
	}
	mg := &manager{model: s.model, racks: newRacks(cont)}
	s.jobs = map[string]*PlannedJob{}
	for _, p := range ordered {
		s.jobs[p.ID] = mg.schedule(p)
	}
	s.plan = mg.rackPlan()
	s.follow = rackplan.NewFollower(s.plan, total, s.cfg.Rampup)
	s.follow.Gate = s.slowStarted
	if s.adhoc, err = rackplan.NewAdhoc(s.cfg.HeavyInput); err != nil {
		return err
	}
	s.heavyOn = make([]int, v.Racks())
	s.agg = newAggregator(s, v.Racks())
	return nil
}

func sameArrival(ps []Profile) bool {
	for _, p := range ps {
		if p.Arrival != ps[0].Arrival {
			return false
		}
	}
	return true
}

// slowStarted emulates a higher reducer slow-start (§4.2): a planned job's
// reducers are not placed before SlowStart of its maps are done. (The
// slow-start of a stage is the workload's; a scheduler cannot change it,
// only refrain from placing the reducers it makes ready.)
func (s *Scheduler) slowStarted(v sched.View, j *rackplan.Job) bool {
	done, all := 0, 0
	for _, st := range j.Job.Stages() {
		if mapreduce.IsMap(st) {
			done += st.Finished()
			all += st.NumTasks()
		}
	}
	return float64(done) >= s.cfg.SlowStart*float64(all)
}

// Offer is the real-time scheduler (§4.4) on a free container of machine
// m: the first planned work of its rack's sequence; else an ad-hoc job by
// Fair, shuffle-heavy ones first unless a shuffle-heavy job already runs
// in the rack (sparsity); else more of the rack's planned jobs than their
// quotas.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) {
	if s.follow == nil {
		return // Plan was not called: nothing to follow
	}
	if s.follow.Offer(v, m, p) || s.adhoc.Offer(v, m, p, s.heavyOn[v.RackOf(m)] > 0) {
		return
	}
	s.follow.OfferOverQuota(v, m, p)
}

// Heartbeats: reducers held back by the emulated slow-start become
// placeable when a map finishes somewhere else, which offers no machine of
// the rack they are planned on; periodic heartbeats (YARN's, 1 s by
// default) offer the racks' free containers again.
func (s *Scheduler) Heartbeats() bool { return true }

// Observe keeps the follower, the ad-hoc Fair schedulers, the count of
// shuffle-heavy tasks per rack and the aggregation current.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if s.follow == nil {
		return
	}
	pj := s.jobs[e.Job.ID()]
	if pj != nil {
		s.follow.Observe(e)
	} else {
		s.adhoc.Observe(v, e, p)
	}
	if e.Kind == sched.TaskStarted || e.Kind == sched.TaskFinished {
		if pj != nil && pj.Heavy || pj == nil && s.adhoc.Heavy(e.Job) {
			d := 1
			if e.Kind == sched.TaskFinished {
				d = -1
			}
			s.heavyOn[v.RackOf(e.Task.Machine())] += d
		}
	}
	s.agg.observe(v, e, p, pj)
}

// PlaceInput puts one replica of each input split of a planned job on one
// of its map racks (§4.4); ad-hoc jobs keep the HDFS default.
func (s *Scheduler) PlaceInput(v sched.View, in sched.InputSplit) []int {
	if s.plan == nil {
		return nil
	}
	return rackplan.PlaceReplicas(v, in, s.plan.Input[in.Job.ID])
}

// GateFetches holds the fetches of a planned shuffle-heavy job's reducers
// (§4.2).
func (s *Scheduler) GateFetches(v sched.View, t sched.Task) bool { return s.agg.gates(t) }

// FetchesReady releases aggregated fetches (§4.2; see aggregate.go).
func (s *Scheduler) FetchesReady(v sched.View, t sched.Task, p *sched.Plan) { s.agg.ready(v, t, p) }

// Err reports the ad-hoc Fair schedulers' first error.
func (s *Scheduler) Err() error {
	if s.adhoc == nil {
		return nil
	}
	return s.adhoc.Err()
}

// Planned returns the plan of a recurring job (nil for an ad-hoc job).
func (s *Scheduler) Planned(id string) *PlannedJob { return s.jobs[id] }

// RackPlan is the plan the real-time scheduler follows.
func (s *Scheduler) RackPlan() *rackplan.Plan { return s.plan }

// Aggregation reports what the shuffle aggregation released so far.
func (s *Scheduler) Aggregation() AggregationStats {
	if s.agg == nil {
		return AggregationStats{}
	}
	return s.agg.stats
}

// Batch reports whether the plan was made for the batch scenario.
func (s *Scheduler) Batch() bool { return s.batch }
