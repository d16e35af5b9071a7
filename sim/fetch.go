package sim

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"

	"github.com/netsched/netsched/network"
)

// pumpFetches starts queued fetches up to the parallel-fetch limit (local
// bytes need no flow) and ends the input phase when nothing is left.
func (e *Engine) pumpFetches(t *state.Task) {
	f := t.Fetch
	for len(f.Pending) > 0 && (f.Active < e.sc.ParallelFetches || f.Pending[0].Machine == t.Machine) {
		s := f.PopPending()
		e.metrics.transfer(t, s, e.rackOf)
		if s.Machine == t.Machine {
			t.ReceivedByte += s.Bytes
			continue
		}
		class, ok := e.flowClass(t, s.Machine)
		if !ok {
			return
		}
		tag := e.flows.free()
		id, err := e.net.Start(e.now, network.FlowSpec{Src: s.Machine, Dst: t.Machine, Size: s.Bytes, Class: class, Tag: tag, Aggregate: s.Aggregate, FromRack: s.FromRack})
		if err != nil {
			e.fail("starting a flow for %s: %v", t, err)
			return
		}
		rec := &state.FlowRec{Task: t, Src: s.Machine, Bytes: s.Bytes, Kind: s.Kind, ID: id, Class: class, Start: e.now}
		e.flows.put(tag, rec)
		e.rates.started(rec)
		f.Flows = append(f.Flows, rec)
		f.Active++
	}
	if len(f.Pending) == 0 && len(f.Held) == 0 && f.Active == 0 && f.Outstanding == 0 && t.State == state.InInput {
		e.inputDone(t)
	}
}

// sourceKey is the merge key of bytes from machine m fetched by a task on
// machine dst (state.Key).
func (e *Engine) sourceKey(m, dst int) int {
	return state.Key(m, e.rackOf[m], e.rackOf[dst], len(e.machines), e.sc.TransfersPerRack)
}

// fetchesReady tells a FetchGater that a gated task's held bytes grew; its
// plan may release some at once.
func (e *Engine) fetchesReady(t *state.Task) {
	if !t.Fetch.Gated || len(t.Fetch.Held) == 0 {
		return
	}
	e.decide(func() { e.gater.FetchesReady(e.view, sched.WrapTask(t), e.plan) })
}

// release moves a gated task's held sources that match into its fetch
// queue, in the order they were held, and starts what the parallel-fetch
// limit allows.
func (e *Engine) release(t *state.Task, match func(state.Source) bool, what string) error {
	if err := e.checkRelease(t, match, what); err != nil {
		return err
	}
	e.moveHeld(t, match, 0)
	return nil
}

// releaseTogether releases the held sources of every task in ts that lie in
// rack r as one aggregated transfer: each flow carries the total, so the
// group is eligible for a circuit as a whole. Nothing moves unless every
// task can release.
func (e *Engine) releaseTogether(ts []*state.Task, r int) error {
	match := func(s state.Source) bool { return e.rackOf[s.Machine] == r }
	what := fmt.Sprintf("rack %d", r)
	total := 0.0
	for i, t := range ts {
		if err := e.checkRelease(t, match, what); err != nil {
			return err
		}
		for _, u := range ts[:i] {
			if u == t {
				return e.planFail("released %s twice in one aggregated transfer", t)
			}
		}
		for _, s := range t.Fetch.Held {
			if match(s) {
				total += s.Bytes
			}
		}
	}
	for _, t := range ts {
		e.moveHeld(t, match, total)
	}
	return nil
}

func (e *Engine) checkRelease(t *state.Task, match func(state.Source) bool, what string) error {
	f := t.Fetch
	if f == nil || !f.Gated {
		return e.planFail("released a fetch of %s from %s, but the task is %s with no gated fetches", t, what, t.State)
	}
	for _, s := range f.Held {
		if match(s) {
			return nil
		}
	}
	return e.planFail("released a fetch of %s from %s, which holds nothing for it", t, what)
}

func (e *Engine) moveHeld(t *state.Task, match func(state.Source) bool, aggregate float64) {
	f := t.Fetch
	kept := f.Held[:0]
	for _, s := range f.Held {
		if match(s) {
			s.Aggregate = aggregate
			f.Pending = append(f.Pending, s)
		} else {
			kept = append(kept, s)
		}
	}
	f.Held = kept
	e.pumpFetches(t)
}

// flowDone is the network's completion callback.
func (e *Engine) flowDone(c network.Completion) {
	e.stats.events++ // a flow completion is an event like any other
	e.progressAt = e.now
	rec := e.flows.take(c.Tag)
	if rec == nil {
		e.fail("network completed unknown flow tag %d", c.Tag)
		return
	}
	e.metrics.flow(rec, e.now)
	e.rates.finished(rec)
	if e.check && math.Abs(c.Size-rec.Bytes) > 1e-6*math.Max(1, rec.Bytes) {
		e.violated("flow of %s carried %g bytes, expected %g", rec.Task, c.Size, rec.Bytes)
	}
	t := rec.Task
	t.ReceivedByte += rec.Bytes
	t.Fetch.Active--
	for i, r := range t.Fetch.Flows {
		if r == rec {
			t.Fetch.Flows = append(t.Fetch.Flows[:i], t.Fetch.Flows[i+1:]...)
			break
		}
	}
	e.pumpFetches(t)
}

