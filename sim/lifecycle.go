package sim

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/workload"
)

// arrive materialises the job read ahead and reads the next one.
func (e *Engine) arrive() {
	spec := e.pendingSpec
	e.pendingSpec = nil
	if _, dup := e.jobsByID[spec.ID]; dup || e.outputs[spec.ID] != nil {
		e.fail("workload: job id %q appears twice", spec.ID)
		return
	}
	if err := spec.Validate(len(e.machines)); err != nil {
		e.fail("workload: job %q: %v", spec.ID, err)
		return
	}
	j := e.materialize(spec)
	if e.err != nil {
		return
	}
	e.jobs = append(e.jobs, j)
	e.jobsByID[j.ID] = j
	e.unfinished++
	e.observe(Event{Kind: JobArrived, Job: j})
	if j.waitFor == 0 {
		e.unblock(j)
	}
	if err := e.readNextJob(); err != nil {
		e.err = err
	}
}

// materialize builds the running state of a job: stages, tasks, true sizes
// and the replicas of file inputs.
func (e *Engine) materialize(spec *workload.Job) *Job {
	j := &Job{ID: spec.ID, Seq: e.nextSeq, User: orDefault(spec.User), Queue: orDefault(spec.Queue),
		Arrival: spec.Arrival, Start: -1, Finish: -1, Spec: spec, Recurring: spec.Recurring, Class: spec.Class,
		mapProgress: -1}
	e.nextSeq++
	for _, pid := range spec.After {
		out := e.outputs[pid]
		if out == nil {
			e.fail("workload: job %q depends on job %q, which has not arrived before it", spec.ID, pid)
			return j
		}
		j.parents = append(j.parents, out)
		if !out.done {
			j.waitFor++
			out.job.children = append(out.job.children, j)
		}
	}
	j.Blocked = j.waitFor > 0
	// One random stream per job, derived from the seed and the arrival
	// order, so a job's draws do not depend on other jobs' draws.
	r := rand.New(rand.NewPCG(e.sc.Seed^0x9e3779b97f4a7c15, uint64(j.Seq)))
	index := map[string]*Stage{}
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		st := &Stage{Job: j, Index: si, ID: ss.ID}
		index[ss.ID] = st
		for ti, ts := range ss.Expand(r) {
			t := &Task{Stage: st, Index: ti, Machine: -1, Pin: ts.Pin, spec: ts}
			st.Tasks = append(st.Tasks, t)
			st.totalShare += ts.Share
			if ts.Input > 0 {
				st.HasFileInput = true
			}
		}
		j.Stages = append(j.Stages, st)
		j.TasksTotal += len(st.Tasks)
	}
	for si, ss := range spec.Stages {
		st := j.Stages[si]
		for _, d := range ss.After {
			p := index[d.Stage]
			st.Parents = append(st.Parents, Edge{Parent: p, Kind: d.Kind, SlowStart: d.SlowStart, Pattern: d.Pattern})
			p.Children = append(p.Children, st)
		}
		st.ReadsJobParents = len(st.Parents) == 0 && len(j.parents) > 0
	}
	parentTotal := 0.0
	for _, p := range j.parents {
		parentTotal += p.total
	}
	out := &jobOutput{id: j.ID, job: j}
	for _, st := range topoOrder(j.Stages) {
		for _, t := range st.Tasks {
			in := t.spec.Input
			for _, edge := range st.Parents {
				for _, p := range edge.Parent.Tasks {
					in += contribution(p, t, edge.Pattern)
				}
			}
			if st.ReadsJobParents {
				in += parentTotal * t.spec.Share / st.totalShare
			}
			t.inputBytes = in
			t.outputBytes = t.spec.Output
			if t.spec.OutputRatio > 0 {
				t.outputBytes = t.spec.OutputRatio * in
			}
			t.computeTime = t.spec.Compute + t.spec.PerByte*in
			if t.spec.Input > 0 {
				t.Replicas = e.placeReplicas(t, r)
			}
			if len(st.Children) == 0 {
				out.total += t.outputBytes
			}
		}
	}
	e.outputs[j.ID] = out
	return j
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

// contribution is the bytes child task c reads from parent task p.
func contribution(p, c *Task, pat workload.Pattern) float64 {
	switch pat {
	case workload.Broadcast:
		return p.outputBytes
	case workload.OneToOne:
		if p.Index == c.Index {
			return p.outputBytes
		}
		return 0
	}
	return p.outputBytes * c.spec.Share / c.Stage.totalShare
}

// topoOrder lists stages parents-first (Validate rejected cycles).
func topoOrder(stages []*Stage) []*Stage {
	out := make([]*Stage, 0, len(stages))
	seen := make([]bool, len(stages))
	var visit func(s *Stage)
	visit = func(s *Stage) {
		if seen[s.Index] {
			return
		}
		seen[s.Index] = true
		for _, p := range s.Parents {
			visit(p.Parent)
		}
		out = append(out, s)
	}
	for _, s := range stages {
		visit(s)
	}
	return out
}

