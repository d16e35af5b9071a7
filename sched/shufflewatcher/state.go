package shufflewatcher

import (
	"math"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/fairlist"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// job is sw-delay's per-job state.
type job struct {
	fairlist.Key // Running: its tasks running; Seq: its arrival order
	sj           sched.Job
	maps         []sched.Stage // root stages
	reduces      []sched.Stage
	heavy        bool // estimated shuffle/input above shuffle_ratio

	skips       int    // delay scheduling's skip count (maps)
	reduceSkips int    // offers passed over because the rack held its share
	rackSet     []bool // preferred racks of a heavy job's maps (nil: not chosen yet)
	rackOut     []float64
	outSum      float64
	rackRed     []int32
	reducers    int

	deferredSince float64 // -1 when not deferred

	tasks mapreduce.Tasks
}

// Observe keeps the job state current.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	switch e.Kind {
	case sched.JobArrived:
		s.arrive(v, e.Job)
	case sched.StageReady:
		s.byJob[e.Job].tasks.Ready(e.Stage)
	case sched.TaskStarted:
		j := s.byJob[e.Job]
		j.Running++
		s.order.Moved(j)
		s.rampup.Started(&j.tasks, e.Stage)
		r := v.RackOf(e.Task.Machine())
		if !mapreduce.IsMap(e.Stage) {
			j.rackRed[r]++
			return
		}
		if mapreduce.Shuffled(e.Stage) {
			out := v.Estimate(e.Task).Output
			j.rackOut[r] += out
			j.outSum += out
		}
	case sched.TaskFinished:
		j := s.byJob[e.Job]
		j.Running--
		s.order.Moved(j)
		s.rampup.Finished(&j.tasks, e.Stage)
	case sched.JobFinished:
		j := s.byJob[e.Job]
		delete(s.byJob, e.Job)
		s.order.Remove(j)
	}
}

func (s *Scheduler) arrive(v sched.View, sj sched.Job) {
	j := &job{sj: sj, deferredSince: -1, rackOut: make([]float64, v.Racks()), rackRed: make([]int32, v.Racks())}
	j.Seq = sj.Seq()
	j.maps, j.reduces, j.reducers = mapreduce.Split(sj)
	est := mapreduce.MapSizes(v, j.maps)
	j.heavy = est.Shuffle > s.cfg.ShuffleRatio*est.Input && est.Shuffle > 0
	s.byJob[sj] = j
	s.order.Add(j)
}

// reduceShare is the number of j's reducers rack r should hold: its share
// of the job's map output so far, rounded up (every rack with output gets
// at least one); before any map output, no rack is preferred. This is the
// reconstruction's rule, not nas's ReduceNum (eq. 4, input-weighted, not
// rounded).
func (j *job) reduceShare(r int) int32 {
	if j.outSum == 0 {
		return math.MaxInt32
	}
	return int32(math.Ceil(float64(j.reducers) * j.rackOut[r] / j.outSum))
}
