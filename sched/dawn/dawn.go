package dawn

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/fairlist"
	"github.com/netsched/netsched/sched/internal/locate"
)

func init() {
	sched.Register(sched.Define("dawn",
		"Dawn (TPDS): dependency-aware online plan of preferred racks per job (max_map, max_reduce, dep_reduce), "+
			"network-adaptive job choice at each rack heartbeat, plan balancing",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}

// Scheduler is Dawn. Build it with New (library use) or by name "dawn".
type Scheduler struct {
	cfg     Config
	deps    *Graph
	jobs    map[sched.Job]*job
	byStage map[sched.Stage]*unit
	// units are the stages of active jobs that became ready and have not
	// finished, in the order they became ready: planned ones are what
	// Algorithm 3 counts and, while they have tasks to place, Algorithm 1's
	// candidates; the others wait for their parent stages to finish.
	units  []*unit
	users  fairlist.List[*user]
	byUser map[string]*user
	stats  Stats

	// scratch, reused by every decision
	live   []*unit
	cands  []Candidate
	sub    []Candidate
	subIdx []int

	// count[r] is P_r, the preferences for rack r of the planned units in
	// units (one per unit and preferred rack), kept as plans change and
	// units leave (issue #21: it was recounted per container).
	count []int
	// pinUnits counts the units in units whose stage has a pinned task;
	// while it is 0 no waiting task can be pinned to the offered machine.
	pinUnits int
	refCount []int // oldCount's scratch (tests)
}

// Test-only references (issue #21), nil outside tests: the original
// per-container recount of P_r and scan of every live unit for a task
// pinned to the machine.
var (
	referenceCount  func(s *Scheduler) []int
	referencePinned func(s *Scheduler, live []*unit, m int) (*unit, sched.Task)
)

// job is Dawn's view of an active job.
type job struct {
	sj  sched.Job
	seq int
	u   *user
}

// user is a user as the fairness guard orders them.
type user struct {
	fairlist.Key // Running: its tasks running; Seq: first appearance
	name         string
}

// Stats are counters of one run, for analysis and tests.
type Stats struct {
	Decisions int // containers given
	Saturated int // of which while the network was saturated
	Balances  int // Alg. 3 gave a hotspot job an extra rack
	DepPlans  int // final stages planned with dep_reduce != max_reduce
	DepPlaced int // tasks placed on such a dep_reduce rack
	Starved   int // containers given by the starvation guard
	Pinned    int // pinned tasks placed on their machine
}

// New builds Dawn with the given configuration.
func New(c Config) *Scheduler {
	return &Scheduler{cfg: c, deps: NewGraph(), jobs: map[sched.Job]*job{}, byStage: map[sched.Stage]*unit{}, byUser: map[string]*user{}}
}

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// Init sizes the per-rack scratch.
func (s *Scheduler) Init(v sched.View) error {
	s.count = make([]int, v.Racks())
	return nil
}

// RackHeartbeat is Algorithm 1 for a heartbeat of rack i: each machine of
// the rack with a free container is a heartbeat "indicating free
// resource" and gets one task (every free container with assign_multiple).
func (s *Scheduler) RackHeartbeat(v sched.View, rack int, p *sched.Plan) {
	for _, m := range v.RackMachines(rack) {
		for v.Machine(m).Free() > 0 && s.decide(v, m, p) && s.cfg.AssignMultiple {
		}
	}
}

// Offer decides for one machine, as one machine of a rack heartbeat (the
// engine calls RackHeartbeat instead; Offer serves library callers).
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) { s.decide(v, m, p) }

// saturated is Algorithm 1's NetworkSaturated: the network monitor's
// verdict (smoothed cross-rack utilisation at or above the scenario's
// monitor threshold), or a fixed answer for the ablations.
func (s *Scheduler) saturated(v sched.View) bool {
	switch s.cfg.Order {
	case "least-traffic":
		return true
	case "most-traffic":
		return false
	}
	return v.Monitor().Saturated
}

// decide gives machine m's free container to one task and reports whether
// it did: a task pinned to m first (pins are hard constraints that Dawn's
// racks do not override), then the starvation guard, then Algorithm 3
// and Algorithm 1.
func (s *Scheduler) decide(v sched.View, m int, p *sched.Plan) bool {
	live := s.candidates()
	if len(live) == 0 {
		return false
	}
	if referencePinned != nil {
		if u, t := referencePinned(s, live, m); u != nil {
			s.stats.Pinned++
			return s.place(v, u, t, m, p)
		}
	} else if s.pinUnits > 0 {
		for _, u := range live {
			if !u.hasPin {
				continue
			}
			if t := u.st.NextWaiting(m); !t.IsZero() && t.Pin() == m {
				s.stats.Pinned++
				return s.place(v, u, t, m, p)
			}
		}
	}
	rack := v.RackOf(m)
	if u := s.starving(v, live, rack); u != nil {
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			s.stats.Starved++
			return s.place(v, u, t, m, p)
		}
	}
	if s.cfg.Balancing {
		s.balance(s.units, live, rack)
	}
	saturated := s.saturated(v)
	cands := s.cands[:0]
	for _, u := range live {
		cands = append(cands, Candidate{Prefs: u.prefs, Node: max(0, u.total-u.node[m]), Seq: u.j.seq})
	}
	s.cands = cands
	for range cands {
		k := s.choose(live, cands, rack, saturated)
		if k < 0 {
			return false
		}
		u := live[k]
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			if saturated {
				s.stats.Saturated++
			}
			if u.role == output && rack == u.depRack && u.depRack != u.maxRack {
				s.stats.DepPlaced++
			}
			return s.place(v, u, t, m, p)
		}
		cands[k].Prefs = nil // its waiting tasks are pinned elsewhere
	}
	return false
}