// placeReplicas places a file split: the scheduler's data placement if it
// has one, else the HDFS default (first replica on a random machine, the
// second on another rack, the third on the second's rack).
func (e *Engine) placeReplicas(t *Task, r *rand.Rand) []int {
	n := min(e.sc.Replicas, len(e.machines))
	if e.placer != nil {
		if reps := e.placer.PlaceInput(e.view, t, n); reps != nil {
			for _, m := range reps {
				if m < 0 || m >= len(e.machines) {
					e.fail("scheduler %T placed a replica of %s on machine %d, which does not exist", e.sched, t, m)
				}
			}
			return reps
		}
	}
	reps := make([]int, 0, n)
	has := func(m int) bool {
		for _, x := range reps {
			if x == m {
				return true
			}
		}
		return false
	}
	pick := func(ok func(m int) bool) {
		// Rejection sampling first (cheap on big clusters), then a scan so
		// that a small cluster always finds a machine if one exists.
		for try := 0; try < 32; try++ {
			if m := r.IntN(len(e.machines)); !has(m) && ok(m) {
				reps = append(reps, m)
				return
			}
		}
		start := r.IntN(len(e.machines))
		for k := range e.machines {
			if m := (start + k) % len(e.machines); !has(m) && ok(m) {
				reps = append(reps, m)
				return
			}
		}
	}
	any := func(int) bool { return true }
	pick(any)
	if n >= 2 {
		first := e.rackOf[reps[0]]
		pick(func(m int) bool { return e.rackOf[m] != first })
		if len(reps) < 2 {
			pick(any) // single-rack cluster
		}
	}
	if n >= 3 {
		second := e.rackOf[reps[1]]
		pick(func(m int) bool { return e.rackOf[m] == second })
		for len(reps) < n {
			before := len(reps)
			pick(any)
			if len(reps) == before {
				break
			}
		}
	}
	return reps
}

// unblock runs when a job's parent jobs are all done: its stages without
// parents become ready.
func (e *Engine) unblock(j *Job) {
	j.Blocked = false
	for _, st := range j.Stages {
		if len(st.Parents) == 0 {
			e.stageReady(st)
		}
	}
}

func (e *Engine) stageReady(st *Stage) {
	if st.Ready {
		return
	}
	st.Ready = true
	j := st.Job
	for _, t := range st.Tasks {
		t.State = Waiting
		t.ReadyAt = e.now
		st.waiting.add(t, e.rackOf)
	}
	j.Waiting += len(st.Tasks)
	e.waitingTotal += len(st.Tasks)
	e.taskArrival = true
	e.observe(Event{Kind: StageReady, Job: j, Stage: st})
	// A child with slow-start 0 needs no finished parent task: it is ready
	// with its parent (Hadoop starts such reducers with the job).
	for _, c := range st.Children {
		e.maybeReady(c)
	}
}

// maybeReady checks a child stage after one of its parents progressed.
func (e *Engine) maybeReady(st *Stage) {
	if st.Ready || st.Job.Blocked {
		return
	}
	for _, edge := range st.Parents {
		n := len(edge.Parent.Tasks)
		switch edge.Kind {
		case workload.StartsAfter:
			if edge.Parent.Finished < n {
				return
			}
		case workload.FinishesBefore:
			if float64(edge.Parent.Finished) < edge.SlowStart*float64(n) || edge.Parent.Finished == 0 && n > 0 && edge.SlowStart > 0 {
				return
			}
		}
	}
	e.stageReady(st)
}

// startTask gives t a slot on machine m and begins its input phase.
func (e *Engine) startTask(t *Task, m int) {
	mc := e.machines[m]
	j := t.Job()
	t.State = InInput
	t.Machine = m
	t.StartAt = e.now
	mc.Free--
	mc.InputPhase++
	mc.Running = append(mc.Running, t)
	e.held++
	j.Running++
	j.Waiting--
	e.waitingTotal--
	t.Stage.Started++
	if j.Start < 0 {
		j.Start = e.now
	}
	e.metrics.started(t)
	e.observe(Event{Kind: TaskStarted, Job: j, Stage: t.Stage, Task: t})
	t.fetch = &fetchState{}
	f := t.fetch
	if t.spec.Input > 0 {
		src := e.nearestReplica(t, m)
		f.add(src, t.spec.Input, kindInput)
		if src == m {
			j.localMaps++
		}
		j.dfsMaps++
	}
	for _, edge := range t.Stage.Parents {
		for _, p := range edge.Parent.Tasks {
			if edge.Pattern == workload.OneToOne && p.Index != t.Index {
				continue
			}
			if p.State != Done {
				f.outstanding++ // fetched when p finishes
			} else if b := contribution(p, t, edge.Pattern); b > 0 {
				f.add(p.Machine, b, kindShuffle)
			}
		}
	}
	if t.Stage.ReadsJobParents {
		for _, out := range j.parents {
			for _, mb := range out.byMachine {
				f.add(mb.machine, mb.bytes*t.spec.Share/t.Stage.totalShare, kindDependent)
			}
		}
	}
	e.pumpFetches(t)
}

// nearestReplica: node-local, else a replica in the same rack, else the first.
func (e *Engine) nearestReplica(t *Task, m int) int {
	for _, r := range t.Replicas {
		if r == m {
			return r
		}
	}
	for _, r := range t.Replicas {
		if e.rackOf[r] == e.rackOf[m] {
			return r
		}
	}
	return t.Replicas[0]
}

func (t *Task) String() string {
	return fmt.Sprintf("task %s/%s[%d]", t.Stage.Job.ID, t.Stage.ID, t.Index)
}
