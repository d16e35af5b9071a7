// Package state holds the engine's mutable state of machines, jobs, stages
// and tasks. Only the engine (package sim) writes it; schedulers see it
// through the read-only types of package sched, which wrap these pointers.
// Being internal, it cannot be imported from outside the module, and a test
// in package sched keeps scheduler packages from importing it.
package state

import (
	"fmt"

	"github.com/netsched/netsched/workload"
)

// Access is the token the read-only wrappers of package sched ask for when
// they hand out the state they wrap. Code outside this module cannot name
// the type, so it cannot make one.
type Access struct{}

// TaskState is a task's lifecycle phase (PushBox Fig. 1c).
type TaskState int8

const (
	Admitting TaskState = iota // job submitted, stage not ready
	Waiting                    // ready, no slot
	Planned                    // placed by the plan of the decision pass under way; starts when the pass ends
	InInput                    // holds a slot, fetching input
	Computing                  // holds a slot, computing
	Done
)

func (s TaskState) String() string {
	return [...]string{"admitting", "waiting", "planned", "input", "computing", "done"}[s]
}

// Machine is one host.
type Machine struct {
	ID, Rack   int
	Slots      int
	Free       int // free slots (planned placements already taken)
	InputPhase int // tasks in their input phase here (planned ones included)
	NIC        float64
	Speed      float64 // compute speed relative to the reference machine (1)
	Running    []*Task // tasks holding a slot, in start order
	Planned    []*Task // tasks the current decision pass placed here, in plan order
}

// Job is an arrived, unfinished (or just finished) job.
type Job struct {
	ID      string
	Seq     int // arrival order, 0-based
	User    string
	Queue   string
	Arrival float64
	Start   float64 // first task start; -1 before
	Finish  float64 // -1 before
	Spec    *workload.Job
	Stages  []*Stage
	// WaitingStages indexes the stages with waiting tasks (ready, with a
	// task neither started nor planned), for offers that look for the
	// first of them without scanning every stage.
	WaitingStages IndexSet

	Recurring bool
	Class     string

	// Running counts tasks holding slots; Waiting counts waiting tasks.
	Running, Waiting int
	TasksTotal       int
	TasksDone        int
	// Blocked is true while parent jobs (workflow) are unfinished.
	Blocked bool

	Parents  []*JobOutput
	Children []*Job
	WaitFor  int // unfinished parent jobs

	BytesIn, BytesShuffle, BytesDep, BytesCross, BytesOut float64
	LocalMaps, DFSMaps                                    int
	// MapProgress is NAS Fig. 3d; -1 until a task of a stage with parents
	// starts.
	MapProgress float64
}

// Stage is a set of tasks of one job running the same function.
type Stage struct {
	Job     *Job
	Index   int
	ID      string
	Tasks   []*Task
	Parents []Edge
	// Children are the stages that read this one.
	Children []*Stage
	Ready    bool
	// Started/Finished count tasks that took a slot (or were planned) /
	// completed.
	Started, Finished int
	// HasFileInput is true when the stage's tasks read DFS blocks.
	HasFileInput bool
	// ReadsJobParents is true for a root stage of a job with parent jobs.
	ReadsJobParents bool

	TotalShare float64
	WaitQ      WaitQueue
}

// Edge is a dependency on a parent stage.
type Edge struct {
	Parent    *Stage
	Kind      workload.DepKind
	SlowStart float64
	Pattern   workload.Pattern
}

// Task is one unit of work.
type Task struct {
	Stage *Stage
	Index int
	State TaskState
	// Machine is where the task runs (-1 before it starts).
	Machine int
	// Replicas hold the task's DFS input split (nil without file input).
	Replicas []int
	Pin      int
	Class    int // network priority class of its flows

	// SplitBytes is the task's DFS input split (0: it reads no file);
	// Share its share of its parents' output under scatter-gather, of the
	// stage's TotalShare (from its workload.Task, kept alone because a
	// production day holds millions of waiting tasks).
	SplitBytes   float64
	Share        float64
	InputBytes   float64 // total bytes the task reads (file + parents)
	OutputBytes  float64
	ComputeTime  float64 // seconds on a machine of speed 1
	ReadyAt      float64
	StartAt      float64
	InputDoneAt  float64
	FinishAt     float64
	ReceivedByte float64 // bytes received so far (node-local included)
	// CrossRackBytes is what the task fetched from other racks;
	// SaturatedAtStart is the network monitor's verdict when it took its
	// slot (Dawn Fig. 14).
	CrossRackBytes   float64
	SaturatedAtStart bool

	Fetch *FetchState
}

// Job returns the task's job.
func (t *Task) Job() *Job { return t.Stage.Job }

func (t *Task) String() string {
	return fmt.Sprintf("task %s/%s[%d]", t.Stage.Job.ID, t.Stage.ID, t.Index)
}

// JobOutput is where a job's final output lives, aggregated per machine,
// kept while a job that reads it may still arrive or run (workflows).
type JobOutput struct {
	ID        string
	Done      bool
	Job       *Job    // while the job is active
	Total     float64 // bytes of final output
	ByMachine []MachineBytes
	// Readers counts the arrived, unfinished jobs that read this output.
	Readers int
}

// MachineBytes is an amount of data on one machine.
type MachineBytes struct {
	Machine int
	Bytes   float64
}

// Locality of a task with file input on a machine.
type Locality int8

const (
	NoPreference Locality = iota // no file input (reducers, DAG stages)
	NodeLocal
	RackLocal
	OffSwitch
)

func (l Locality) String() string {
	return [...]string{"no-preference", "node-local", "rack-local", "off-switch"}[l]
}

// LocalityOf classifies running t on machine m.
func LocalityOf(t *Task, m int, rackOf []int) Locality {
	if len(t.Replicas) == 0 {
		return NoPreference
	}
	best := OffSwitch
	for _, r := range t.Replicas {
		if r == m {
			return NodeLocal
		}
		if rackOf[r] == rackOf[m] {
			best = RackLocal
		}
	}
	return best
}
