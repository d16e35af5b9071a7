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
	// Per stage (by index): the estimated output its started tasks write
	// in each rack, if another stage reads it, and its started tasks per
	// rack, for the stages with parents. A MapReduce job has one of each;
	// a Tez job chains several (idea 3 applies to each shuffle).
	out map[int]*rackBytes
	red map[int][]int32

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
			j.started(v, e.Stage)[r]++
		}
		if mapreduce.Shuffled(e.Stage) {
			j.wrote(v, e.Stage).add(r, v.Estimate(e.Task).Output)
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
	j := &job{sj: sj, deferredSince: -1, out: map[int]*rackBytes{}, red: map[int][]int32{}}
	j.Seq = sj.Seq()
	j.maps, j.reduces, _ = mapreduce.Split(sj)
	est := mapreduce.MapSizes(v, j.maps)
	j.heavy = est.Shuffle > s.cfg.ShuffleRatio*est.Input && est.Shuffle > 0
	s.byJob[sj] = j
	s.order.Add(j)
}

// rackBytes is a stage's output per rack and in all.
type rackBytes struct {
	rack []float64
	sum  float64
}

func (b *rackBytes) add(r int, x float64) {
	b.rack[r] += x
	b.sum += x
}

// wrote is the output per rack of stage st so far.
func (j *job) wrote(v sched.View, st sched.Stage) *rackBytes {
	b := j.out[st.Index()]
	if b == nil {
		b = &rackBytes{rack: make([]float64, v.Racks())}
		j.out[st.Index()] = b
	}
	return b
}

// started is stage st's started tasks per rack.
func (j *job) started(v sched.View, st sched.Stage) []int32 {
	n := j.red[st.Index()]
	if n == nil {
		n = make([]int32, v.Racks())
		j.red[st.Index()] = n
	}
	return n
}

// reduceShare is the number of tasks of stage st (a reduce, or a later
// stage of a Tez job) that rack r should hold: its share of the output of
// st's parent stages so far, rounded up (every rack with output gets at
// least one); before any parent output, no rack is preferred. This is the
// reconstruction's rule, not nas's ReduceNum (eq. 4, input-weighted, not
// rounded).
func (j *job) reduceShare(st sched.Stage, r int) int32 {
	var in *rackBytes
	for _, e := range st.Parents() {
		b := j.out[e.Parent.Index()]
		switch {
		case b == nil:
		case in == nil:
			in = b // one parent (MapReduce): its sums as they are
		default:
			in = &rackBytes{rack: append([]float64(nil), in.rack...), sum: in.sum}
			for k, x := range b.rack {
				in.rack[k] += x
			}
			in.sum += b.sum
		}
	}
	if in == nil || in.sum == 0 {
		return math.MaxInt32
	}
	return int32(math.Ceil(float64(st.NumTasks()) * in.rack[r] / in.sum))
}