// choose runs Algorithm 1 over every candidate, or, with user fairness,
// over the jobs of the first user in fair order that has one for the rack.
func (s *Scheduler) choose(live []*unit, cands []Candidate, rack int, saturated bool) int {
	anyRack := s.cfg.RackChoice == "any"
	if !s.cfg.FairUsers {
		return Select(cands, rack, saturated, anyRack)
	}
	for _, usr := range s.users.All() {
		s.sub, s.subIdx = s.sub[:0], s.subIdx[:0]
		for k, u := range live {
			if u.j.u == usr {
				s.sub = append(s.sub, cands[k])
				s.subIdx = append(s.subIdx, k)
			}
		}
		if k := Select(s.sub, rack, saturated, anyRack); k >= 0 {
			return s.subIdx[k]
		}
	}
	return -1
}

func (s *Scheduler) place(v sched.View, u *unit, t sched.Task, m int, p *sched.Plan) bool {
	if p.Place(t, m) != nil {
		return false
	}
	s.stats.Decisions++
	u.lastServed = v.Now()
	u.j.u.Running++ // now, not at TaskStarted: later machines of the same heartbeat see it
	s.users.Moved(u.j.u)
	return true
}

// candidates are the planned stages with tasks left to place, in the order
// their stages became ready; finished stages leave the list of units.
func (s *Scheduler) candidates() []*unit {
	keep := s.units[:0]
	live := s.live[:0]
	for _, u := range s.units {
		if u.st.Finished() >= u.st.NumTasks() {
			s.leave(u)
			continue
		}
		keep = append(keep, u)
		if u.planned && u.st.WaitingCount() > 0 {
			live = append(live, u)
		}
	}
	clear(s.units[len(keep):])
	s.units = keep
	s.live = live
	return live
}

// balance is Algorithm 3 for a container in rack: when the rack is
// preferred too little, one job of the hotspot rack that still has tasks
// to place also prefers it. P_r counts the planned stages that have not
// finished (a job whose tasks all run still prefers its racks), one per
// job and stage.
func (s *Scheduler) balance(units, live []*unit, rack int) {
	count := s.count
	if referenceCount != nil {
		count = referenceCount(s)
	}
	hot := Balance(count, rack, s.cfg.Balance)
	if hot < 0 {
		return
	}
	if k := mover(live, hot, rack); k >= 0 {
		u := live[k]
		u.prefs = append(u.prefs, Preferred{Rack: rack, Traffic: u.traffic(rack)})
		if u.counted {
			s.count[rack]++
		}
		s.stats.Balances++
	}
}

// join adds a new unit to units.
func (s *Scheduler) join(u *unit) {
	s.units = append(s.units, u)
	for _, t := range u.st.Tasks() {
		if t.Pin() >= 0 {
			u.hasPin = true
			s.pinUnits++
			break
		}
	}
}

// leave takes a finished unit's preferences and pins out of the counts as
// it leaves units.
func (s *Scheduler) leave(u *unit) {
	s.uncount(u)
	u.left = true
	if u.hasPin {
		u.hasPin = false
		s.pinUnits--
	}
}

// uncount removes u's preferences from P_r.
func (s *Scheduler) uncount(u *unit) {
	if !u.counted {
		return
	}
	for _, p := range u.prefs {
		s.count[p.Rack]--
	}
	u.counted = false
}

// recount adds u's (new) preferences to P_r while it is in units.
func (s *Scheduler) recount(u *unit) {
	if u.counted || u.left || !u.planned {
		return
	}
	for _, p := range u.prefs {
		s.count[p.Rack]++
	}
	u.counted = true
}

// starving is the starvation guard: the stage preferring rack that has
// gone longest without a container, if longer than starve_after.
func (s *Scheduler) starving(v sched.View, live []*unit, rack int) *unit {
	if s.cfg.StarveAfter <= 0 {
		return nil
	}
	var best *unit
	for _, u := range live {
		if v.Now()-u.lastServed > s.cfg.StarveAfter && u.prefers(rack) &&
			(best == nil || u.lastServed < best.lastServed || u.lastServed == best.lastServed && earlier(u, best)) {
			best = u
		}
	}
	return best
}
