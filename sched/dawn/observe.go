package dawn

import "github.com/netsched/netsched/sched"

// Observe keeps the dependency detector and the online plan current: it is
// where Algorithm 2 runs. Dawn recomputes a stage's plan when something it
// depends on changes (a stage becomes placeable, a parent stage finishes,
// a job that its job's children also read finishes), which gives the same
// plans as Algorithm 2's scan of every job at every heartbeat.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	switch e.Kind {
	case sched.JobArrived:
		s.arrive(v, e.Job)
	case sched.StageReady:
		s.ready(v, e.Stage)
	case sched.TaskFinished:
		if j := s.jobs[e.Job]; j != nil {
			j.u.Running--
			s.users.Moved(j.u)
		}
		if st := e.Stage; st.Finished() == st.NumTasks() {
			if u := s.byStage[st]; u != nil && referenceDecide == nil {
				s.leave(u)
			}
			for _, c := range st.Children() {
				if u := s.byStage[c]; u != nil && !u.planned && parentsDone(c) {
					u.lastServed = v.Now() // before plan indexes it
					s.plan(v, u)
				}
			}
		}
	case sched.JobFinished:
		s.finish(v, e.Job)
	}
}

// arrive registers a job with the detector. Its parents, if still running,
// now have one more job in Next (eq. 6) and their final stages are planned
// again.
func (s *Scheduler) arrive(v sched.View, sj sched.Job) {
	name := sj.User()
	u := s.byUser[name]
	if u == nil {
		u = &user{name: name}
		u.Seq = len(s.byUser)
		s.byUser[name] = u
		s.users.Add(u)
	}
	s.jobs[sj] = &job{sj: sj, seq: sj.Seq(), u: u}
	parents := sj.ParentJobs()
	s.deps.Add(sj.ID(), parents)
	for _, id := range parents {
		s.replanOutputs(v, id)
	}
}

// ready makes a unit of a stage that has waiting tasks: an input stage is
// planned at once (its job's parents are done, their outputs located),
// another once its parent stages have finished.
func (s *Scheduler) ready(v sched.View, st sched.Stage) {
	j := s.jobs[st.Job()]
	if j == nil || s.byStage[st] != nil {
		return
	}
	u := &unit{j: j, st: st, role: roleOf(st)}
	s.byStage[st] = u
	s.join(u)
	if u.role == input || parentsDone(st) {
		u.lastServed = v.Now() // before plan indexes it
		s.plan(v, u)
	}
	if st.NumTasks() == 0 && referenceDecide == nil {
		s.leave(u) // finished already: no TaskFinished will say so
	}
}

// finish is Algorithm 2 lines 13-16: job x finished, so for every job y
// that reads it, the other jobs y reads (Prev_{x,y}) now know more of y's
// input and their dep_reduce is recomputed. Then x is forgotten.
func (s *Scheduler) finish(v sched.View, sj sched.Job) {
	id := sj.ID()
	for _, y := range s.deps.Next(id) {
		for _, z := range s.deps.Prev(id, y) {
			s.replanOutputs(v, z)
		}
	}
	s.deps.Remove(id)
	delete(s.jobs, sj)
	for _, st := range sj.Stages() {
		delete(s.byStage, st)
	}
}

// replanOutputs recomputes dep_reduce for the planned final stages of job
// id that still have tasks to place.
func (s *Scheduler) replanOutputs(v sched.View, id string) {
	if !s.cfg.Dependency {
		return
	}
	sj, ok := v.Job(id)
	if !ok {
		return
	}
	for _, st := range sj.Stages() {
		if u := s.byStage[st]; u != nil && u.role == output && u.planned && st.WaitingCount() > 0 {
			s.plan(v, u)
		}
	}
}
