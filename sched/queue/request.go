package queue

import "github.com/netsched/netsched/sim"

// A job's requests, as an MR application master makes them (§0): stages
// without file input (reducers, DAG stages; priority 10) are served before
// stages reading DFS blocks (maps; priority 20), each stage in index order.
const (
	reduceLike = iota // no locality preference
	mapLike           // has file input: node, rack or off-switch
	priorities        // number of request priorities
)

func priorityOf(st *sim.Stage) int {
	if st.HasFileInput {
		return mapLike
	}
	return reduceLike
}

// waitingAt is the number of waiting tasks of j at priority p.
func waitingAt(j *sim.Job, p int) int {
	n := 0
	for _, st := range j.Stages {
		if priorityOf(st) == p {
			n += st.WaitingCount()
		}
	}
	return n
}

// pick is the locality lookup every scheduler here uses: a waiting task of j
// at priority p that may run on machine m, node-local first, then rack-local
// if allowed is at least RackLocal, then any if allowed is OffSwitch. Tasks
// without file input may run anywhere (YARN: a request naming at most one
// location). It returns the task and the locality achieved (NoPreference for
// tasks without file input; a task pinned to m counts as node-local).
func pick(v *sim.View, j *sim.Job, p, m int, allowed sim.Locality) (*sim.Task, sim.Locality) {
	for _, st := range j.Stages {
		if priorityOf(st) == p && st.WaitingCount() > 0 {
			if t := st.LocalWaiting(m); t != nil {
				return t, levelOf(st, sim.NodeLocal)
			}
		}
	}
	if p == mapLike && allowed >= sim.RackLocal {
		rack := v.RackOf(m)
		for _, st := range j.Stages {
			if priorityOf(st) == p && st.WaitingCount() > 0 {
				if t := st.RackLocalWaiting(rack); t != nil {
					return t, sim.RackLocal
				}
			}
		}
	}
	if p == mapLike && allowed < sim.OffSwitch {
		return nil, sim.NoPreference
	}
	for _, st := range j.Stages {
		if priorityOf(st) == p && st.WaitingCount() > 0 {
			if t := st.NextWaiting(m); t != nil {
				return t, levelOf(st, sim.OffSwitch)
			}
		}
	}
	return nil, sim.NoPreference
}

func levelOf(st *sim.Stage, l sim.Locality) sim.Locality {
	if st.HasFileInput {
		return l
	}
	return sim.NoPreference
}
