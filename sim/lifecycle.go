package sim

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"

	"github.com/netsched/netsched/scenario"
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
	if err := e.budget(spec); err != nil {
		e.err = err
		return
	}
	j := e.materialize(spec)
	if e.err != nil || e.interrupt {
		return // (an interrupted job is left half built, and out)
	}
	e.jobs = append(e.jobs, j)
	e.jobsByID[j.ID] = j
	e.unfinished++
	e.observe(sched.Event{Kind: sched.JobArrived, Job: sched.WrapJob(j)})
	if j.WaitFor == 0 {
		e.unblock(j)
	}
	if err := e.readNextJob(); err != nil {
		e.err = err
	}
}

// materialize builds the running state of a job: stages, tasks, true sizes
// and the replicas of file inputs.
func (e *Engine) materialize(spec *workload.Job) *state.Job {
	j := &state.Job{ID: spec.ID, Seq: e.nextSeq, User: orDefault(spec.User), Queue: orDefault(spec.Queue),
		Arrival: spec.Arrival, Start: -1, Finish: -1, Spec: spec, Recurring: spec.Recurring, Class: spec.Class,
		MapProgress: -1}
	e.nextSeq++
	for _, pid := range spec.After {
		out := e.outputs[pid]
		if out == nil {
			e.fail("workload: job %q depends on job %q, which has not arrived before it", spec.ID, pid)
			return j
		}
		j.Parents = append(j.Parents, out)
		if !out.Done {
			j.WaitFor++
			out.Job.Children = append(out.Job.Children, j)
		}
	}
	j.Blocked = j.WaitFor > 0
	j.WaitingStages = state.NewIndexSet(len(spec.Stages))
	r := e.jobRand(j.Seq)
	uploaded := e.uploaded
	e.uploaded = nil
	index := map[string]*state.Stage{}
	specs := make([][]workload.Task, len(spec.Stages)) // while sizes are computed below
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		st := &state.Stage{Job: j, Index: si, ID: ss.ID}
		index[ss.ID] = st
		specs[si] = ss.Expand(r)
		for ti, ts := range specs[si] {
			if e.interruptedAt(j.TasksTotal + ti + 1) {
				return j
			}
			t := &state.Task{Stage: st, Index: ti, Machine: -1, Pin: ts.Pin, SplitBytes: ts.Input, Share: ts.Share}
			st.Tasks = append(st.Tasks, t)
			st.TotalShare += ts.Share
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
			st.Parents = append(st.Parents, state.Edge{Parent: p, Kind: d.Kind, SlowStart: d.SlowStart, Pattern: d.Pattern})
			p.Children = append(p.Children, st)
		}
		st.ReadsJobParents = len(st.Parents) == 0 && len(j.Parents) > 0
	}
	parentTotal := 0.0
	for _, p := range j.Parents {
		parentTotal += p.Total
	}
	out := &state.JobOutput{ID: j.ID, Job: j}
	sized := 0
	for _, st := range topoOrder(j.Stages) {
		for _, t := range st.Tasks {
			if sized++; e.interruptedAt(sized) {
				return j
			}
			ts := &specs[st.Index][t.Index]
			in := ts.Input
			for _, edge := range st.Parents {
				for _, p := range edgeTasks(edge.Parent.Tasks, edge.Pattern, t.Index) {
					e.stats.edgeVisits++
					in += contribution(p, t, edge.Pattern)
				}
			}
			if st.ReadsJobParents {
				in += parentTotal * ts.Share / st.TotalShare
			}
			t.InputBytes = in
			t.OutputBytes = ts.Output
			if ts.OutputRatio > 0 {
				t.OutputBytes = ts.OutputRatio * in
			}
			t.ComputeTime = ts.Compute + ts.PerByte*in
			if ts.Input > 0 {
				t.Replicas = uploaded[[2]int{st.Index, t.Index}]
				if t.Replicas == nil {
					t.Replicas = e.placeReplicas(r)
				}
			}
			if len(st.Children) == 0 {
				out.Total += t.OutputBytes
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
func contribution(p, c *state.Task, pat workload.Pattern) float64 {
	switch pat {
	case workload.Broadcast:
		return p.OutputBytes
	case workload.OneToOne:
		if p.Index == c.Index {
			return p.OutputBytes
		}
		return 0
	}
	return p.OutputBytes * c.Share / c.Stage.TotalShare
}

// edgeTasks is the tasks, of one stage of an edge, that task i of the
// stage at its other end exchanges data with: all of them, or task i alone
// on a one-to-one edge (whose stages have as many tasks: Job.Validate), so
// that such an edge costs one visit per task, not one per pair.
func edgeTasks(tasks []*state.Task, pat workload.Pattern, i int) []*state.Task {
	if pat != workload.OneToOne {
		return tasks
	}
	if i < 0 || i >= len(tasks) {
		return nil
	}
	return tasks[i : i+1]
}

// topoOrder lists stages parents-first (Validate rejected cycles).
func topoOrder(stages []*state.Stage) []*state.Stage {
	out := make([]*state.Stage, 0, len(stages))
	seen := make([]bool, len(stages))
	var visit func(s *state.Stage)
	visit = func(s *state.Stage) {
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

// jobRand is the random stream of the job that arrives seq-th, derived from
// the seed and the arrival order, so a job's draws do not depend on other
// jobs' draws.
func (e *Engine) jobRand(seq int) *rand.Rand {
	return rand.New(rand.NewPCG(e.sc.Seed^0x9e3779b97f4a7c15, uint64(seq)))
}

// upload places the input splits of the job read ahead, before it arrives,
// through the scheduler's DataPlacer (JobPacker, Corral place a job's input
// when it is uploaded). The tasks are drawn from a copy of the job's random
// stream; the job draws them again, identically, when it arrives.
func (e *Engine) upload(spec *workload.Job) error {
	if err := spec.Validate(len(e.machines)); err != nil {
		return fmt.Errorf("workload: job %q: %v", spec.ID, err)
	}
	r := e.jobRand(e.nextSeq)
	n := min(e.sc.Replicas, len(e.machines))
	var tasks [][]workload.Task
	for si := range spec.Stages {
		tasks = append(tasks, spec.Stages[si].Expand(r))
	}
	placed := map[[2]int][]int{}
	for si, ts := range tasks {
		for ti, task := range ts {
			if task.Input <= 0 {
				continue
			}
			reps := e.placer.PlaceInput(e.view, sched.InputSplit{Job: spec, Stage: si, Task: ti, Bytes: task.Input, Replicas: n})
			if e.checkScheduler(); e.err != nil {
				return e.err
			}
			if reps == nil {
				continue
			}
			for _, m := range reps {
				if m < 0 || m >= len(e.machines) {
					return fmt.Errorf("scheduler %s placed a replica of job %s stage %d task %d on machine %d, which does not exist",
						e.sc.Scheduler.Name, spec.ID, si, ti, m)
				}
			}
			placed[[2]int{si, ti}] = reps
		}
	}
	e.uploaded = placed
	return nil
}

// placeReplicas places a file split by the HDFS default: first replica on
// a random machine, the second on another rack, the third on the second's
// rack.
func (e *Engine) placeReplicas(r *rand.Rand) []int {
	n := min(e.sc.Replicas, len(e.machines))
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
func (e *Engine) unblock(j *state.Job) {
	j.Blocked = false
	for _, st := range j.Stages {
		if len(st.Parents) == 0 {
			e.stageReady(st)
		}
	}
}

func (e *Engine) stageReady(st *state.Stage) {
	if st.Ready {
		return
	}
	st.Ready = true
	j := st.Job
	for _, t := range st.Tasks {
		t.State = state.Waiting
		t.ReadyAt = e.now
		st.WaitQ.Add(t, e.rackOf)
	}
	if st.Started < len(st.Tasks) {
		j.WaitingStages.Add(st.Index)
	}
	j.Waiting += len(st.Tasks)
	if j.Waiting > 0 {
		e.waitingJobs.Add(j.Seq)
	}
	e.waitingTotal += len(st.Tasks)
	e.taskArrival = true
	e.observe(sched.Event{Kind: sched.StageReady, Job: sched.WrapJob(j), Stage: sched.WrapStage(st)})
	// A child with slow-start 0 needs no finished parent task: it is ready
	// with its parent (Hadoop starts such reducers with the job).
	for _, c := range st.Children {
		e.maybeReady(c)
	}
}

// maybeReady checks a child stage after one of its parents progressed.
func (e *Engine) maybeReady(st *state.Stage) {
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

// reserve takes machine m's slot for t, placed by the plan of the decision
// under way: from now on the view shows the slot taken and the task no
// longer waiting. startTask starts it when the call returns.
func (e *Engine) reserve(t *state.Task, m int) {
	mc := e.machines[m]
	j := t.Job()
	t.State = state.Planned
	t.Machine = m
	mc.Free--
	if mc.Free == 0 {
		e.free.set(m, false)
	}
	mc.InputPhase++
	mc.Planned = append(mc.Planned, t)
	e.held++
	j.Waiting--
	if j.Waiting == 0 {
		e.waitingJobs.Remove(j.Seq)
	}
	e.waitingTotal--
	t.Stage.Started++
	if t.Stage.Started == len(t.Stage.Tasks) {
		j.WaitingStages.Remove(t.Stage.Index)
	}
	e.planned = append(e.planned, t)
}

// shuffleQueue queues what t fetches from its parent tasks that are done
// (and counts those it still waits for), merged per source machine (or
// rack: sourceKey) as FetchState.Add merges them, but through e.queued, a
// position per merge key, instead of a scan of the queue per parent task: a reducer of a
// large job has thousands of maps on hundreds of machines.
func (e *Engine) shuffleQueue(t *state.Task, m int) {
	f := t.Fetch
	if len(e.queued) < len(e.machines)+e.sc.Racks {
		e.queued = make([]int32, len(e.machines)+e.sc.Racks)
	}
	touched := e.touched[:0]
	for _, edge := range t.Stage.Parents {
		for _, p := range edgeTasks(edge.Parent.Tasks, edge.Pattern, t.Index) {
			e.stats.edgeVisits++
			if p.State != state.Done {
				f.Outstanding++ // fetched when p finishes
				continue
			}
			b := contribution(p, t, edge.Pattern)
			if b <= 0 {
				continue
			}
			q := f.Queue(p.Machine == m)
			key := e.sourceKey(p.Machine, m)
			if k := e.queued[key]; k > 0 {
				(*q)[k-1].Merge(p.Machine, b)
				continue
			}
			*q = append(*q, state.NewSource(p.Machine, key, b, state.KindShuffle))
			e.queued[key] = int32(len(*q))
			touched = append(touched, key)
		}
	}
	for _, x := range touched {
		e.queued[x] = 0
	}
	e.touched = touched
}

// startTask begins the input phase of t, reserved on machine m.
func (e *Engine) startTask(t *state.Task, m int) {
	mc := e.machines[m]
	j := t.Job()
	t.State = state.InInput
	t.StartAt = e.now
	mc.Running = append(mc.Running, t)
	j.Running++
	if j.Start < 0 {
		j.Start = e.now
	}
	e.metrics.started(t)
	e.observe(sched.Event{Kind: sched.TaskStarted, Job: sched.WrapJob(j), Stage: sched.WrapStage(t.Stage), Task: sched.WrapTask(t)})
	t.Fetch = state.NewFetchState(&e.fetchIndexes)
	f := t.Fetch
	if e.gater != nil {
		f.Gated = e.gater.GateFetches(e.view, sched.WrapTask(t))
		e.checkScheduler()
	}
	if t.SplitBytes > 0 {
		src := e.nearestReplica(t, m)
		f.Add(src, e.sourceKey(src, m), t.SplitBytes, state.KindInput, src == m)
		if src == m {
			j.LocalMaps++
		}
		j.DFSMaps++
	}
	e.shuffleQueue(t, m)
	if t.Stage.ReadsJobParents {
		for _, out := range j.Parents {
			for _, mb := range out.ByMachine {
				f.Add(mb.Machine, e.sourceKey(mb.Machine, m), mb.Bytes*t.Share/t.Stage.TotalShare, state.KindDependent, mb.Machine == m)
			}
		}
	}
	e.fetchesReady(t)
	e.pumpFetches(t)
}

// nearestReplica: node-local, else a replica in the same rack, else the first.
func (e *Engine) nearestReplica(t *state.Task, m int) int {
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

// budget refuses a job that would bring the tasks of the jobs held at once
// beyond the scenario's engine.max_live_tasks: a workload too large for
// the machine ends with an error saying so, not in the out-of-memory
// killer. The running count only grows; when it passes the budget it is
// recounted from the active jobs.
func (e *Engine) budget(spec *workload.Job) error {
	limit := e.sc.MaxLiveTasks
	if limit <= 0 {
		limit = scenario.DefaultMaxLiveTasks
	}
	n := 0
	for i := range spec.Stages {
		n += spec.Stages[i].TotalTasks()
	}
	e.liveTasks += n
	if e.liveTasks <= limit {
		return nil
	}
	e.liveTasks = n
	for _, j := range e.jobs {
		e.liveTasks += j.TasksTotal
	}
	if e.liveTasks <= limit {
		return nil
	}
	return fmt.Errorf("workload: job %q (%d tasks) would bring the tasks held at once to %d, beyond engine.max_live_tasks = %d "+
		"(each task costs about 400 bytes of engine state); raise engine.max_live_tasks if the machine has the memory",
		spec.ID, n, e.liveTasks, limit)
}
