package pushbox

import (
	"slices"

	"github.com/netsched/netsched/sched"
)

// newJob builds the state of a job that just arrived: its coflow size, its
// queue, and its stages ordered by criticality.
func (s *Scheduler) newJob(v sched.View, j sched.Job) *jobState {
	js := &jobState{job: j, coflow: coflowSize(v, j), skipMark: make([]uint32, v.NumMachines()), pos: -1}
	switch {
	case s.cfg.SmallFIFO > 0 && js.coflow < s.cfg.SmallFIFO:
		js.queue, js.fifo = 1, true
	case s.cfg.SmallFIFO > 0:
		js.fifo = false
	default:
		js.fifo = s.cfg.Policy == FIFO
	}
	if s.nic == 0 {
		s.nic = meanNIC(v) // NICs do not change during a run
	}
	nic := s.nic
	js.stages = make([]*stageState, j.NumStages())
	for i, st := range j.Stages() {
		js.stages[i] = &stageState{st: st, fileOnly: readsFilesOnly(st)}
	}
	// Longest path to the exit (§5 "Critical-Path Oriented Scheduling"):
	// a stage's weight is its longest estimated task (input at NIC speed
	// plus compute), children first. Stages come in a DAG, so memoise.
	done := make([]bool, j.NumStages())
	var path func(st sched.Stage) float64
	path = func(st sched.Stage) float64 {
		ss := js.stages[st.Index()]
		if done[st.Index()] {
			return ss.path
		}
		longest := 0.0
		for _, t := range st.Tasks() {
			e := v.Estimate(t)
			longest = max(longest, e.Input/nic+e.Compute)
		}
		below := 0.0
		for _, c := range st.Children() {
			below = max(below, path(c))
		}
		ss.path, done[st.Index()] = longest+below, true
		return ss.path
	}
	for _, st := range j.Stages() {
		path(st)
	}
	js.critical = slices.Clone(js.stages)
	slices.SortStableFunc(js.critical, func(a, b *stageState) int {
		switch {
		case a.path > b.path:
			return -1
		case a.path < b.path:
			return 1
		}
		return 0
	})
	return js
}

// coflowSize is the estimated size of a job's coflow: the bytes its
// shuffle-reading stages fetch (the coflow of a MapReduce job, as in the
// trace); a job without such stages (map-only) is sized by its input.
func coflowSize(v sched.View, j sched.Job) float64 {
	shuffle, all := 0.0, 0.0
	for _, st := range j.Stages() {
		reads := st.NumParents() > 0 || st.ReadsJobParents()
		for _, t := range st.Tasks() {
			in := v.Estimate(t).Input
			all += in
			if reads {
				shuffle += in
			}
		}
	}
	if shuffle > 0 {
		return shuffle
	}
	return all
}

func meanNIC(v sched.View) float64 {
	sum := 0.0
	for m := range v.NumMachines() {
		sum += v.Machine(m).NIC()
	}
	return sum / float64(v.NumMachines())
}
