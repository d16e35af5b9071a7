// Package mapreduce is the MapReduce reading of a sched.Job that nas and
// sw-delay share: root stages are maps, every other stage is a reduce (it
// reads map output). It splits a job's stages, sums its maps' estimated
// sizes, counts its tasks by kind and state from the engine's events, and
// applies the reduce ramp-up limit both schedulers put in place of the MR
// application master's.
//
// Package queue reads jobs differently on purpose: a YARN request is
// map-like when its stage reads DFS blocks (request.go), and queue's ramp-up
// limit looks at stages with unfinished parents and has no cluster-wide cap.
package mapreduce

import "github.com/netsched/netsched/sched"

// IsMap reports a map stage: one without parent stages.
func IsMap(st sched.Stage) bool { return st.NumParents() == 0 }

// Shuffled reports whether a stage's output is read by another stage.
func Shuffled(st sched.Stage) bool { return st.NumChildren() > 0 }

// Split returns j's map and reduce stages, each in stage order, and the
// number of reduce tasks.
func Split(j sched.Job) (maps, reduces []sched.Stage, reducers int) {
	for _, st := range j.Stages() {
		if !IsMap(st) {
			reduces = append(reduces, st)
			reducers += st.NumTasks()
			continue
		}
		maps = append(maps, st)
	}
	return maps, reduces, reducers
}

// Sizes are the estimated sizes of a job's maps (View.Estimate: the
// scenario's knowledge model applies).
type Sizes struct {
	Maps            int     // map tasks
	Input           float64 // input of every map
	ShuffledInput   float64 // input of the maps whose output is shuffled
	Shuffle         float64 // output of those maps: the shuffle bytes
	ShuffledNoInput int     // shuffled maps without input
}

// MapSizes sums the estimated sizes of the tasks of maps, in stage then
// task order.
func MapSizes(v sched.View, maps []sched.Stage) Sizes {
	var z Sizes
	for _, st := range maps {
		z.Maps += st.NumTasks()
		for _, t := range st.Tasks() {
			e := v.Estimate(t)
			z.Input += e.Input
			if Shuffled(st) {
				z.ShuffledInput += e.Input
				z.Shuffle += e.Output
				if e.Input == 0 {
					z.ShuffledNoInput++
				}
			}
		}
	}
	return z
}

// Tasks counts tasks of one job (or of many, summed) by kind and state.
type Tasks struct {
	WaitingMaps, WaitingReduces int
	RunMaps, RunReduces         int
}

// Ready counts the tasks of st, which just became waiting.
func (c *Tasks) Ready(st sched.Stage) {
	if IsMap(st) {
		c.WaitingMaps += st.NumTasks()
	} else {
		c.WaitingReduces += st.NumTasks()
	}
}

// Start moves a task of st from waiting to running.
func (c *Tasks) Start(st sched.Stage) {
	if IsMap(st) {
		c.WaitingMaps--
		c.RunMaps++
	} else {
		c.WaitingReduces--
		c.RunReduces++
	}
}

// Finish counts a running task of st out.
func (c *Tasks) Finish(st sched.Stage) {
	if IsMap(st) {
		c.RunMaps--
	} else {
		c.RunReduces--
	}
}

// Rampup stands in for the MR application master's reduce ramp-up limit
// and reduce preemption, which the engine does not model: while a job has
// maps waiting, its reducers may hold at most Limit of its containers
// (yarn.app.mapreduce.am.job.reduce.rampup.limit), and such early reducers,
// across all jobs, at most Limit of the cluster's Slots, so reducers that
// wait for maps cannot take every slot and starve the maps they wait for
// (Hadoop would preempt them). It keeps the jobs' Tasks through Started and
// Finished, which count the early reducers.
type Rampup struct {
	Limit float64 // share of a job's, and of the cluster's, containers
	Slots int     // containers in the cluster
	early int     // running reducers of jobs with maps waiting
}

// Started counts a task of st, of the job counted by j, as started.
func (r *Rampup) Started(j *Tasks, st sched.Stage) {
	j.Start(st)
	switch {
	case !IsMap(st):
		if j.WaitingMaps > 0 {
			r.early++
		}
	case j.WaitingMaps == 0:
		r.early -= j.RunReduces // they no longer wait for unstarted maps
	}
}

// Finished counts a task of st, of the job counted by j, as finished.
func (r *Rampup) Finished(j *Tasks, st sched.Stage) {
	j.Finish(st)
	if !IsMap(st) && j.WaitingMaps > 0 {
		r.early--
	}
}

// MayStartReducer reports whether the job counted by j may start one more
// reducer.
func (r *Rampup) MayStartReducer(j *Tasks) bool {
	if j.WaitingMaps == 0 {
		return true
	}
	return float64(j.RunReduces+1) <= r.Limit*float64(j.RunMaps+j.RunReduces+1) &&
		float64(r.early+1) <= r.Limit*float64(r.Slots)
}

// Early is the number of running reducers of jobs with maps waiting.
func (r *Rampup) Early() int { return r.early }
