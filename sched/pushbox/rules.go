package pushbox

import "github.com/netsched/netsched/sched"

// isLocal reports whether t placed on m has no input phase worth
// controlling: it reads nothing, or it reads only DFS blocks and a replica
// is on m (or, when rack-local sources count as local, in m's rack, §4).
// Reduce-like tasks fetch from many machines and are never local.
func (s *Scheduler) isLocal(v sched.View, t sched.Task, m int) bool {
	if v.Estimate(t).Input == 0 {
		return true
	}
	if !readsFilesOnly(t.Stage()) {
		return false
	}
	switch v.Locality(t, m) {
	case sched.NodeLocal:
		return true
	case sched.RackLocal:
		return s.rackLocal
	}
	return false
}

// canBePlaced is Algorithm 1 lines 9-20: below the controlled concurrency
// m a task with an input phase may start; at or above it only the Fair
// wildcard admits a task whose job's coflow is smaller than the smallest
// coflow on the machine (§5.2; never under FIFO, never with the W
// ablation).
func (s *Scheduler) canBePlaced(v sched.View, t sched.Task, m int) bool {
	s.load(v, m)
	if s.pass.count[m] < s.cfg.M {
		return true
	}
	js := s.jobs[t.Job()]
	wildcard := !js.fifo && js.coflow < s.pass.minCoflow[m]
	s.stats.AtM++
	c := s.jobStats(js)
	c.AtM++
	if wildcard && s.cfg.W {
		s.stats.WildcardDenied++
		c.WildcardDenied++
	}
	return wildcard && !s.cfg.W
}

// notHinderTask is Algorithm 1 lines 21-25: a beneficiary task without an
// input phase may take the slot only if it computes for less time than the
// machine's network still needs, so it frees the slot before the network
// goes idle (§5.2, Fig. 4). The H ablation accepts every beneficiary.
func (s *Scheduler) notHinderTask(v sched.View, t sched.Task, m int) bool {
	pass := v.Estimate(t).Compute < s.dataTransferTime(v, m)
	s.stats.Beneficiary++
	if !pass && !s.cfg.H {
		s.stats.Refused++
		s.jobStats(s.jobs[t.Job()]).Refused++
	}
	return pass || s.cfg.H
}

// readsFilesOnly: the stage's tasks read DFS blocks and nothing else, so
// each has few sources (its replicas) and locality applies (§5.1).
func readsFilesOnly(st sched.Stage) bool {
	return st.HasFileInput() && st.NumParents() == 0 && !st.ReadsJobParents()
}
