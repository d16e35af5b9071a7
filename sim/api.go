package sim

// The scheduler API. A scheduler implements Scheduler and, optionally, any of
// the interfaces below; the engine discovers them by type assertion. A
// scheduler reads the engine's state through *View (the Job, Stage, Task and
// Machine structs it exposes are read-only to schedulers) and returns
// decisions as data; the engine validates and applies them.

// Scheduler is the one required interface: node offers, as in Hadoop. Offer
// is called when machine m has a free slot at a scheduling opportunity and
// returns the task to start there, or nil to leave the slot free for now.
type Scheduler interface {
	Offer(v *View, m int) *Task
}

// Global schedulers (PushBox, CSS) see every opportunity of an instant at
// once and return any number of placements. When implemented, it replaces
// per-machine Offer calls (Offer is then only used on heartbeats).
type Global interface {
	Schedule(v *View, o Opportunity) []Placement
}

// Placement starts Task on Machine.
type Placement struct {
	Task    *Task
	Machine int
}

// Opportunity says why the engine is asking at this instant.
type Opportunity struct {
	// SlotChanged lists machines where a slot freed or a running task left
	// its input phase (PushBox's slot-change mode), in event order.
	SlotChanged []int
	// TaskArrival is true when tasks became waiting while slots are free
	// (PushBox's task-arrival mode).
	TaskArrival bool
}

// Heartbeater schedulers also receive periodic node heartbeats (delay
// scheduling counts skipped opportunities), at the scenario's interval with a
// random phase per machine.
type Heartbeater interface {
	Heartbeats() bool
}

// FlowClasser picks the priority class (lower is served first) of every flow
// a task starts. Without it every flow is class 0 (max-min fair).
// Re-classing later is done with View.SetTaskClass.
type FlowClasser interface {
	FlowClass(v *View, t *Task, src int) int
}

// DataPlacer chooses the machines holding the replicas of a task's input
// split (JobPacker, Corral); it is called when the job arrives. Returning nil
// keeps the HDFS default placement.
type DataPlacer interface {
	PlaceInput(v *View, t *Task, replicas int) []int
}

// Observer is told about lifecycle events after the engine applied them.
type Observer interface {
	Observe(v *View, e Event)
}

// Ticker is called every TickInterval seconds of simulated time while work
// remains (periodic recomputations such as NAS's TrafficThreshold).
type Ticker interface {
	TickInterval() float64
	Tick(v *View)
}

// Initializer is called once before the first event.
type Initializer interface {
	Init(v *View) error
}

// EventKind names a lifecycle event.
type EventKind int

const (
	JobArrived EventKind = iota
	JobFinished
	StageReady
	TaskStarted
	InputDone
	TaskFinished
)

func (k EventKind) String() string {
	return [...]string{"job-arrived", "job-finished", "stage-ready", "task-started", "input-done", "task-finished"}[k]
}

// Event is one lifecycle event; Task is nil for job/stage events and Stage
// nil for job events.
type Event struct {
	Kind  EventKind
	Job   *Job
	Stage *Stage
	Task  *Task
}

// Failer lets a scheduler stop the run with an error it can only detect
// while running (a job naming a queue that does not exist). The engine
// checks Err after every call into the scheduler.
type Failer interface {
	Err() error
}
