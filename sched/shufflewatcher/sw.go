package shufflewatcher

import (
	"math"
	"slices"
	"sort"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/fairlist"
	"github.com/netsched/netsched/sched/internal/locate"
	"github.com/netsched/netsched/sched/internal/mapreduce"
	"github.com/netsched/netsched/sched/queue"
)

func init() {
	sched.Register(sched.Define("sw-delay",
		"ShuffleWatcher over delay scheduling (NAS's SW-delay baseline, Dawn's ShuffleWatcher); a documented reconstruction: "+
			"thresholds and the workflow/Tez extensions are ours, see docs/reproductions/nas.md and dawn.md",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}

// Scheduler is sw-delay. Build it with New or by name.
type Scheduler struct {
	cfg   Config
	order fairlist.List[*job] // active jobs, fair order
	byJob map[sched.Job]*job
	slots int // containers in the cluster
	// rampup is the reduce ramp-up limit at 0.5, MR's default and nas's.
	rampup    mapreduce.Rampup
	deferring bool
	stats     Stats
}

// Stats are counters of one run.
type Stats struct {
	Deferrals int // reducer offers passed over because of deferral
	RackSets  int // heavy jobs given a preferred rack set
}

// New builds sw-delay.
func New(c Config) *Scheduler { return &Scheduler{cfg: c, byJob: map[sched.Job]*job{}} }

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// Init resolves the cluster-dependent defaults.
func (s *Scheduler) Init(v sched.View) error {
	for m := range v.NumMachines() {
		s.slots += v.Machine(m).Slots()
	}
	s.rampup = mapreduce.Rampup{Limit: 0.5, Slots: s.slots}
	if s.cfg.Skips < 0 {
		s.cfg.Skips = queue.DefaultSkips(v.NumMachines()) // as the delay scheduler
	}
	return nil
}

// Heartbeats: skip counts grow with opportunities.
func (s *Scheduler) Heartbeats() bool { return true }

// Offer walks jobs in fair order; each tries its reducers (unless deferred
// or its rack share is reached), then its maps under delay scheduling and
// its preferred rack set.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) {
	switch u := v.Monitor().CrossRackUtilization; {
	case u > s.cfg.DeferAbove:
		s.deferring = true
	case u < s.cfg.ResumeBelow:
		s.deferring = false
	}
	for j := range s.order.All() {
		if j.tasks.WaitingMaps+j.tasks.WaitingReduces == 0 {
			continue
		}
		if t := s.reducer(v, j, m); !t.IsZero() {
			p.Place(t, m)
			return
		}
		if t := s.mapTask(v, j, m); !t.IsZero() {
			p.Place(t, m)
			return
		}
	}
}

// deferred is idea 1: hold a shuffle-heavy job's reducers while the core is
// busy, within the fairness guard and the longest deferral.
func (s *Scheduler) deferred(v sched.View, j *job) bool {
	if !s.deferring || !j.heavy {
		j.deferredSince = -1
		return false
	}
	if j.deferredSince < 0 {
		j.deferredSince = v.Now()
	}
	fair := float64(s.slots) / float64(s.order.Len())
	if v.Now()-j.deferredSince >= s.cfg.MaxDefer || float64(j.Running) < (1-s.cfg.FairSlack)*fair {
		return false
	}
	s.stats.Deferrals++
	return true
}

// reducer is ideas 1 and 3: a waiting reducer of j for machine m, unless
// deferred, or unless m's rack already holds its share of the reducers of
// every stage with waiting ones and j has not yet been skipped D times.
// The first stage under its share here goes first (a MapReduce job has
// one reduce stage; a Tez job's later stages each follow their parents).
func (s *Scheduler) reducer(v sched.View, j *job, m int) sched.Task {
	if j.tasks.WaitingReduces == 0 || !s.rampup.MayStartReducer(&j.tasks) || s.deferred(v, j) {
		return sched.Task{}
	}
	r := v.RackOf(m)
	under := false
	for _, st := range j.reduces {
		if st.WaitingCount() > 0 && j.started(v, st)[r] < j.reduceShare(st, r) {
			under = true
			if t := st.NextWaiting(m); !t.IsZero() {
				j.reduceSkips = 0
				return t
			}
		}
	}
	if !under && j.reduceSkips < s.cfg.Skips {
		j.reduceSkips++
		return sched.Task{}
	}
	if t := locate.First(j.reduces, m); !t.IsZero() {
		j.reduceSkips = 0
		return t
	}
	return sched.Task{}
}

// mapTask is delay scheduling with idea 2: a node-local map (or, for a
// heavy job inside its rack set, a rack-local one) launches at once and
// resets the skip count; otherwise the job is skipped until it was skipped
// D times, then any map launches, the most local first.
func (s *Scheduler) mapTask(v sched.View, j *job, m int) sched.Task {
	if j.tasks.WaitingMaps == 0 {
		return sched.Task{}
	}
	r := v.RackOf(m)
	for _, st := range j.maps {
		// The rack set is chosen from where the input is: maps that read
		// neither file splits nor parent jobs' outputs have no preference
		// and are not held to it.
		if st.WaitingCount() == 0 || j.heavy && located(st) && !s.rackSet(v, j)[r] {
			continue
		}
		t := locate.Local(st, m)
		if t.IsZero() && j.heavy && st.HasFileInput() {
			t = st.RackLocalWaiting(r) // inside the rack set, rack-local is local enough
		}
		if !t.IsZero() {
			j.skips = 0
			return t
		}
	}
	if j.skips < s.cfg.Skips {
		j.skips++
		return sched.Task{}
	}
	for _, st := range j.maps {
		if st.WaitingCount() == 0 {
			continue
		}
		if t := locate.Nearest(v, st, m); !t.IsZero() {
			return t
		}
	}
	return sched.Task{}
}

// located reports a map stage whose input sits somewhere: file splits, or
// the outputs of the job's parent jobs (a workflow).
func located(st sched.Stage) bool { return st.HasFileInput() || st.ReadsJobParents() }

// rackSet is a heavy job's preferred racks, chosen at its first map offer:
// the k racks holding most of its splits' replicas, k the fewest racks whose
// containers hold the job's fair share (at most its maps). A job of a
// workflow whose maps read no file splits ranks racks by the bytes of its
// parent jobs' outputs there instead (an extension for Dawn's workloads:
// the parents' reducers wrote them, one copy each).
func (s *Scheduler) rackSet(v sched.View, j *job) []bool {
	if j.rackSet != nil {
		return j.rackSet
	}
	racks := v.Racks()
	maps := 0
	count := make([]int, racks)
	seen := make([]bool, racks)
	for _, st := range j.maps {
		maps += st.NumTasks()
		for _, t := range st.Tasks() {
			clear(seen)
			for _, rep := range t.Replicas() {
				if r := v.RackOf(rep); !seen[r] {
					seen[r] = true
					count[r]++
				}
			}
		}
	}
	var bytes []float64
	if slices.Max(count) == 0 && len(j.sj.ParentJobs()) > 0 {
		bytes = make([]float64, racks)
		for _, id := range j.sj.ParentJobs() {
			if out, ok := v.Output(id); ok {
				for r, b := range out.ByRack {
					bytes[r] += b
				}
			}
		}
	}
	perRack := float64(s.slots) / float64(racks)
	share := math.Min(float64(maps), math.Max(1, float64(s.slots)/float64(s.order.Len())))
	k := min(racks, max(1, int(math.Ceil(share/perRack))))
	ids := make([]int, racks)
	for i := range ids {
		ids[i] = i
	}
	if bytes != nil {
		sort.SliceStable(ids, func(a, b int) bool { return bytes[ids[a]] > bytes[ids[b]] })
	} else {
		sort.SliceStable(ids, func(a, b int) bool { return count[ids[a]] > count[ids[b]] })
	}
	j.rackSet = make([]bool, racks)
	for _, r := range ids[:k] {
		j.rackSet[r] = true
	}
	s.stats.RackSets++
	return j.rackSet
}
