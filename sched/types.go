package sched

import (
	"iter"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/workload"
)

// The read-only types below wrap the engine's state. They are small values
// (one pointer), comparable with == and usable as map keys; the zero value
// means "none". A scheduler cannot change the state through them: it
// returns decisions in a Plan.

// TaskState is a task's lifecycle phase (PushBox Fig. 1c).
type TaskState = state.TaskState

const (
	Admitting = state.Admitting // job submitted, stage not ready
	Waiting   = state.Waiting   // ready, no slot
	Planned   = state.Planned   // placed by the plan of the pass under way
	InInput   = state.InInput   // holds a slot, fetching input
	Computing = state.Computing // holds a slot, computing
	Done      = state.Done
)

// Locality of a task with file input on a machine.
type Locality = state.Locality

const (
	NoPreference = state.NoPreference // no file input (reducers, DAG stages)
	NodeLocal    = state.NodeLocal
	RackLocal    = state.RackLocal
	OffSwitch    = state.OffSwitch
)

// Machine is one host.
type Machine struct{ p *state.Machine }

// WrapMachine is for the engine.
func WrapMachine(p *state.Machine) Machine { return Machine{p} }

// State hands the engine the wrapped state; only code that can name
// state.Access (the engine) can call it.
func (m Machine) State(state.Access) *state.Machine { return m.p }

func (m Machine) IsZero() bool         { return m.p == nil }
func (m Machine) ID() int              { return m.p.ID }
func (m Machine) Rack() int            { return m.p.Rack }
func (m Machine) Slots() int           { return m.p.Slots }
func (m Machine) Free() int            { return m.p.Free }       // free slots, this pass's plan deducted
func (m Machine) InputPhase() int      { return m.p.InputPhase } // tasks in their input phase, planned ones included
func (m Machine) NIC() float64         { return m.p.NIC }        // bytes/s
func (m Machine) Speed() float64       { return m.p.Speed }      // compute speed, 1 = the reference machine
func (m Machine) NumRunning() int      { return len(m.p.Running) }
func (m Machine) NumPlanned() int      { return len(m.p.Planned) }
func (m Machine) RunningAt(i int) Task { return Task{m.p.Running[i]} }

// Running lists the tasks holding a slot, in start order.
func (m Machine) Running() iter.Seq2[int, Task] { return seq[state.Task, Task](m.p.Running) }

// Planned lists the tasks this pass's plan placed here, in plan order.
func (m Machine) Planned() iter.Seq2[int, Task] { return seq[state.Task, Task](m.p.Planned) }

// Job is an arrived job.
type Job struct{ p *state.Job }

// WrapJob is for the engine.
func WrapJob(p *state.Job) Job { return Job{p} }

// State hands the engine the wrapped state (see Machine.State).
func (j Job) State(state.Access) *state.Job { return j.p }

func (j Job) IsZero() bool      { return j.p == nil }
func (j Job) ID() string        { return j.p.ID }
func (j Job) Seq() int          { return j.p.Seq } // arrival order, 0-based
func (j Job) User() string      { return j.p.User }
func (j Job) Queue() string     { return j.p.Queue }
func (j Job) Arrival() float64  { return j.p.Arrival }
func (j Job) Start() float64    { return j.p.Start }  // first task start; -1 before
func (j Job) Finish() float64   { return j.p.Finish } // -1 before
func (j Job) Recurring() bool   { return j.p.Recurring }
func (j Job) Class() string     { return j.p.Class }
func (j Job) Running() int      { return j.p.Running } // tasks holding slots
func (j Job) Waiting() int      { return j.p.Waiting } // waiting tasks, this pass's plan deducted
func (j Job) TasksTotal() int   { return j.p.TasksTotal }
func (j Job) TasksDone() int    { return j.p.TasksDone }
func (j Job) Blocked() bool     { return j.p.Blocked } // parent jobs unfinished
func (j Job) NumStages() int    { return len(j.p.Stages) }
func (j Job) Stage(i int) Stage { return Stage{j.p.Stages[i]} }
func (j Job) String() string    { return "job " + j.p.ID }

