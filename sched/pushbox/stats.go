package pushbox

import "github.com/netsched/netsched/sched"

// Stats are counters of one run: how often the not-hinder test and the
// wildcard decide, and for which jobs. A decision is one
// evaluation of Algorithm 2 for one free slot; task-arrival mode and
// heartbeats may evaluate the same machine in the same state more than
// once, so the refusal counters count evaluations, while the placement
// counters (Placements, WildcardPlaced, Hindering) count placements.
type Stats struct {
	Placements int // tasks placed

	// The not-hinder test (notHinderTask): Beneficiary evaluations (a local
	// task of a job after one that yielded the slot), of which Refused
	// failed it and kept the slot free. With the H ablation the test is
	// still evaluated but not applied: Refused stays 0 and Hindering counts
	// the beneficiaries placed although they failed it.
	Beneficiary int
	Refused     int
	Hindering   int

	// The controlled concurrency and the wildcard (canBePlaced): AtM
	// evaluations of a task with an input phase on a machine already at m
	// counted input-phase tasks, of which WildcardPlaced were admitted by
	// the wildcard (and placed). With the W ablation, WildcardDenied counts
	// the evaluations the wildcard would have admitted.
	AtM            int
	WildcardPlaced int
	WildcardDenied int

	// Drops counts the input-phase ends that take a machine from m counted
	// input-phase tasks to m-1 (a blocked task with an input phase may
	// then start), DropsFull those at which every slot of the machine was
	// taken (the task that ended its input phase still holds one), so that
	// such a task had to wait for a slot: what a hindering beneficiary
	// causes (§5.2, Fig. 4).
	Drops     int
	DropsFull int

	// Jobs are the per-job counters, by job id, of every job that arrived.
	Jobs map[string]JobStats
}

// JobStats are the counters of one job.
type JobStats struct {
	Coflow         float64 // the estimated coflow size PushBox ranks and sizes it by (bytes)
	Refused        int     // evaluations in which the not-hinder test refused one of its tasks
	Hindering      int     // its tasks placed although they failed the test (H ablation)
	AtM            int     // evaluations of its tasks on a machine at m
	WildcardPlaced int     // its tasks admitted by the wildcard
	WildcardDenied int     // evaluations the wildcard would have admitted (W ablation)
}

// Stats returns the run's counters so far (a copy).
func (s *Scheduler) Stats() Stats {
	st := s.stats
	st.Jobs = make(map[string]JobStats, len(s.jobStat))
	for id, c := range s.jobStat {
		st.Jobs[id] = *c
	}
	return st
}

// jobStats is the counters of js, created on first use.
func (s *Scheduler) jobStats(js *jobState) *JobStats {
	if js.stat != nil {
		return js.stat
	}
	id := js.job.ID()
	if s.jobStat == nil {
		s.jobStat = map[string]*JobStats{}
	}
	c := s.jobStat[id]
	if c == nil {
		c = &JobStats{Coflow: js.coflow}
		s.jobStat[id] = c
	}
	js.stat = c
	return c
}

// countDrop counts, after a counted task left machine m's input-phase
// tasks, whether the machine just fell below m (Drops, DropsFull).
func (s *Scheduler) countDrop(v sched.View, m int) {
	n := 0
	for _, e := range s.mach[m].input {
		if !e.local {
			n++
		}
	}
	if n != s.cfg.M-1 {
		return
	}
	s.stats.Drops++
	if v.Machine(m).Free() <= 0 {
		s.stats.DropsFull++
	}
}
