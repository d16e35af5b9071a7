package nas

import (
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// job is what NAS tracks about an active job.
type job struct {
	sj      *sim.Job
	u       *user
	maps    []*sim.Stage // root stages
	reduces []*sim.Stage // every other stage
	nMaps   int          // K_i
	done    int          // completed maps

	input    float64 // estimated input of all maps (small- vs large-input)
	shufIn   float64 // estimated input of maps whose output is shuffled
	shufZero int     // shuffled maps without input
	known    float64 // Σ estimated output of shuffled maps (shuffle_size: known)
	pred     Predictor
	shuffle  float64 // predicted S_i
	class    Class

	waitingMaps, waitingReduces int
	runMaps, runReduces         int

	// CA-RTS: where the job's map output is (weight of started shuffled
	// maps per rack) and its started reducers per rack.
	rackMap    []float64
	rackMapSum float64
	rackRed    []int32
	reducers   int // TotalReduceNum
	started    int // reducers started
	delayed    bool
}

func isMap(st *sim.Stage) bool { return len(st.Parents) == 0 }

// shuffled reports whether a map stage's output is read by another stage.
func shuffled(st *sim.Stage) bool { return len(st.Children) > 0 }

// predicted reports whether the job's shuffle size is learned (or known).
func (s *Scheduler) predicted(j *job) bool { return s.cfg.KnownShuffle || j.pred.Predicted() }

// small reports a small-input job (MTS categories).
func (s *Scheduler) small(j *job) bool { return j.input < s.cfg.SmallInput }

// mapOutput predicts the shuffle bytes map t will produce.
func (s *Scheduler) mapOutput(v *sim.View, j *job, t *sim.Task) float64 {
	if !shuffled(t.Stage) {
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
		j.shuffle = j.known
	} else {
		j.shuffle = j.pred.Ratio() * j.shufIn
		if j.shufZero > 0 {
			j.shuffle += float64(j.shufZero) * j.pred.Output(0)
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
func (s *Scheduler) Observe(v *sim.View, e sim.Event) {
	switch e.Kind {
	case sim.JobArrived:
		s.arrive(v, e.Job)
	case sim.StageReady:
		j := s.byJob[e.Job]
		n := len(e.Stage.Tasks)
		if isMap(e.Stage) {
			j.waitingMaps += n
			j.u.waitingMaps += n
			s.waitingMaps += n
		} else {
			j.waitingReduces += n
			j.u.waitingReduces += n
			s.waitingReduces += n
		}
	case sim.TaskStarted:
		s.started(v, s.byJob[e.Job], e.Task)
	case sim.TaskFinished:
		s.finished(v, s.byJob[e.Job], e.Task)
	case sim.JobFinished:
		j := s.byJob[e.Job]
		delete(s.byJob, e.Job)
		s.jobs = slices.DeleteFunc(s.jobs, func(x *job) bool { return x == j })
		j.u.jobs = slices.DeleteFunc(j.u.jobs, func(x *job) bool { return x == j })
	}
}

func (s *Scheduler) arrive(v *sim.View, sj *sim.Job) {
	j := &job{sj: sj, u: s.users.get(sj.User), rackMap: make([]float64, v.Racks()), rackRed: make([]int32, v.Racks())}
	for _, st := range sj.Stages {
		if !isMap(st) {
			j.reduces = append(j.reduces, st)
			j.reducers += len(st.Tasks)
			continue
		}
		j.maps = append(j.maps, st)
		j.nMaps += len(st.Tasks)
		for _, t := range st.Tasks {
			e := v.Estimate(t)
			j.input += e.Input
			if shuffled(st) {
				j.shufIn += e.Input
				j.known += e.Output
				if e.Input == 0 {
					j.shufZero++
				}
			}
		}
	}
	s.refresh(j)
	s.byJob[sj] = j
	s.jobs = append(s.jobs, j)
	j.u.jobs = append(j.u.jobs, j)
}

func (s *Scheduler) started(v *sim.View, j *job, t *sim.Task) {
	m := t.Machine
	j.u.running++
	s.users.moved(j.u)
	if !isMap(t.Stage) {
		j.waitingReduces--
		j.u.waitingReduces--
		s.waitingReduces--
		j.runReduces++
		if j.waitingMaps > 0 {
			s.earlyReducers++
		}
		j.rackRed[v.RackOf(m)]++
		if j.started == 0 && j.nMaps > 0 {
			s.stats.FirstReduces++
			s.stats.MapProgressSum += float64(j.done) / float64(j.nMaps)
		}
		j.started++
		return
	}
	j.waitingMaps--
	j.u.waitingMaps--
	s.waitingMaps--
	j.runMaps++
	if j.waitingMaps == 0 {
		s.earlyReducers -= j.runReduces // its reducers no longer wait for unstarted maps
	}
	out := s.mapOutput(v, j, t)
	s.nodeOut[m] += out
	s.taskOut[t] = out
	if shuffled(t.Stage) {
		// Weight by input so a rack's share follows its predicted output
		// (one ratio per job); maps without input count one byte.
		w := math.Max(v.Estimate(t).Input, 1)
		j.rackMap[v.RackOf(m)] += w
		j.rackMapSum += w
	}
}

func (s *Scheduler) finished(v *sim.View, j *job, t *sim.Task) {
	j.u.running--
	s.users.moved(j.u)
	if !isMap(t.Stage) {
		j.runReduces--
		if j.waitingMaps > 0 {
			s.earlyReducers--
		}
		return
	}
	j.runMaps--
	m := t.Machine
	s.nodeOut[m] -= s.taskOut[t]
	if s.nodeOut[m] < 1e-6 {
		s.nodeOut[m] = 0 // no drift below zero from float sums
	}
	delete(s.taskOut, t)
	j.done++
	if shuffled(t.Stage) {
		e := v.Estimate(t)
		j.pred.Observe(e.Input, e.Output)
		s.refresh(j)
	}
}

// mayStartReducer stands in for the MR application master's reduce
// ramp-up limit and reduce preemption, which the engine does not model.
// While a job has maps waiting, its reducers may hold at most ReduceRampup
// of its containers (yarn.app.mapreduce.am.job.reduce.rampup.limit), and
// such early reducers, across all jobs, at most ReduceRampup of the
// cluster's containers: reducers that wait for maps cannot take every slot
// and starve the maps they wait for (Hadoop would preempt them).
func (s *Scheduler) mayStartReducer(j *job) bool {
	if j.waitingMaps == 0 {
		return true
	}
	r := s.cfg.ReduceRampup
	return float64(j.runReduces+1) <= r*float64(j.runMaps+j.runReduces+1) &&
		float64(s.earlyReducers+1) <= r*float64(s.slots)
}
