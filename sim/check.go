package sim

import (
	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/workload"
)

// checkInvariants asserts, after every instant, what must hold in any run
// (scenario `engine: {check: true}`; tests run with it on). The first
// violation stops the run with the instant that broke it.
func (e *Engine) checkInvariants() {
	held, computing := 0, 0
	for _, m := range e.machines {
		busy := 0
		inInput := 0
		for _, t := range m.Running {
			busy++
			if t.State == state.InInput {
				inInput++
			}
			if t.Machine != m.ID || t.State != state.InInput && t.State != state.Computing {
				e.violated("%s is listed on machine %d in state %s", t, m.ID, t.State)
				return
			}
		}
		if busy > m.Slots || m.Free != m.Slots-busy || m.Free < 0 {
			e.violated("machine %d has %d of %d slots busy but %d free", m.ID, busy, m.Slots, m.Free)
			return
		}
		if e.free.has(m.ID) != (m.Free > 0) {
			e.violated("machine %d has %d free slots; in the free set: %v", m.ID, m.Free, e.free.has(m.ID))
			return
		}
		if inInput != m.InputPhase {
			e.violated("machine %d counts %d input-phase tasks, has %d", m.ID, m.InputPhase, inInput)
			return
		}
		held += busy
		computing += busy - inInput
		for _, t := range m.Running {
			if !t.Stage.Ready {
				e.violated("%s runs before its stage is ready", t)
				return
			}
			for _, edge := range t.Stage.Parents {
				if edge.Kind == workload.StartsAfter && edge.Parent.Finished < len(edge.Parent.Tasks) {
					e.violated("%s runs before parent stage %s finished", t, edge.Parent.ID)
					return
				}
			}
		}
	}
	if held != e.held || computing != e.computing {
		e.violated("the engine counts %d held slots and %d computing tasks, the machines have %d and %d", e.held, e.computing, held, computing)
		return
	}
	if n := e.flows.inFlight(); n != e.net.ActiveFlows() {
		e.violated("the engine holds %d flows in flight, the network %d", n, e.net.ActiveFlows())
		return
	}
	if !e.waitingStagesIndexed() {
		return
	}
	links, load := e.net.Links(), e.net.LinkLoad()
	for i, l := range links {
		if load[i] > l.Capacity*(1+1e-9)+1e-9 {
			e.violated("link %s carries %g bytes/s, above its capacity %g", l.Name, load[i], l.Capacity)
			return
		}
	}
}

// waitingStagesIndexed checks that every job's WaitingStages lists exactly
// its stages with waiting tasks (ready, not every task started), and that
// waitingJobs lists exactly the jobs with waiting tasks.
func (e *Engine) waitingStagesIndexed() bool {
	next := e.waitingJobs.Next(0)
	for _, j := range e.jobs {
		for next >= 0 && next < j.Seq {
			e.violated("job number %d is listed as waiting but is not active", next)
			return false
		}
		if listed := next == j.Seq; listed != (j.Waiting > 0) {
			e.violated("job %s has %d waiting tasks; in the waiting jobs: %v", j.ID, j.Waiting, listed)
			return false
		}
		if next == j.Seq {
			next = e.waitingJobs.Next(next + 1)
		}
	}
	if next >= 0 {
		e.violated("job number %d is listed as waiting but is not active", next)
		return false
	}
	for _, j := range e.jobs {
		next := j.WaitingStages.Next(0)
		for _, st := range j.Stages {
			waiting := st.Ready && st.Started < len(st.Tasks)
			if listed := next == st.Index; listed != waiting {
				e.violated("stage %s/%s has %d of %d tasks started (ready: %v); in the job's waiting stages: %v", j.ID, st.ID, st.Started, len(st.Tasks), st.Ready, listed)
				return false
			}
			if next == st.Index {
				next = j.WaitingStages.Next(next + 1)
			}
		}
	}
	return true
}

// violated stops the run with a failed invariant: the error wraps
// sched.ErrCheck, which a rejected input never does.
func (e *Engine) violated(format string, a ...any) {
	e.fail("%w: "+format, append([]any{sched.ErrCheck}, a...)...)
}
