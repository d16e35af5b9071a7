package shufflewatcher

import (
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// job is sw-delay's per-job state.
type job struct {
	sj      *sim.Job
	pos     int // index in the fairness order
	running int
	maps    []*sim.Stage // root stages
	reduces []*sim.Stage

	input, shuffle float64 // estimated
	heavy          bool

	skips       int    // delay scheduling's skip count (maps)
	reduceSkips int    // offers passed over because the rack held its share
	rackSet     []bool // preferred racks of a heavy job's maps (nil: not chosen yet)
	rackOut     []float64
	outSum      float64
	rackRed     []int32
	reducers    int

	deferredSince float64 // -1 when not deferred

	waitingMaps, waitingReduces int
	runMaps, runReduces         int
}

func isMap(st *sim.Stage) bool { return len(st.Parents) == 0 }

// jobList keeps jobs in fair order: fewest running tasks, then arrival.
type jobList []*job

func fairBefore(a, b *job) bool {
	if a.running != b.running {
		return a.running < b.running
	}
	return a.sj.Seq < b.sj.Seq
}

// moved restores the order after j's running count changed by one.
func (l jobList) moved(j *job) {
	i := j.pos
	for i > 0 && fairBefore(j, l[i-1]) {
		l[i] = l[i-1]
		l[i].pos = i
		i--
	}
	for i+1 < len(l) && fairBefore(l[i+1], j) {
		l[i] = l[i+1]
		l[i].pos = i
		i++
	}
	l[i] = j
	j.pos = i
}

// Observe keeps the job state current.
func (s *Scheduler) Observe(v *sim.View, e sim.Event) {
	switch e.Kind {
	case sim.JobArrived:
		s.arrive(v, e.Job)
	case sim.StageReady:
		j := s.byJob[e.Job]
		if isMap(e.Stage) {
			j.waitingMaps += len(e.Stage.Tasks)
		} else {
			j.waitingReduces += len(e.Stage.Tasks)
		}
	case sim.TaskStarted:
		j := s.byJob[e.Job]
		j.running++
		s.order.moved(j)
		r := v.RackOf(e.Task.Machine)
		if !isMap(e.Stage) {
			j.runReduces++
			if j.waitingMaps > 0 {
				s.early++
			}
			j.waitingReduces--
			j.rackRed[r]++
			return
		}
		j.runMaps++
		j.waitingMaps--
		if j.waitingMaps == 0 {
			s.early -= j.runReduces // they no longer wait for unstarted maps
		}
		if len(e.Stage.Children) > 0 {
			out := v.Estimate(e.Task).Output
			j.rackOut[r] += out
			j.outSum += out
		}
	case sim.TaskFinished:
		j := s.byJob[e.Job]
		j.running--
		s.order.moved(j)
		if isMap(e.Stage) {
			j.runMaps--
		} else {
			j.runReduces--
			if j.waitingMaps > 0 {
				s.early--
			}
		}
	case sim.JobFinished:
		j := s.byJob[e.Job]
		delete(s.byJob, e.Job)
		s.order = slices.Delete(s.order, j.pos, j.pos+1)
		for i := j.pos; i < len(s.order); i++ {
			s.order[i].pos = i
		}
	}
}

func (s *Scheduler) arrive(v *sim.View, sj *sim.Job) {
	j := &job{sj: sj, pos: len(s.order), deferredSince: -1,
		rackOut: make([]float64, v.Racks()), rackRed: make([]int32, v.Racks())}
	for _, st := range sj.Stages {
		if !isMap(st) {
			j.reduces = append(j.reduces, st)
			j.reducers += len(st.Tasks)
			continue
		}
		j.maps = append(j.maps, st)
		for _, t := range st.Tasks {
			e := v.Estimate(t)
			j.input += e.Input
			if len(st.Children) > 0 {
				j.shuffle += e.Output
			}
		}
	}
	j.heavy = j.shuffle > s.cfg.ShuffleRatio*j.input && j.shuffle > 0
	s.byJob[sj] = j
	s.order = append(s.order, j)
	s.order.moved(j)
}

// reduceShare is the number of j's reducers rack r should hold: its share
// of the job's map output so far, rounded up (every rack with output gets
// at least one); before any map output, no rack is preferred.
func (j *job) reduceShare(r int) int32 {
	if j.outSum == 0 {
		return math.MaxInt32
	}
	return int32(math.Ceil(float64(j.reducers) * j.rackOut[r] / j.outSum))
}