// Spec is the job as the workload describes it (true sizes: a scheduler
// that honours the knowledge model uses View.Estimate instead). Read only.
func (j Job) Spec() *workload.Job { return j.p.Spec }

// Stages lists the job's stages in index order.
func (j Job) Stages() iter.Seq2[int, Stage] { return seq[state.Stage, Stage](j.p.Stages) }

// WaitingStages lists, in index order, the stages with waiting tasks
// (WaitingCount > 0), without visiting the others.
func (j Job) WaitingStages() iter.Seq2[int, Stage] {
	return func(yield func(int, Stage) bool) {
		set := &j.p.WaitingStages
		for i := set.Next(0); i >= 0; i = set.Next(i + 1) {
			if !yield(i, Stage{j.p.Stages[i]}) {
				return
			}
		}
	}
}

// ParentJobs are the ids of the jobs this one reads (a workflow's
// dependencies), in the workload's order.
func (j Job) ParentJobs() []string { return append([]string(nil), j.p.Spec.After...) }

// ChildJobs lists the arrived, unfinished jobs that wait for this one.
func (j Job) ChildJobs() iter.Seq2[int, Job] { return seq[state.Job, Job](j.p.Children) }

// Stage is a set of tasks of one job running the same function.
type Stage struct{ p *state.Stage }

// WrapStage is for the engine.
func WrapStage(p *state.Stage) Stage { return Stage{p} }

// State hands the engine the wrapped state (see Machine.State).
func (s Stage) State(state.Access) *state.Stage { return s.p }

func (s Stage) IsZero() bool      { return s.p == nil }
func (s Stage) Job() Job          { return Job{s.p.Job} }
func (s Stage) Index() int        { return s.p.Index }
func (s Stage) ID() string        { return s.p.ID }
func (s Stage) NumTasks() int     { return len(s.p.Tasks) }
func (s Stage) Task(i int) Task   { return Task{s.p.Tasks[i]} }
func (s Stage) NumParents() int   { return len(s.p.Parents) }
func (s Stage) NumChildren() int  { return len(s.p.Children) }
func (s Stage) Child(i int) Stage { return Stage{s.p.Children[i]} }
func (s Stage) Ready() bool       { return s.p.Ready }
func (s Stage) Started() int      { return s.p.Started } // tasks that took a slot or were planned
func (s Stage) Finished() int     { return s.p.Finished }

// ParentsDone reports whether every parent stage has finished all its
// tasks; a task of a stage whose parents are not done (a reducer under
// slow-start) fetches their output as it appears.
func (s Stage) ParentsDone() bool {
	for _, e := range s.p.Parents {
		if e.Parent.Finished < len(e.Parent.Tasks) {
			return false
		}
	}
	return true
}
func (s Stage) HasFileInput() bool    { return s.p.HasFileInput }
func (s Stage) ReadsJobParents() bool { return s.p.ReadsJobParents }
func (s Stage) String() string        { return "stage " + s.p.Job.ID + "/" + s.p.ID }

// Tasks lists the stage's tasks in index order.
func (s Stage) Tasks() iter.Seq2[int, Task] { return seq[state.Task, Task](s.p.Tasks) }

// Children lists the stages that read this one.
func (s Stage) Children() iter.Seq2[int, Stage] { return seq[state.Stage, Stage](s.p.Children) }

// Parent is the i-th dependency on a parent stage.
func (s Stage) Parent(i int) Edge {
	e := s.p.Parents[i]
	return Edge{Parent: Stage{e.Parent}, Kind: e.Kind, SlowStart: e.SlowStart, Pattern: e.Pattern}
}

// Parents lists the stage's dependencies.
func (s Stage) Parents() iter.Seq2[int, Edge] {
	return func(yield func(int, Edge) bool) {
		for i := range s.p.Parents {
			if !yield(i, s.Parent(i)) {
				return
			}
		}
	}
}

