package nas

import (
	"math"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// job is what NAS tracks about an active job.
type job struct {
	sj      sched.Job
	u       *user
	maps    []sched.Stage // root stages
	reduces []sched.Stage // every other stage
	// est holds the maps' estimated sizes: Maps is K_i, Input tells small-
	// from large-input jobs, Shuffle is S_i under shuffle_size: known.
	est  mapreduce.Sizes
	done int // completed maps

	pred    Predictor
	shuffle float64 // predicted S_i
	class   Class

	tasks mapreduce.Tasks

	// CA-RTS: where the job's map output is (weight of started shuffled
	// maps per rack) and its started reducers per rack.
	rackMap    []float64
	rackMapSum float64
	rackRed    []int32
	reducers   int // TotalReduceNum
	started    int // reducers started
	delayed    bool

	pos int // index in Scheduler.jobs

	// Place in the user's indexes (index.go): arrival number, positions in
	// the output-bound heaps (-1: no waiting maps), counted as unpredicted.
	seq           int
	hpos, lpos    int
	unpredCounted bool
	// Bounds of the job's shuffled maps' estimates (mapBounds) and the
	// resulting bounds on a map's predicted output now.
	minIn, maxIn, minOut, maxOut float64
	noInput, plainMaps           bool
	outBound, lowBound           float64
	// Machines the job may have a data-local waiting map on, with counts,
	// and whether it has maps without locality preference (local.go).
	localRef map[int]int32
	anyLocal bool
}

// predicted reports whether the job's shuffle size is learned (or known).
func (s *Scheduler) predicted(j *job) bool { return bool(s.cfg.KnownShuffle) || j.pred.Predicted() }

// small reports a small-input job (MTS categories).
func (s *Scheduler) small(j *job) bool { return j.est.Input < s.cfg.SmallInput }

// mapOutput predicts the shuffle bytes map t will produce.
func (s *Scheduler) mapOutput(v sched.View, j *job, t sched.Task) float64 {
	if !mapreduce.Shuffled(t.Stage()) {
		return 0
	}
	e := v.Estimate(t)
	if s.cfg.KnownShuffle {
		return e.Output
	}
	return j.pred.Output(e.Input)
}

// refresh recomputes S_i and the class from the predictor.
func (s *Scheduler) refresh(j *job) {
	if s.cfg.KnownShuffle {
		j.shuffle = j.est.Shuffle
	} else {
		j.shuffle = j.pred.Ratio() * j.est.ShuffledInput
		if j.est.ShuffledNoInput > 0 {
			j.shuffle += float64(j.est.ShuffledNoInput) * j.pred.Output(0)
		}
	}
	j.class = Classify(j.shuffle, s.cfg.LightShuffle, s.cfg.HeavyShuffle)
}

// portion is MapOutputPortion of rack r: the share of the job's started
// shuffled maps' input (hence predicted output, one ratio per job) there.
func (j *job) portion(r int) float64 {
	if j.rackMapSum == 0 {
		return 1 / float64(len(j.rackMap))
	}
	return j.rackMap[r] / j.rackMapSum
}

// underReduceNum reports whether rack r runs fewer of the job's reducers
// than ReduceNum = TotalReduceNum × MapOutputPortion (eq. 4).
func (j *job) underReduceNum(r int) bool {
	return float64(j.rackRed[r]) < float64(j.reducers)*j.portion(r)
}

// Observe keeps the job, user and node state current.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	switch e.Kind {
	case sched.JobArrived:
		s.arrive(v, e.Job)
	case sched.StageReady:
		j := s.byJob[e.Job]
		if mapreduce.IsMap(e.Stage) {
			j.u.addLocal(j, e.Stage)
		}
		j.tasks.Ready(e.Stage)
		j.u.tasks.Ready(e.Stage)
		s.total.Ready(e.Stage)
		s.index(j)
	case sched.TaskStarted:
		s.started(v, s.byJob[e.Job], e.Task)
	case sched.TaskFinished:
		s.finished(v, s.byJob[e.Job], e.Task)
	case sched.JobFinished:
		j := s.byJob[e.Job]
		delete(s.byJob, e.Job)
		s.dropJob(j)
		j.u.leave(j)
	}
}

func (s *Scheduler) arrive(v sched.View, sj sched.Job) {
	j := &job{sj: sj, u: s.users.get(sj.User()), rackMap: make([]float64, v.Racks()), rackRed: make([]int32, v.Racks())}
	j.maps, j.reduces, j.reducers = mapreduce.Split(sj)
	j.est = mapreduce.MapSizes(v, j.maps)
	s.refresh(j)
	s.mapBounds(v, j)
	s.byJob[sj] = j
	j.pos = len(s.jobs)
	s.jobs = append(s.jobs, j)
	s.live++
	j.u.join(j)
}

// dropJob takes finished j out of s.jobs in O(1), leaving a hole, and
// closes the holes once they are three quarters of the slice.
func (s *Scheduler) dropJob(j *job) {
	s.jobs[j.pos] = nil
	s.live--
	if len(s.jobs) < compactMin || 4*s.live > len(s.jobs) {
		return
	}
	k := 0
	for _, x := range s.jobs {
		if x != nil {
			x.pos = k
			s.jobs[k] = x
			k++
		}
	}
	clear(s.jobs[k:])
	s.jobs = s.jobs[:k]
}

func (s *Scheduler) started(v sched.View, j *job, t sched.Task) {
	m := t.Machine()
	j.u.Running++
	s.users.order.Moved(j.u)
	s.rampup.Started(&j.tasks, t.Stage())
	j.u.tasks.Start(t.Stage())
	s.total.Start(t.Stage())
	if mapreduce.IsMap(t.Stage()) {
		j.u.dropLocal(j, t)
	}
	s.index(j)
	if !mapreduce.IsMap(t.Stage()) {
		j.rackRed[v.RackOf(m)]++
		if j.started == 0 && j.est.Maps > 0 {
			s.stats.FirstReduces++
			s.stats.MapProgressSum += float64(j.done) / float64(j.est.Maps)
		}
		j.started++
		return
	}
	out := s.mapOutput(v, j, t)
	s.nodeOut[m] += out
	s.taskOut[t] = out
	if mapreduce.Shuffled(t.Stage()) {
		// Weight by input so a rack's share follows its predicted output
		// (one ratio per job); maps without input count one byte.
		w := math.Max(v.Estimate(t).Input, 1)
		j.rackMap[v.RackOf(m)] += w
		j.rackMapSum += w
	}
}

func (s *Scheduler) finished(v sched.View, j *job, t sched.Task) {
	j.u.Running--
	s.users.order.Moved(j.u)
	s.rampup.Finished(&j.tasks, t.Stage())
	j.u.tasks.Finish(t.Stage())
	s.total.Finish(t.Stage())
	if !mapreduce.IsMap(t.Stage()) {
		return
	}
	m := t.Machine()
	s.nodeOut[m] -= s.taskOut[t]
	if s.nodeOut[m] < 1e-6 {
		s.nodeOut[m] = 0 // no drift below zero from float sums
	}
	delete(s.taskOut, t)
	j.done++
	if mapreduce.Shuffled(t.Stage()) {
		e := v.Estimate(t)
		j.pred.Observe(e.Input, e.Output)
		s.refresh(j)
		s.index(j)
	}
}

// mayStartReducer applies the reduce ramp-up limit (reduce_rampup, see
// mapreduce.Rampup) to one more reducer of j.
func (s *Scheduler) mayStartReducer(j *job) bool { return s.rampup.MayStartReducer(&j.tasks) }
