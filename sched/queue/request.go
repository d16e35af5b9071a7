package queue

import "github.com/netsched/netsched/sched"

// A job's requests, as an MR application master makes them (§0): stages
// without file input (reducers, DAG stages; priority 10) are served before
// stages reading DFS blocks (maps; priority 20), each stage in index order.
const (
	reduceLike = iota // no locality preference
	mapLike           // has file input: node, rack or off-switch
	priorities        // number of request priorities
)

func priorityOf(st sched.Stage) int {
	if st.HasFileInput() {
		return mapLike
	}
	return reduceLike
}

// waitingAt is the number of waiting tasks of j at priority p.
func waitingAt(j sched.Job, p int) int {
	n := 0
	for _, st := range j.Stages() {
		if priorityOf(st) == p {
			n += st.WaitingCount()
		}
	}
	return n
}

// rampUp is the MR application master's reduce ramp-up limit (§4,
// yarn.app.mapreduce.am.job.reduce.rampup.limit = 0.5): while a job has
// other waiting tasks, tasks of stages whose parents are unfinished
// (reducers started by slow start, holding their slot until the last map
// output arrives) hold at most this share of the job's slots. Without it the
// reduce-first priority could fill a cluster with reducers waiting for maps
// that no longer get a slot. (nas and sw-delay use mapreduce.Rampup, which
// also caps early reducers cluster-wide, standing in for reduce preemption.)
const rampUp = 0.5

// early reports whether st runs before all its parents finished.
func early(st sched.Stage) bool { return !st.ParentsDone() }

// mayStart applies the ramp-up limit to one more task of st.
func mayStart(st sched.Stage) bool {
	if !early(st) {
		return true
	}
	j := st.Job()
	running, waiting := 0, 0
	for _, s := range j.Stages() {
		if early(s) {
			running += s.Started() - s.Finished()
			waiting += s.WaitingCount()
		}
	}
	return waiting == j.Waiting() || float64(running+1) <= rampUp*float64(j.Running()+1)
}

// requested reports whether st is at priority p and may start a task now.
func requested(st sched.Stage, p int) bool {
	return priorityOf(st) == p && st.WaitingCount() > 0 && mayStart(st)
}

// pick is the locality lookup every scheduler here uses: a waiting task of j
// at priority p that may run on machine m, with the locality achieved.
// Reduce-like stages may run anywhere (YARN: a request naming at most one
// location), in stage then index order. Map-like stages are searched
// node-local first (a task pinned to m counts as node-local), then
// rack-local if allowed is at least RackLocal, then anywhere if allowed is
// OffSwitch. Each level spans all the job's stages at p (YARN's requests),
// unlike locate.Nearest's stage by stage lookup that nas and sw-delay use.
func pick(v sched.View, j sched.Job, p, m int, allowed sched.Locality) (sched.Task, sched.Locality) {
	if p == reduceLike {
		return first(j, p, sched.NoPreference, func(st sched.Stage) sched.Task { return st.NextWaiting(m) })
	}
	if t, l := first(j, p, sched.NodeLocal, func(st sched.Stage) sched.Task { return st.LocalWaiting(m) }); !t.IsZero() {
		return t, l
	}
	if allowed >= sched.RackLocal {
		rack := v.RackOf(m)
		if t, l := first(j, p, sched.RackLocal, func(st sched.Stage) sched.Task { return st.RackLocalWaiting(rack) }); !t.IsZero() {
			return t, l
		}
	}
	if allowed == sched.OffSwitch {
		return first(j, p, sched.OffSwitch, func(st sched.Stage) sched.Task { return st.NextWaiting(m) })
	}
	return sched.Task{}, sched.NoPreference
}

// first returns the first task lookup finds in j's stages requested at p.
func first(j sched.Job, p int, l sched.Locality, lookup func(st sched.Stage) sched.Task) (sched.Task, sched.Locality) {
	for _, st := range j.Stages() {
		if requested(st, p) {
			if t := lookup(st); !t.IsZero() {
				return t, l
			}
		}
	}
	return sched.Task{}, sched.NoPreference
}
