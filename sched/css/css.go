package css

import (
	"fmt"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/css/cotask"
)

func init() {
	sched.Register(sched.Define("css",
		"CSS (cotask scheduling): per-host queues, STSP orders cotasks by minimum CCT (CCT-LP, rounding, aggregation), DTPA re-places tasks blocked by data",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}

// Scheduler is CSS. Build it with New (library use) or by name "css".
type Scheduler struct {
	cfg   Config
	opt   *cotask.Options
	lanes lanes

	// unit is the cotask (a unit of STSP) each ready, unfinished task
	// belongs to: its stage's, or a new one DTPA gave it. Ids grow in the
	// order units appear, which is STSP's tie order (older first).
	unit     map[sched.Task]int
	nextUnit int
	loose    []sched.Task        // ready tasks in no lane yet (new cotasks)
	moved    map[sched.Task]bool // re-placed by DTPA once already
	dirty    bool                // a new cotask waits for STSP

	// plannedCCT is each unit's completion time as the last plan
	// estimated it (absolute seconds): DTPA's C.ESTCT().
	plannedCCT map[int]float64

	stats Stats
	err   error

	// noAwaitGuard switches off replan's rule for awaited cotasks (tests
	// show what it prevents).
	noAwaitGuard bool
}

// Stats are counters of one run, for tests and analysis.
type Stats struct {
	Replans   int // STSP runs
	Units     int // cotasks placed by those runs, summed (a queued cotask counts at every run)
	MaxUnits  int // the most cotasks one STSP run placed
	MinCCTs   int // minimum-CCT evaluations
	LPSolves  int // CCT-LPs solved by those evaluations
	DTPAMoves int // tasks DTPA took out of a queue and re-placed
	Awaited   int // units placed first because a running task waited for them
	Starving  int // units placed first because they waited more than δ
}

// New builds CSS with the given configuration.
func New(c Config) *Scheduler {
	s := &Scheduler{cfg: c, unit: map[sched.Task]int{}, moved: map[sched.Task]bool{}, plannedCCT: map[int]float64{}}
	if c.Tolerance > 0 {
		s.opt = &cotask.Options{Tol: c.Tolerance}
	}
	return s
}

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// Err stops the run when a placement failed (sched.Failer).
func (s *Scheduler) Err() error { return s.err }

// Init builds the lanes: one per slot (see lane).
func (s *Scheduler) Init(v sched.View) error {
	s.lanes = newLanes(v)
	return nil
}

// Observe keeps the queues in step with the engine: a stage that becomes
// ready is a new cotask for STSP (it is placed at the next decision, before
// any queue is popped), and a finished task frees its lane.
func (s *Scheduler) Observe(v sched.View, e sched.Event, _ *sched.Plan) {
	switch e.Kind {
	case sched.StageReady:
		id := s.newUnit()
		for _, t := range e.Stage.Tasks() {
			if t.Phase() == sched.Waiting {
				s.unit[t] = id
				s.loose = append(s.loose, t)
			}
		}
		s.dirty = true
	case sched.TaskFinished:
		s.lanes.finished(e.Task)
		delete(s.unit, e.Task)
		delete(s.moved, e.Task)
	}
}

func (s *Scheduler) newUnit() int {
	s.nextUnit++
	return s.nextUnit
}

// Schedule runs at every instant with a freed slot or new waiting tasks:
// STSP re-plans if a cotask arrived, every free lane starts the head of
// its queue, and DTPA checks the lanes whose task waits for data.
func (s *Scheduler) Schedule(v sched.View, _ sched.Opportunity, p *sched.Plan) { s.decide(v, p, -1) }

// Offer is used only on heartbeats (offers: heartbeat): the same as
// Schedule for machine m, one task at a time.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) { s.decide(v, p, m) }

// decide re-plans when needed, pops free lanes (all, or machine only's
// first when only >= 0) and runs DTPA until it moves nothing more. Every
// DTPA move is one task taken out of a queue for good (moved), so the loop
// ends.
func (s *Scheduler) decide(v sched.View, p *sched.Plan, only int) {
	for s.err == nil {
		if s.dirty {
			if s.err = s.replan(v); s.err != nil {
				return
			}
		}
		s.pop(v, p, only)
		if s.err != nil || !s.cfg.DTPA || only >= 0 || !s.dtpa(v) {
			return
		}
	}
}

// pop starts the head of every free lane (§III-A: "if there is a host
// becomes idle, the first task in its corresponding queue will be popped
// out"). Running tasks are never moved: a lane with a task is not free.
func (s *Scheduler) pop(v sched.View, p *sched.Plan, only int) {
	for k := range s.lanes.all {
		l := &s.lanes.all[k]
		if !l.running.IsZero() || len(l.queue) == 0 || only >= 0 && l.machine != only {
			continue
		}
		if v.Machine(l.machine).Free() == 0 {
			s.err = fmt.Errorf("css: lane %d of machine %d is free but the machine has no free slot", k, l.machine)
			return
		}
		t := s.lanes.pop(k)
		if err := p.Place(t, l.machine); err != nil {
			s.err = fmt.Errorf("css: %w", err)
			return
		}
		if only >= 0 {
			return
		}
	}
}
