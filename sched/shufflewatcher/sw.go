package shufflewatcher

import (
	"math"
	"sort"

	"github.com/netsched/netsched/sim"
)

func init() {
	sim.Register(sim.Info{
		Name: "sw-delay",
		Description: "ShuffleWatcher over delay scheduling (NAS's SW-delay baseline); a documented reconstruction: " +
			"thresholds are ours, see docs/reproductions/nas.md",
		Params: paramInfo,
		New: func(p *sim.Params) (sim.Scheduler, error) {
			return New(configFrom(p)), nil
		},
	})
}

// Scheduler is sw-delay. Build it with New or by name.
type Scheduler struct {
	cfg       Config
	order     jobList // active jobs, fair order
	byJob     map[*sim.Job]*job
	slots     int // containers in the cluster
	early     int // running reducers of jobs with maps waiting
	deferring bool
	stats     Stats
}

// Stats are counters of one run.
type Stats struct {
	Deferrals int // reducer offers passed over because of deferral
	RackSets  int // heavy jobs given a preferred rack set
}

// New builds sw-delay.
func New(c Config) *Scheduler { return &Scheduler{cfg: c, byJob: map[*sim.Job]*job{}} }

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// Init resolves the cluster-dependent defaults.
func (s *Scheduler) Init(v *sim.View) error {
	for _, m := range v.Machines() {
		s.slots += m.Slots
	}
	if s.cfg.Skips < 0 {
		// baselines.md §3.3: D >= -(M/R) ln(N(1-λ)/(1+N(1-λ))) for λ = 0.95,
		// N = 20 tasks, R = 3 replicas, as the delay scheduler.
		x := 20 * (1 - 0.95)
		s.cfg.Skips = int(math.Ceil(-float64(len(v.Machines())) / 3 * math.Log(x/(1+x))))
	}
	return nil
}

// Heartbeats: skip counts grow with opportunities.
func (s *Scheduler) Heartbeats() bool { return true }

// Offer walks jobs in fair order; each tries its reducers (unless deferred
// or its rack share is reached), then its maps under delay scheduling and
// its preferred rack set.
func (s *Scheduler) Offer(v *sim.View, m int) *sim.Task {
	switch u := v.Monitor().CrossRackUtilization; {
	case u > s.cfg.DeferAbove:
		s.deferring = true
	case u < s.cfg.ResumeBelow:
		s.deferring = false
	}
	for _, j := range s.order {
		if j.waitingMaps+j.waitingReduces == 0 {
			continue
		}
		if t := s.reducer(v, j, m); t != nil {
			return t
		}
		if t := s.mapTask(v, j, m); t != nil {
			return t
		}
	}
	return nil
}

// deferred is idea 1: hold a shuffle-heavy job's reducers while the core is
// busy, within the fairness guard and the longest deferral.
func (s *Scheduler) deferred(v *sim.View, j *job) bool {
	if !s.deferring || !j.heavy {
		j.deferredSince = -1
		return false
	}
	if j.deferredSince < 0 {
		j.deferredSince = v.Now()
	}
	fair := float64(s.slots) / float64(len(s.order))
	if v.Now()-j.deferredSince >= s.cfg.MaxDefer || float64(j.running) < (1-s.cfg.FairSlack)*fair {
		return false
	}
	s.stats.Deferrals++
	return true
}

// reducer is ideas 1 and 3: a waiting reducer of j for machine m, unless
// deferred, or unless m's rack already holds its share of j's reducers and
// j has not yet been skipped D times.
func (s *Scheduler) reducer(v *sim.View, j *job, m int) *sim.Task {
	if j.waitingReduces == 0 || !s.rampup(j) || s.deferred(v, j) {
		return nil
	}
	if r := v.RackOf(m); j.rackRed[r] >= j.reduceShare(r) && j.reduceSkips < s.cfg.Skips {
		j.reduceSkips++
		return nil
	}
	for _, st := range j.reduces {
		if st.WaitingCount() > 0 {
			if t := st.NextWaiting(m); t != nil {
				j.reduceSkips = 0
				return t
			}
		}
	}
	return nil
}

// mapTask is delay scheduling with idea 2: a node-local map (or, for a
// heavy job inside its rack set, a rack-local one) launches at once and
// resets the skip count; otherwise the job is skipped until it was skipped
// D times, then any map launches, the most local first.
func (s *Scheduler) mapTask(v *sim.View, j *job, m int) *sim.Task {
	if j.waitingMaps == 0 {
		return nil
	}
	r := v.RackOf(m)
	for _, st := range j.maps {
		// The rack set is chosen from the splits' replicas: maps without
		// file input have no preference and are not held to it.
		if st.WaitingCount() == 0 || j.heavy && st.HasFileInput && !s.rackSet(v, j)[r] {
			continue
		}
		t := st.LocalWaiting(m)
		if t == nil && (!st.HasFileInput || j.heavy) {
			t = localEnough(st, m, r)
		}
		if t != nil {
			j.skips = 0
			return t
		}
	}
	if j.skips < s.cfg.Skips {
		j.skips++
		return nil
	}
	for _, st := range j.maps {
		if st.WaitingCount() == 0 {
			continue
		}
		if t := st.LocalWaiting(m); t != nil {
			return t
		}
		if t := localEnough(st, m, r); t != nil {
			return t
		}
		if t := st.NextWaiting(m); t != nil {
			return t
		}
	}
	return nil
}

// localEnough: a task without file input anywhere, else a rack-local one.
func localEnough(st *sim.Stage, m, r int) *sim.Task {
	if !st.HasFileInput {
		return st.NextWaiting(m)
	}
	return st.RackLocalWaiting(r)
}

// rackSet is a heavy job's preferred racks, chosen at its first map offer:
// the k racks holding most of its splits' replicas, k the fewest racks whose
// containers hold the job's fair share (at most its maps).
func (s *Scheduler) rackSet(v *sim.View, j *job) []bool {
	if j.rackSet != nil {
		return j.rackSet
	}
	racks := v.Racks()
	maps := 0
	count := make([]int, racks)
	seen := make([]bool, racks)
	for _, st := range j.maps {
		maps += len(st.Tasks)
		for _, t := range st.Tasks {
			clear(seen)
			for _, rep := range t.Replicas {
				if r := v.RackOf(rep); !seen[r] {
					seen[r] = true
					count[r]++
				}
			}
		}
	}
	perRack := float64(s.slots) / float64(racks)
	share := math.Min(float64(maps), math.Max(1, float64(s.slots)/float64(len(s.order))))
	k := min(racks, max(1, int(math.Ceil(share/perRack))))
	ids := make([]int, racks)
	for i := range ids {
		ids[i] = i
	}
	sort.SliceStable(ids, func(a, b int) bool { return count[ids[a]] > count[ids[b]] })
	j.rackSet = make([]bool, racks)
	for _, r := range ids[:k] {
		j.rackSet[r] = true
	}
	s.stats.RackSets++
	return j.rackSet
}

// rampup stands in for the MR application master's reduce ramp-up limit
// (0.5) and reduce preemption, which the engine does not model: while a
// job has maps waiting, its reducers hold at most half of its containers,
// and such early reducers at most half of the cluster, so reducers waiting
// for maps cannot take every slot (the same rule as nas).
func (s *Scheduler) rampup(j *job) bool {
	if j.waitingMaps == 0 {
		return true
	}
	return 2*(j.runReduces+1) <= j.runMaps+j.runReduces+1 && 2*(s.early+1) <= s.slots
}
