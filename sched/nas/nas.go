package nas

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

func init() {
	sched.Register(sched.Define("nas",
		"NAS (CCGrid'18): MTS per-node shuffle budget, CA-RTS rack-proportional reducers, CR-RTS light reducers under congestion",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}

// Scheduler is NAS. Build it with New (library use) or by name "nas".
type Scheduler struct {
	cfg   Config
	users userList
	jobs  []*job // active, arrival order; nil: finished (see dropJob)
	live  int    // active jobs
	byJob map[sched.Job]*job

	nodeOut []float64              // predicted shuffle of the maps running on each machine
	taskOut map[sched.Task]float64 // what each running map added to nodeOut

	perSlot      float64 // ΣS_i/ΣK_i; a node's TrafficThreshold is its containers times this
	thresholdSet bool
	hold         bool // CR-RTS asked MTS to hold heavy and medium maps

	total  mapreduce.Tasks  // every active job's tasks
	rampup mapreduce.Rampup // the reduce ramp-up limit; its Slots are the cluster's containers
	stats  Stats

	refused []*job // counters only: jobs whose local map the budget refused at this request
	// perJob turns on Stats.Jobs (CountPerJob); discard takes the per-job
	// counts while it is off.
	perJob  bool
	discard JobStats
	// SampleEvery's callback and period, and the time of the next sample.
	sample                  func(v sched.View, st Stats)
	sampleEvery, nextSample float64
	walk                    []int // leastOutput's stack, kept to save allocations
}

// Stats are counters of one run, for analysis and tests.
type Stats struct {
	CARTS, CRRTS int // reducers placed by each mechanism
	// FirstReduces jobs started a reducer; MapProgressSum adds their
	// MapProgressRate (completed maps / maps) at that moment (Fig. 3d).
	FirstReduces   int
	MapProgressSum float64
	// Samples ticks with active jobs; OverThresholdSum adds the share of
	// nodes whose running maps' predicted output exceeded TrafficThreshold
	// (Fig. 3e).
	Samples          int
	OverThresholdSum float64

	// MTS, per map request served for a user with maps MTS may start.
	// MapRequests counts them; BudgetChanged launched a data-local map
	// other than one a data-local map was refused for by the budget (the
	// budget changed the pick); BudgetSkipped found only over-budget
	// data-local maps and launched none of them (a skip or a non-local
	// map instead). MapSkipsCount counts skip-counter increments; AtMapSkips
	// maps launched at D^m (qualified, or least output); Held counts requests
	// where every waiting map of the user was held by CR-RTS.
	MapRequests, BudgetChanged, BudgetSkipped int
	MapSkipsCount, AtMapSkips, Held           int
	// CA-RTS: CARTSMoved reducers went to another job than the MTS-only
	// ablation (the user's first job in arrival order) would have taken;
	// CARTSUnder reducers were of a job under its ReduceNum on that rack.
	CARTSMoved, CARTSUnder int
	// CR-RTS: Activations counts reduce requests served while congested,
	// CongestionSum adds the smoothed cross-rack utilisation at each;
	// CRRTSLight reducers of light jobs launched, CRRTSSkipped requests
	// skipped the user (its heavier reducers marked delayed), CRRTSForced
	// reducers launched at D^r. HoldTicks counts ticks with the map hold on.
	Activations                           int
	CongestionSum                         float64
	CRRTSLight, CRRTSSkipped, CRRTSForced int
	HoldTicks                             int
	// Jobs has the per-job counters by job ID (jobs never touched are
	// absent), when CountPerJob turned them on.
	Jobs map[string]*JobStats
}

// JobStats are one job's counters: how often each mechanism changed what
// happened to it, and its class when it was last touched.
type JobStats struct {
	Class Class
	// BudgetRefused: MTS refused a data-local map of this job for the
	// budget; Held: its maps were held by CR-RTS at a request;
	// CARTSMoved: CA-RTS placed one of its reducers where the MTS-only
	// order would have placed another job's (or vice versa: CARTSDisplaced
	// counts the job the ablation would have served); CRDelayed: CR-RTS
	// skipped its reducer during congestion.
	BudgetRefused, Held, CARTSMoved, CARTSDisplaced, CRDelayed int
}

func (s *Scheduler) jobStats(j *job) *JobStats {
	if !s.perJob {
		return &s.discard
	}
	if s.stats.Jobs == nil {
		s.stats.Jobs = map[string]*JobStats{}
	}
	js := s.stats.Jobs[j.sj.ID()]
	if js == nil {
		js = &JobStats{}
		s.stats.Jobs[j.sj.ID()] = js
	}
	js.Class = j.class
	return js
}

// New builds NAS with the given configuration.
func New(c Config) *Scheduler {
	return &Scheduler{cfg: c, byJob: map[sched.Job]*job{}, taskOut: map[sched.Task]float64{},
		rampup: mapreduce.Rampup{Limit: c.ReduceRampup}}
}

// Init sizes the per-machine state.
func (s *Scheduler) Init(v sched.View) error {
	s.nodeOut = make([]float64, v.NumMachines())
	for m := range v.NumMachines() {
		s.rampup.Slots += v.Machine(m).Slots()
	}
	return nil
}

// Heartbeats: skip counters count scheduling opportunities, which must keep
// coming while slots stay free.
func (s *Scheduler) Heartbeats() bool { return true }

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// CountPerJob turns on Stats.Jobs, the per-job counters, before a run
// (cmd/nasstats). They are off by default: counting every refusal and hold
// per job makes a map request visit each job concerned, where the
// decision alone can stop at the first.
func (s *Scheduler) CountPerJob() { s.perJob = true }

// Threshold is machine m's current TrafficThreshold in bytes.
func (s *Scheduler) Threshold(v sched.View, m int) float64 {
	if !s.thresholdSet {
		s.recompute()
	}
	return s.budget(v, m)
}

// Offer is Algorithm 1 for a request from machine m. Users are visited in
// fairness order; for each, a request is first a reduce request (an MR
// application master asks for reducers before maps, baselines.md §0),
// served by CA-RTS, or by CR-RTS while the cross-rack network is congested,
// then a map request served by MTS. The first task found is launched.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) {
	if referenceOffer != nil {
		referenceOffer(s, v, m, p)
		return
	}
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
			if t := s.reduceFor(v, u, m, congested); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
		if u.tasks.WaitingMaps > 0 {
			if t := s.mapFor(v, u, m, avail); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
	}
}

// referenceOffer, set only by tests, replaces Offer with the original scan
// of every job (TestIndexesMatchReference).
var referenceOffer func(s *Scheduler, v sched.View, m int, p *sched.Plan)

// Prediction is what NAS currently believes about active job j: its map
// output/input ratio, whether it is predicted, its predicted shuffle bytes
// and class. ok is false for a job NAS does not track.
func (s *Scheduler) Prediction(j sched.Job) (ratio float64, predicted bool, shuffle float64, class Class, ok bool) {
	x := s.byJob[j]
	if x == nil {
		return 0, false, 0, Light, false
	}
	if s.cfg.KnownShuffle {
		return x.pred.Ratio(), true, x.shuffle, x.class, true
	}
	return x.pred.Ratio(), x.pred.Predicted(), x.shuffle, x.class, true
}
