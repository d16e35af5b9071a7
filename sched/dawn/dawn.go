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

	// the decision index (index.go): Algorithm 1's order of the live
	// units per rack, the units with data on each machine, the units
	// with a pinned task in join order, and the live units' count
	idx       *index
	byMachine [][]*unit
	pins      []*unit
	nlive     int
	dirs      []int // the network states the order asks about
	anyRack   bool
	joined    int         // units joined so far (unit.ord)
	stamp     int         // decisions so far (unit.excluded)
	nleft     int         // left units still in units
	starve    []*skiplist // the starvation guard's order per rack, and for units preferring every rack

	// scratch: balance's movers; the reference decision's lists (tests)
	live   []*unit
	cands  []Candidate
	sub    []Candidate
	subIdx []int

	// count[r] is P_r, the preferences for rack r of the planned units in
	// units (one per unit and preferred rack), kept as plans change and
	// units leave (it was recounted per container).
	count []int
	// pinUnits counts the units in units whose stage has a pinned task;
	// while it is 0 no waiting task can be pinned to the offered machine.
	pinUnits int
	refCount []int // oldCount's scratch (tests)
}

// Test-only references, nil outside tests: the original
// per-container recount of P_r, scan of every live unit for a task pinned
// to the machine, and decision over a list of every live unit; and a
// check called with each unit the decision index picks.
var (
	referenceCount  func(s *Scheduler) []int
	referencePinned func(s *Scheduler, live []*unit, m int) (*unit, sched.Task)
	referenceDecide func(s *Scheduler, v sched.View, m int, p *sched.Plan) bool
	checkPick       func(s *Scheduler, rack, m int, saturated bool, u *unit)
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
	idx          *index // its live units (fair_users)
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

// Init sizes the per-rack counts and the per-machine lists and sets the
// directions the index keeps.
func (s *Scheduler) Init(v sched.View) error {
	s.count = make([]int, v.Racks())
	s.byMachine = make([][]*unit, v.NumMachines())
	s.anyRack = s.cfg.RackChoice == "any"
	switch s.cfg.Order {
	case "least-traffic":
		s.dirs = []int{0}
	case "most-traffic":
		s.dirs = []int{1}
	default:
		s.dirs = []int{0, 1}
	}
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
	if referenceDecide != nil {
		return referenceDecide(s, v, m, p)
	}
	if 2*s.nleft > len(s.units) {
		s.liveUnits(func(*unit) {}) // drop the left units, half of units
	}
	if s.nlive == 0 {
		return false
	}
	s.stamp++
	if u, t := s.pinned(m); u != nil {
		s.stats.Pinned++
		return s.place(v, u, t, m, p)
	}
	rack := v.RackOf(m)
	if u := s.starving(v, rack); u != nil {
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			s.stats.Starved++
			return s.place(v, u, t, m, p)
		}
	}
	if s.cfg.Balancing {
		s.balance(rack)
	}
	saturated := s.saturated(v)
	for {
		u := s.choose(rack, m, saturated)
		if checkPick != nil {
			checkPick(s, rack, m, saturated, u)
		}
		if u == nil {
			return false
		}
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			if saturated {
				s.stats.Saturated++
			}
			if u.role == output && rack == u.depRack && u.depRack != u.maxRack {
				s.stats.DepPlaced++
			}
			return s.place(v, u, t, m, p)
		}
		u.excluded = s.stamp // its waiting tasks are pinned elsewhere
	}
}

// choose is Algorithm 1 (Select) over every live unit, or, with user
// fairness, over the units of the first user in fair order that has one
// for the rack.
func (s *Scheduler) choose(rack, m int, saturated bool) *unit {
	if !s.cfg.FairUsers {
		return s.pick(s.idx, nil, rack, m, saturated)
	}
	for usr := range s.users.All() {
		if u := s.pick(usr.idx, usr, rack, m, saturated); u != nil {
			return u
		}
	}
	return nil
}

