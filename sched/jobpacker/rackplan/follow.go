package rackplan

import (
	"sort"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// Follower carries out a Plan (JobPacker §4.4: "when a rack has a container
// available, the real-time scheduler tries to follow the offline schedule
// ... selects a map/reduce task of the first job in the sequence").
//
// The plan is followed in order but without idling: an offered machine
// takes a task of the first entry of its rack's sequence that has one that
// may start now. An entry whose job has not arrived yet, or whose reducers
// may not start yet, is passed over for now and keeps its place, so a late
// job does not hold its rack empty; an entry whose quota is used up, whose
// tasks have all started or whose job finished is done for good.
//
// Reducers of planned jobs obey the MR application master's reduce
// ramp-up limit (mapreduce.Rampup, as nas and sw-delay do): while a job
// has maps waiting, its reducers hold at most half of its containers and
// all such early reducers at most half of the cluster, so that reducers
// waiting for maps never hold every slot the maps need. Gate, when set,
// adds the planner's own condition (JobPacker's slow-start).
type Follower struct {
	plan  *Plan
	seq   [][]*slot // by rack, the plan's entries with their state
	head  []int     // per rack: entries before it are done for good
	jobs  map[string]*Job
	order []*Job // planned jobs by their earliest planned start
	ramp  mapreduce.Rampup
	Gate  func(v sched.View, j *Job) bool
	racks int
}

// slot is an entry and the tasks placed for it.
type slot struct {
	Entry
	job  *Job
	used int
}

// Job is the follower's state of a planned job.
type Job struct {
	ID    string
	Job   sched.Job // zero before it arrives
	Tasks mapreduce.Tasks
	done  bool
	// primary lists each machine's map tasks whose first replica it holds
	// (the replica the plan put on the task's planned rack), in index
	// order; started tasks are dropped lazily.
	primary map[int][]sched.Task
}

// NewFollower follows p on a cluster of slots containers. reduceRampup is
// the ramp-up share (0.5 in Hadoop).
func NewFollower(p *Plan, slots int, reduceRampup float64) *Follower {
	f := &Follower{plan: p, jobs: map[string]*Job{}, ramp: mapreduce.Rampup{Limit: reduceRampup, Slots: slots}, racks: len(p.Seq)}
	f.seq = make([][]*slot, len(p.Seq))
	f.head = make([]int, len(p.Seq))
	for r, s := range p.Seq {
		for _, e := range s {
			j := f.jobs[e.Job]
			if j == nil {
				j = &Job{ID: e.Job}
				f.jobs[e.Job] = j
			}
			f.seq[r] = append(f.seq[r], &slot{Entry: e, job: j})
		}
	}
	first := map[*Job]float64{}
	for _, s := range f.seq {
		for _, e := range s {
			if at, ok := first[e.job]; !ok || e.Start < at {
				if !ok {
					f.order = append(f.order, e.job)
				}
				first[e.job] = e.Start
			}
		}
	}
	sort.SliceStable(f.order, func(a, b int) bool { return first[f.order[a]] < first[f.order[b]] })
	return f
}

// Planned returns the follower's state of job id, or nil when the plan
// does not know it (an ad-hoc job).
func (f *Follower) Planned(id string) *Job { return f.jobs[id] }

// Observe keeps the planned jobs' states current; call it with every
// event.
func (f *Follower) Observe(e sched.Event) {
	j := f.jobs[e.Job.ID()]
	if j == nil {
		return
	}
	switch e.Kind {
	case sched.JobArrived:
		j.Job = e.Job
		j.primary = map[int][]sched.Task{}
		for _, st := range e.Job.Stages() {
			if !mapreduce.IsMap(st) {
				continue
			}
			for _, t := range st.Tasks() {
				if t.NumReplicas() > 0 {
					j.primary[t.Replica(0)] = append(j.primary[t.Replica(0)], t)
				}
			}
		}
	case sched.StageReady:
		j.Tasks.Ready(e.Stage)
	case sched.TaskStarted:
		f.ramp.Started(&j.Tasks, e.Stage)
	case sched.TaskFinished:
		f.ramp.Finished(&j.Tasks, e.Stage)
	case sched.JobFinished:
		j.done = true
		j.Job = sched.Job{}
		j.primary = nil
	}
}

// Offer places on machine m a task of the first entry of m's rack that has
// one within its quota, and reports whether it did.
func (f *Follower) Offer(v sched.View, m int, p *sched.Plan) bool {
	return f.offer(v, m, p, false)
}

// OfferOverQuota is Offer with the quotas lifted: containers that no
// entry needs within its quota go to the rack's planned jobs that have
// more work ("the unused containers can be used by ... other recurring
// jobs assigned to the same racks", §4.3).
func (f *Follower) OfferOverQuota(v sched.View, m int, p *sched.Plan) bool {
	return f.offer(v, m, p, true)
}

func (f *Follower) offer(v sched.View, m int, p *sched.Plan, over bool) bool {
	t, s := f.find(v, m, over)
	if t.IsZero() || p.Place(t, m) != nil {
		return false
	}
	s.used++
	return true
}

// Find is the task Offer would place on m (OfferOverQuota with over),
// without placing it: the decision alone, for benchmarks.
func (f *Follower) Find(v sched.View, m int, over bool) sched.Task {
	t, _ := f.find(v, m, over)
	return t
}

func (f *Follower) find(v sched.View, m int, over bool) (sched.Task, *slot) {
	r := v.RackOf(m)
	seq := f.seq[r]
	for f.head[r] < len(seq) && f.spent(seq[f.head[r]]) {
		f.head[r]++
	}
	for _, s := range seq[f.head[r]:] {
		if s.job.Job.IsZero() || !over && s.Quota > 0 && s.used >= s.Quota {
			continue
		}
		if t := f.pick(v, s.job, s.Kind, m, over); !t.IsZero() {
			return t, s
		}
	}
	return sched.Task{}, nil
}

// OfferSpill places on m a task of any planned job, in the order of their
// planned starts, wherever the plan put it (Corral's spill knob: planned
// jobs may use racks that would otherwise idle).
func (f *Follower) OfferSpill(v sched.View, m int, p *sched.Plan) bool {
	for _, j := range f.order {
		if j.Job.IsZero() {
			continue
		}
		if t := f.pick(v, j, AllStages, m, false); !t.IsZero() {
			return p.Place(t, m) == nil
		}
	}
	return false
}

// spent reports an entry that will never place a task again: its job
// finished, its quota is used up or every task of its kind has started.
func (f *Follower) spent(s *slot) bool {
	switch {
	case s.job.done:
		return true
	case s.job.Job.IsZero():
		return false
	case s.Quota > 0 && s.used >= s.Quota:
		return true
	}
	for _, st := range s.job.Job.Stages() {
		if matches(st, s.Kind) && st.Started() < st.NumTasks() {
			return false
		}
	}
	return true
}

func matches(st sched.Stage, k Kind) bool {
	return k == AllStages || (k == Maps) == mapreduce.IsMap(st)
}

// pick is a task of kind k of job j that may start on m: reducers first
// (an MR application master asks for them first) when they may start, then
// a map. Maps whose first replica is on m, then in m's rack, come first:
// those are the blocks the plan put on this rack for it. A rack that
// took a map of another rack because a later replica of its block is here
// would leave that rack's planned map without a local block, so such maps
// come only after (locate.Nearest, then any), and not at all for a rack
// past its quota (ownMaps).
func (f *Follower) pick(v sched.View, j *Job, k Kind, m int, ownMaps bool) sched.Task {
	if k != Maps && f.MayReduce(v, j) {
		for _, st := range j.Job.Stages() {
			if !mapreduce.IsMap(st) && st.WaitingCount() > 0 {
				if t := st.NextWaiting(m); !t.IsZero() {
					return t
				}
			}
		}
	}
	if k == Reduces {
		return sched.Task{}
	}
	if t := j.takePrimary(m, m); !t.IsZero() {
		return t
	}
	for _, x := range v.RackMachines(v.RackOf(m)) {
		if x != m {
			if t := j.takePrimary(x, m); !t.IsZero() {
				return t
			}
		}
	}
	if ownMaps {
		return sched.Task{}
	}
	for _, st := range j.Job.Stages() {
		if mapreduce.IsMap(st) && st.WaitingCount() > 0 {
			if t := locate.Nearest(v, st, m); !t.IsZero() {
				return t
			}
		}
	}
	return sched.Task{}
}

// takePrimary is the first waiting map whose first replica is on machine
// x and that may run on m; tasks no longer waiting are dropped on the way.
func (j *Job) takePrimary(x, m int) sched.Task {
	q := j.primary[x]
	for len(q) > 0 && q[0].Phase() != sched.Waiting {
		q = q[1:]
	}
	j.primary[x] = q
	for _, t := range q {
		if t.Phase() == sched.Waiting && (t.Pin() < 0 || t.Pin() == m) {
			return t
		}
	}
	return sched.Task{}
}

// MayReduce reports whether one more reducer of j may start: the ramp-up
// limit and the Gate.
func (f *Follower) MayReduce(v sched.View, j *Job) bool {
	return f.ramp.MayStartReducer(&j.Tasks) && (f.Gate == nil || f.Gate(v, j))
}
