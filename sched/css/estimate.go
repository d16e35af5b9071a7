package css

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// TaskTime is t_jk of §IV-A: the estimated seconds task t takes on machine
// m, read through the knowledge model (View.EstimateOn, so machine speeds
// and the scenario's estimation error apply). With transfer, it includes
// the input the task would fetch over m's NIC: nothing for a task reading
// a DFS split with a replica on m, all of its estimated input otherwise
// (the parents' output of a reducer is spread over many hosts; the share
// on m is small and not known before the parents run). Contention is not
// modelled: the estimate is what the NIC alone allows. Both css and stf
// use it, so the two compare on the same estimates.
func TaskTime(v sched.View, t sched.Task, m int, transfer bool) float64 {
	e := v.EstimateOn(t, m)
	d := e.Compute
	if transfer {
		d += transferTime(v, t, m, e.Input)
	}
	return d
}

// transferTime is the time to fetch input bytes over m's NIC, zero for a
// DFS split stored on m.
func transferTime(v sched.View, t sched.Task, m int, input float64) float64 {
	if input <= 0 || t.Stage().HasFileInput() && t.HasReplicaOn(m) {
		return 0
	}
	nic := v.Machine(m).NIC()
	if !(nic > 0) {
		return math.Inf(1)
	}
	return input / nic
}

// waitsForData reports whether t cannot finish its input phase yet
// because a task of a parent stage has not finished (a reducer started by
// slow-start): DTPA's "task waiting for some data".
func waitsForData(t sched.Task) bool {
	return !t.IsZero() && unfinishedParents(t.Stage())
}

// unfinishedParents reports whether a parent stage of st has an
// unfinished task.
func unfinishedParents(st sched.Stage) bool { return !st.ParentsDone() }
