package corral

import (
	"fmt"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

// Scheduler is Corral: an offline plan of the recurring jobs onto rack
// sets, carried out by the same real-time pieces as JobPacker (package
// rackplan) without JobPacker's aggregation, per-rack quotas or
// slow-start.
type Scheduler struct {
	cfg    Config
	plan   *rackplan.Plan
	follow *rackplan.Follower
	adhoc  *rackplan.Adhoc
	batch  bool
	racks  map[string][]int
}

// New builds Corral with c; the plan is made when the engine calls Plan.
func New(c Config) *Scheduler { return &Scheduler{cfg: c} }

// Plan runs the planner on the recurring jobs' forecasts (the others are
// ad-hoc).
func (s *Scheduler) Plan(v sched.View, fc []sched.Forecast) error {
	c := cluster{racks: v.Racks(), up: s.cfg.EPS}
	total := 0
	for r := range v.Racks() {
		ms := v.RackMachines(r)
		c.machines = max(c.machines, len(ms))
		slots := 0
		for _, m := range ms {
			slots += v.Machine(m).Slots()
			c.nic = max(c.nic, v.Machine(m).NIC())
		}
		c.slots = max(c.slots, slots)
		total += slots
	}
	if total == 0 {
		return fmt.Errorf("the cluster has no slots")
	}
	var jobs []job
	for i, f := range fc {
		if f.Recurring {
			jobs = append(jobs, jobOf(f, i))
		}
	}
	s.batch = s.cfg.Mode == "batch"
	if s.cfg.Mode == "auto" {
		s.batch = true
		for _, j := range jobs {
			s.batch = s.batch && j.arrival == jobs[0].arrival
		}
	}
	r, sch := c.provision(jobs, s.batch, s.cfg.MaxSteps)
	_ = r
	s.plan = rackPlan(v.Racks(), jobs, sch)
	s.follow = rackplan.NewFollower(s.plan, total, s.cfg.Rampup)
	var err error
	s.adhoc, err = rackplan.NewAdhoc(0)
	return err
}

// Heartbeats: a planned job's reducers held by the ramp-up limit become
// placeable when a map starts elsewhere, which offers no machine of their
// racks; heartbeats offer the free containers again.
func (s *Scheduler) Heartbeats() bool { return true }

// Offer: the rack's planned jobs in plan order, then ad-hoc jobs by Fair,
// then (with spill) any planned job.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) {
	if s.follow == nil {
		return
	}
	if s.follow.Offer(v, m, p) || s.adhoc.Offer(v, m, p, false) {
		return
	}
	if s.cfg.Spill {
		s.follow.OfferSpill(v, m, p)
	}
}

// Observe keeps the follower and the ad-hoc Fair scheduler current.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if s.follow == nil {
		return
	}
	if s.follow.Planned(e.Job.ID()) != nil {
		s.follow.Observe(e)
		return
	}
	s.adhoc.Observe(v, e, p)
}

// PlaceInput puts one replica of each split of a planned job on its racks.
func (s *Scheduler) PlaceInput(v sched.View, in sched.InputSplit) []int {
	if s.plan == nil {
		return nil
	}
	return rackplan.PlaceReplicas(v, in, s.plan.Input[in.Job.ID])
}

// Err reports the ad-hoc Fair scheduler's first error.
func (s *Scheduler) Err() error {
	if s.adhoc == nil {
		return nil
	}
	return s.adhoc.Err()
}

// RackPlan is the plan being followed.
func (s *Scheduler) RackPlan() *rackplan.Plan { return s.plan }