// pinned is the first live unit, in the order units joined, with a
// waiting task pinned to m, and that task.
func (s *Scheduler) pinned(m int) (*unit, sched.Task) {
	if s.pinUnits == 0 {
		return nil, sched.Task{}
	}
	keep := s.pins[:0]
	var found *unit
	var task sched.Task
	for _, u := range s.pins {
		if !u.hasPin {
			continue // left
		}
		keep = append(keep, u)
		if found != nil || !u.inIdx {
			continue
		}
		if t := u.st.NextWaiting(m); !t.IsZero() && t.Pin() == m {
			found, task = u, t
		}
	}
	clear(s.pins[len(keep):])
	s.pins = keep
	return found, task
}

func (s *Scheduler) place(v sched.View, u *unit, t sched.Task, m int, p *sched.Plan) bool {
	if p.Place(t, m) != nil {
		return false
	}
	s.stats.Decisions++
	s.served(u, v.Now())
	u.j.u.Running++ // now, not at TaskStarted: later machines of the same heartbeat see it
	s.users.Moved(u.j.u)
	if u.st.WaitingCount() == 0 {
		s.unindex(u)
	}
	return true
}

// liveUnits calls f for each live unit, in the order units joined, and
// drops the units that left.
func (s *Scheduler) liveUnits(f func(u *unit)) {
	keep := s.units[:0]
	for _, u := range s.units {
		if u.left {
			continue
		}
		keep = append(keep, u)
		if u.inIdx {
			f(u)
		}
	}
	clear(s.units[len(keep):])
	s.units = keep
	s.nleft = 0
}

// balance is Algorithm 3 for a container in rack: when the rack is
// preferred too little, one job of the hotspot rack that still has tasks
// to place also prefers it. P_r counts the planned stages that have not
// finished (a job whose tasks all run still prefers its racks), one per
// job and stage.
func (s *Scheduler) balance(rack int) {
	count := s.count
	if referenceCount != nil {
		count = referenceCount(s)
	}
	hot := Balance(count, rack, s.cfg.Balance)
	if hot < 0 {
		return
	}
	// mover's choice is a minimum over a total order: any visiting order
	// gives it
	s.live = s.live[:0]
	s.liveUnits(func(u *unit) {
		if u.prefers(hot) && !u.prefers(rack) {
			s.live = append(s.live, u)
		}
	})
	if k := mover(s.live, hot, rack); k >= 0 {
		s.extend(s.live[k], rack)
	}
}

// extend is Algorithm 3 giving u rack as an extra preferred rack.
func (s *Scheduler) extend(u *unit, rack int) {
	s.unindex(u)
	u.prefs = append(u.prefs, Preferred{Rack: rack, Traffic: u.traffic(rack)})
	if u.counted {
		s.count[rack]++
	}
	s.stats.Balances++
	s.index(u)
}

// join adds a new unit to units.
func (s *Scheduler) join(u *unit) {
	u.ord = s.joined
	s.joined++
	s.units = append(s.units, u)
	for _, t := range u.st.Tasks() {
		if t.Pin() >= 0 {
			u.hasPin = true
			s.pinUnits++
			s.pins = append(s.pins, u)
			break
		}
	}
}

// leave takes a finished unit's preferences and pins out of the counts and
// the unit out of the decision index; units drops it later.
func (s *Scheduler) leave(u *unit) {
	if u.left {
		return
	}
	s.uncount(u)
	s.unindex(u)
	u.left = true
	if u.hasPin {
		u.hasPin = false
		s.pinUnits--
	}
	s.nleft++
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
func (s *Scheduler) starving(v sched.View, rack int) *unit {
	if s.cfg.StarveAfter <= 0 {
		return nil
	}
	// the unit served longest ago is the only one that can have waited
	// longer than starve_after if any has
	if u := s.starveFirst(rack); u != nil && v.Now()-u.lastServed > s.cfg.StarveAfter {
		return u
	}
	return nil
}