// Edge is a dependency on a parent stage.
type Edge struct {
	Parent    Stage
	Kind      workload.DepKind
	SlowStart float64
	Pattern   workload.Pattern
}

// Task is one unit of work.
type Task struct{ p *state.Task }

// WrapTask is for the engine.
func WrapTask(p *state.Task) Task { return Task{p} }

// State hands the engine the wrapped state (see Machine.State).
func (t Task) State(state.Access) *state.Task { return t.p }

func (t Task) IsZero() bool         { return t.p == nil }
func (t Task) Stage() Stage         { return Stage{t.p.Stage} }
func (t Task) Job() Job             { return Job{t.p.Stage.Job} }
func (t Task) Index() int           { return t.p.Index }
func (t Task) Phase() TaskState     { return t.p.State }
func (t Task) Machine() int         { return t.p.Machine } // -1 before it is placed
func (t Task) Pin() int             { return t.p.Pin }     // -1 when not pinned
func (t Task) Class() int           { return t.p.Class }   // network priority class of its flows
func (t Task) ReadyAt() float64     { return t.p.ReadyAt }
func (t Task) StartAt() float64     { return t.p.StartAt }
func (t Task) InputDoneAt() float64 { return t.p.InputDoneAt }
func (t Task) FinishAt() float64    { return t.p.FinishAt }
func (t Task) NumReplicas() int     { return len(t.p.Replicas) }
func (t Task) Replica(i int) int    { return t.p.Replicas[i] } // machine of the i-th replica of its input split
func (t Task) Share() float64       { return t.p.Share }       // partition share among its stage's tasks
func (t Task) String() string {
	if t.p == nil {
		return "no task"
	}
	return t.p.String()
}

// Replicas lists the machines holding the task's DFS input split.
func (t Task) Replicas() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i, m := range t.p.Replicas {
			if !yield(i, m) {
				return
			}
		}
	}
}

// HasReplicaOn reports whether machine m holds a replica of t's input.
func (t Task) HasReplicaOn(m int) bool {
	for _, r := range t.p.Replicas {
		if r == m {
			return true
		}
	}
	return false
}

// seq iterates a state slice as wrappers.
func seq[P any, W ~struct{ p *P }](xs []*P) iter.Seq2[int, W] {
	return func(yield func(int, W) bool) {
		for i, x := range xs {
			if !yield(i, W{x}) {
				return
			}
		}
	}
}

// Waiting-task lookups on a stage. Each returns the zero Task when none
// fits; all respect pins (a pinned task is offered only its machine) and
// skip tasks this pass's plan already placed.

// NextWaiting is the first waiting task (by index) that may run on m.
func (s Stage) NextWaiting(m int) Task {
	if t := state.FirstIn(s.p.WaitQ.Pinned, m); t != nil {
		return Task{t}
	}
	return Task{s.p.WaitQ.Order.First()}
}

// LocalWaiting is a waiting task with a replica on m (or pinned to m).
func (s Stage) LocalWaiting(m int) Task {
	if t := state.FirstIn(s.p.WaitQ.Pinned, m); t != nil {
		return Task{t}
	}
	return Task{state.FirstIn(s.p.WaitQ.ByMachine, m)}
}

// RackLocalWaiting is a waiting task with a replica in rack r.
func (s Stage) RackLocalWaiting(r int) Task { return Task{state.FirstIn(s.p.WaitQ.ByRack, r)} }

// WaitingCount is the number of waiting tasks of the stage.
func (s Stage) WaitingCount() int {
	if !s.p.Ready {
		return 0
	}
	return len(s.p.Tasks) - s.p.Started
}

// Waiting lists the stage's waiting tasks in index order.
func (s Stage) Waiting() iter.Seq2[int, Task] {
	return func(yield func(int, Task) bool) {
		if !s.p.Ready {
			return
		}
		for i, t := range s.p.Tasks {
			if t.State == state.Waiting && !yield(i, Task{t}) {
				return
			}
		}
	}
}
