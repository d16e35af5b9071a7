package sim

import (
	"math"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// byteKind says why bytes moved (for the bytes-by-kind measures).
type byteKind int8

const (
	kindInput     byteKind = iota // file (DFS) input reads
	kindShuffle                   // parent-stage output of the same job
	kindDependent                 // parent-job output (workflows)
	numKinds
)

// fetchState is a task's input phase: sources not yet fetched (one entry per
// source machine, merged while waiting), flows in flight, and parent tasks
// whose output it still expects.
type fetchState struct {
	pending     []source
	active      int
	outstanding int
	flows       []*flowRec // in flight
}

type source struct {
	machine int
	bytes   float64
	kind    byteKind
}

// add queues bytes from a machine, merging with a queued fetch from the
// same machine and kind so that one flow carries them (a reducer fetches
// per host, not per map).
func (f *fetchState) add(m int, b float64, k byteKind) {
	for i := range f.pending {
		if f.pending[i].machine == m && f.pending[i].kind == k {
			f.pending[i].bytes += b
			return
		}
	}
	f.pending = append(f.pending, source{m, b, k})
}

// pumpFetches starts queued fetches up to the parallel-fetch limit (local
// bytes need no flow) and ends the input phase when nothing is left.
func (e *Engine) pumpFetches(t *Task) {
	f := t.fetch
	for len(f.pending) > 0 && (f.active < e.sc.ParallelFetches || f.pending[0].machine == t.Machine) {
		s := f.pending[0]
		f.pending = f.pending[1:]
		e.metrics.transfer(t, s, e.rackOf)
		if s.machine == t.Machine {
			t.receivedByte += s.bytes
			continue
		}
		class, ok := e.flowClass(t, s.machine)
		if !ok {
			return
		}
		e.flowSeq++
		id, err := e.net.Start(e.now, network.FlowSpec{Src: s.machine, Dst: t.Machine, Size: s.bytes, Class: class, Tag: e.flowSeq})
		if err != nil {
			e.fail("starting a flow for %s: %v", t, err)
			return
		}
		rec := &flowRec{task: t, src: s.machine, bytes: s.bytes, kind: s.kind, id: id}
		e.flows[e.flowSeq] = rec
		f.flows = append(f.flows, rec)
		f.active++
	}
	if len(f.pending) == 0 && f.active == 0 && f.outstanding == 0 && t.State == InInput {
		e.inputDone(t)
	}
}

// flowDone is the network's completion callback.
func (e *Engine) flowDone(c network.Completion) {
	e.stats.events++ // a flow completion is an event like any other
	rec := e.flows[c.Tag]
	if rec == nil {
		e.fail("network completed unknown flow tag %d", c.Tag)
		return
	}
	delete(e.flows, c.Tag)
	if e.check && math.Abs(c.Size-rec.bytes) > 1e-6*math.Max(1, rec.bytes) {
		e.fail("check: flow of %s carried %g bytes, expected %g", rec.task, c.Size, rec.bytes)
	}
	t := rec.task
	t.receivedByte += rec.bytes
	t.fetch.active--
	for i, r := range t.fetch.flows {
		if r == rec {
			t.fetch.flows = append(t.fetch.flows[:i], t.fetch.flows[i+1:]...)
			break
		}
	}
	e.pumpFetches(t)
}

func (e *Engine) inputDone(t *Task) {
	if e.check && math.Abs(t.receivedByte-t.inputBytes) > 1e-6*math.Max(1, t.inputBytes) {
		e.fail("check: %s received %g bytes, its input is %g", t, t.receivedByte, t.inputBytes)
	}
	t.State = Computing
	t.InputDoneAt = e.now
	t.fetch = nil
	m := e.machines[t.Machine]
	m.InputPhase--
	e.computing++
	e.markChanged(t.Machine)
	e.events.push(event{time: e.now + t.computeTime, kind: evComputeDone, task: t})
	e.observe(Event{Kind: InputDone, Job: t.Job(), Stage: t.Stage, Task: t})
}

// finishTask ends t's compute phase: frees its slot, delivers its output to
// running children and readies stages and jobs that were waiting for it.
func (e *Engine) finishTask(t *Task) {
	t.State = Done
	t.FinishAt = e.now
	st, j := t.Stage, t.Job()
	m := e.machines[t.Machine]
	m.Free++
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
	j.bytesOut += t.outputBytes
	st.Finished++
	e.markChanged(t.Machine)
	e.metrics.task(t, e.rackOf)
	e.observe(Event{Kind: TaskFinished, Job: j, Stage: st, Task: t})
	for _, child := range st.Children {
		var edge Edge
		for _, pe := range child.Parents {
			if pe.Parent == st {
				edge = pe
			}
		}
		if child.Started > 0 {
			for _, c := range child.Tasks {
				if c.State != InInput || edge.Pattern == workload.OneToOne && c.Index != t.Index {
					continue
				}
				c.fetch.outstanding--
				if b := contribution(t, c, edge.Pattern); b > 0 {
					c.fetch.add(t.Machine, b, kindShuffle)
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

func (e *Engine) finishJob(j *Job) {
	j.Finish = e.now
	e.unfinished--
	out := e.outputs[j.ID]
	out.done = true
	out.job = nil
	perMachine := map[int]float64{}
	for _, st := range j.Stages {
		if len(st.Children) > 0 {
			continue
		}
		for _, t := range st.Tasks {
			perMachine[t.Machine] += t.outputBytes
		}
	}
	for m := range e.machines {
		if b, ok := perMachine[m]; ok && b > 0 {
			out.byMachine = append(out.byMachine, machineBytes{m, b})
		}
	}
	e.metrics.job(j)
	e.observe(Event{Kind: JobFinished, Job: j})
	for _, c := range j.children {
		c.waitFor--
		if c.waitFor == 0 {
			e.unblock(c)
		}
	}
	j.children = nil
	// Release the job: streaming keeps memory proportional to active jobs.
	for i, a := range e.jobs {
		if a == j {
			e.jobs = append(e.jobs[:i], e.jobs[i+1:]...)
			break
		}
	}
	delete(e.jobsByID, j.ID)
}

func (e *Engine) observe(ev Event) {
	if e.observer != nil {
		e.observer.Observe(e.view, ev)
		e.checkScheduler()
	}
}

// flowClass is the priority class of t's flow from src: the scheduler's
// FlowClass when it has one (it may treat some sources apart, as PushBox
// does intra-rack ones), else the task's class. ok is false when the run
// failed on a negative class.
func (e *Engine) flowClass(t *Task, src int) (class int, ok bool) {
	if e.flowClasser == nil {
		return t.Class, true
	}
	class = e.flowClasser.FlowClass(e.view, t, src)
	if class < 0 {
		e.fail("scheduler %T gave %s a negative flow class %d", e.sched, t, class)
		return 0, false
	}
	return class, true
}
