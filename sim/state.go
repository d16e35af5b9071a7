package sim

import "github.com/netsched/netsched/workload"

// The structs below are the engine's state. Schedulers may read every
// exported field (through the pointers a View hands out) but must never
// write them: decisions go back to the engine as return values.

// TaskState is a task's lifecycle phase (PushBox Fig. 1c).
type TaskState int8

const (
	Admitting TaskState = iota // job submitted, stage not ready
	Waiting                    // ready, no slot
	InInput                    // holds a slot, fetching input
	Computing                  // holds a slot, computing
	Done
)

func (s TaskState) String() string {
	return [...]string{"admitting", "waiting", "input", "computing", "done"}[s]
}

// Machine is one host.
type Machine struct {
	ID, Rack   int
	Slots      int
	Free       int // free slots
	InputPhase int // tasks in their input phase here
	NIC        float64
	Running    []*Task // tasks holding a slot, in start order
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

	Recurring bool
	Class     string

	// Running counts tasks holding slots; Waiting counts waiting tasks.
	Running, Waiting int
	TasksTotal       int
	TasksDone        int
	// Blocked is true while parent jobs (workflow) are unfinished.
	Blocked bool

	parents  []*jobOutput
	children []*Job
	waitFor  int // unfinished parent jobs

	bytesIn, bytesShuffle, bytesDep, bytesCross, bytesOut float64
	localMaps, dfsMaps                                    int
	// mapProgress is NAS Fig. 3d (see collector.started); -1 until a
	// task of a stage with parents starts.
	mapProgress float64
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
	// Started/Finished count tasks that took a slot / completed.
	Started, Finished int
	// HasFileInput is true when the stage's tasks read DFS blocks.
	HasFileInput bool
	// ReadsJobParents is true for a root stage of a job with parent jobs.
	ReadsJobParents bool

	totalShare float64
	waiting    waitQueue
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

	// Truth, hidden behind View.Estimate for schedulers that honour knowledge models.
	spec         workload.Task
	inputBytes   float64 // total bytes the task reads (file + parents)
	outputBytes  float64
	computeTime  float64
	ReadyAt      float64
	StartAt      float64
	InputDoneAt  float64
	FinishAt     float64
	receivedByte float64 // bytes received so far (node-local included)

	fetch *fetchState
}

// Job returns the task's job.
func (t *Task) Job() *Job { return t.Stage.Job }

// jobOutput is where a finished job's final output lives, aggregated per
// machine, kept for the jobs that read it (workflows).
type jobOutput struct {
	id        string
	done      bool
	job       *Job    // while the parent is active
	total     float64 // bytes of final output
	byMachine []machineBytes
}

type machineBytes struct {
	machine int
	bytes   float64
}