func (e *Engine) inputDone(t *state.Task) {
	if e.check && math.Abs(t.ReceivedByte-t.InputBytes) > 1e-6*math.Max(1, t.InputBytes) {
		e.violated("%s received %g bytes, its input is %g", t, t.ReceivedByte, t.InputBytes)
	}
	t.State = state.Computing
	t.InputDoneAt = e.now
	t.Fetch.Release()
	t.Fetch = nil
	m := e.machines[t.Machine]
	m.InputPhase--
	e.computing++
	e.markChanged(t.Machine)
	e.events.push(event{time: e.now + t.ComputeTime/m.Speed, kind: evComputeDone, task: t})
	e.observe(sched.Event{Kind: sched.InputDone, Job: sched.WrapJob(t.Job()), Stage: sched.WrapStage(t.Stage), Task: sched.WrapTask(t)})
}

// finishTask ends t's compute phase: frees its slot, delivers its output to
// running children and readies stages and jobs that were waiting for it.
func (e *Engine) finishTask(t *state.Task) {
	t.State = state.Done
	t.FinishAt = e.now
	st, j := t.Stage, t.Job()
	m := e.machines[t.Machine]
	m.Free++
	if m.Free == 1 {
		e.free.set(m.ID, true)
	}
	e.held--
	e.computing--
	for i, r := range m.Running {
		if r == t {
			m.Running = append(m.Running[:i], m.Running[i+1:]...)
			break
		}
	}
	j.Running--
	j.TasksDone++
	j.BytesOut += t.OutputBytes
	st.Finished++
	e.markChanged(t.Machine)
	e.metrics.task(t, e.rackOf)
	e.observe(sched.Event{Kind: sched.TaskFinished, Job: sched.WrapJob(j), Stage: sched.WrapStage(st), Task: sched.WrapTask(t)})
	for _, child := range st.Children {
		var edge state.Edge
		for _, pe := range child.Parents {
			if pe.Parent == st {
				edge = pe
			}
		}
		if child.Started > 0 {
			for _, c := range edgeTasks(child.Tasks, edge.Pattern, t.Index) {
				e.stats.edgeVisits++
				if c.State != state.InInput {
					continue
				}
				c.Fetch.Outstanding--
				if b := contribution(t, c, edge.Pattern); b > 0 {
					c.Fetch.Add(t.Machine, e.sourceKey(t.Machine, c.Machine), b, state.KindShuffle, t.Machine == c.Machine)
					e.fetchesReady(c)
				}
				e.pumpFetches(c)
			}
		}
		e.maybeReady(child)
	}
	if j.TasksDone == j.TasksTotal {
		e.finishJob(j)
	}
}

func (e *Engine) finishJob(j *state.Job) {
	j.Finish = e.now
	e.unfinished--
	out := e.outputs[j.ID]
	out.Done = true
	out.Job = nil
	perMachine := map[int]float64{}
	for _, st := range j.Stages {
		if len(st.Children) > 0 {
			continue
		}
		for _, t := range st.Tasks {
			perMachine[t.Machine] += t.OutputBytes
		}
	}
	for m := range e.machines {
		if b, ok := perMachine[m]; ok && b > 0 {
			out.ByMachine = append(out.ByMachine, state.MachineBytes{Machine: m, Bytes: b})
		}
	}
	e.metrics.job(j)
	e.observe(sched.Event{Kind: sched.JobFinished, Job: sched.WrapJob(j)})
	for _, c := range j.Children {
		c.WaitFor--
		if c.WaitFor == 0 {
			e.unblock(c)
		}
	}
	j.Children = nil
	// Release the job: streaming keeps memory proportional to active jobs.
	for i, a := range e.jobs {
		if a == j {
			e.jobs = append(e.jobs[:i], e.jobs[i+1:]...)
			break
		}
	}
	delete(e.jobsByID, j.ID)
}

// flowClass is the priority class of t's flow from src: the scheduler's
// FlowClass when it has one (it may treat some sources apart, as PushBox
// does intra-rack ones), else the task's class. ok is false when the run
// failed on a negative class.
func (e *Engine) flowClass(t *state.Task, src int) (class int, ok bool) {
	if e.flowClasser == nil {
		return t.Class, true
	}
	class = e.flowClasser.FlowClass(e.view, sched.WrapTask(t), src)
	if class < 0 || class > network.MaxClass {
		e.fail("scheduler %s gave %s flow class %d, outside [0, %d]", e.sc.Scheduler.Name, t, class, network.MaxClass)
		return 0, false
	}
	return class, true
}

// flowTable maps the tags the engine gives its flows to their records. A
// tag is a slot, reused once its flow finished (the network treats tags as
// opaque), so the table is as large as the most flows in flight, and
// costs no hashing: at full size a map here took 4% of a day's CPU.
type flowTable struct {
	recs  []*state.FlowRec
	slots []int64 // free slots, last freed first
}

// free returns the tag of a free slot (put must fill it).
func (ft *flowTable) free() int64 {
	if n := len(ft.slots); n > 0 {
		return ft.slots[n-1]
	}
	return int64(len(ft.recs))
}

func (ft *flowTable) put(tag int64, rec *state.FlowRec) {
	if n := len(ft.slots); n > 0 && ft.slots[n-1] == tag {
		ft.slots = ft.slots[:n-1]
		ft.recs[tag] = rec
		return
	}
	ft.recs = append(ft.recs, rec)
}

// take empties tag's slot and returns its record; nil for a tag not in use.
func (ft *flowTable) take(tag int64) *state.FlowRec {
	if tag < 0 || tag >= int64(len(ft.recs)) || ft.recs[tag] == nil {
		return nil
	}
	rec := ft.recs[tag]
	ft.recs[tag] = nil
	ft.slots = append(ft.slots, tag)
	return rec
}

// inFlight is the number of flows in the table.
func (ft *flowTable) inFlight() int { return len(ft.recs) - len(ft.slots) }
