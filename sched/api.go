// Package sched is the scheduler-facing API of netsched: the interfaces a
// scheduler implements, the read-only view of the engine it decides from,
// the Plan it returns its decisions in, and the registry that builds
// schedulers and network policies by name from a scenario.
//
// A scheduler implements Scheduler and, optionally, any of the extension
// points below; the engine discovers them by type assertion (as
// kube-scheduler plugins are). Every call into a scheduler gets a View and,
// where it may decide something, a *Plan. Decisions are validated when they
// enter the plan: an invalid one fails the run with an error naming the
// scheduler, the decision and the reason. Within one decision pass the view
// reflects what the plan already proposes — free slots, input-phase counts
// and waiting tasks — so no scheduler keeps a shadow of engine state; the
// engine starts the planned tasks, in plan order, when the call returns.
package sched

import (
	"errors"
	"iter"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// Scheduler is the one required interface: node offers, as in Hadoop.
// Offer is called when machine m has a free slot at a scheduling
// opportunity; it places at most what it wants in p (usually one task on
// m) and places nothing to leave the slot free for now. The engine offers
// m again while the scheduler places tasks and m has free slots.
type Scheduler interface {
	Offer(v View, m int, p *Plan)
}

// Global schedulers (PushBox, CSS) see every opportunity of an instant at
// once and place any number of tasks. When implemented, it replaces
// per-machine Offer calls (Offer is then only used on heartbeats).
type Global interface {
	Schedule(v View, o Opportunity, p *Plan)
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
// random phase per machine. A heartbeat is an Offer.
type Heartbeater interface {
	Heartbeats() bool
}

// RackHeartbeater schedulers (Dawn) decide per rack: every heartbeat
// interval, each rack with a free slot and waiting work gets one call, on a
// random phase per rack. It replaces machine offers and machine heartbeats;
// the scheduler places tasks on the rack's machines (View.RackMachines).
type RackHeartbeater interface {
	RackHeartbeat(v View, rack int, p *Plan)
}

// FlowClasser picks the priority class (lower is served first) of every flow
// a task starts. Without it every flow gets its task's class (0 unless a
// plan set another). Re-classing later is Plan.SetClass.
type FlowClasser interface {
	FlowClass(v View, t Task, src int) int
}

// DataPlacer chooses the machines holding the replicas of a task's input
// split (JobPacker, Corral). It is called when the job's input is uploaded
// to the DFS: when the engine reads the job from the workload, before the
// job arrives (View.Jobs does not list it yet). Returning nil keeps the
// HDFS default placement.
type DataPlacer interface {
	PlaceInput(v View, in InputSplit) []int
}

// InputSplit is one task's DFS input, to be placed.
type InputSplit struct {
	Job      *workload.Job // the job as the workload describes it
	Stage    int           // stage index
	Task     int           // task index in the stage
	Bytes    float64       // the split's size as the knowledge model estimates it
	Replicas int           // how many replicas to place
}

// Planner schedulers plan ahead (JobPacker, Corral): Plan is called once
// before the first event with the workload as the scheduler may know it —
// every job with its arrival time and estimated profile, through the
// knowledge model. The engine reads the whole workload for it; schedulers
// that do not ask get the workload streamed.
type Planner interface {
	Plan(v View, w []Forecast) error
}

// Forecast is what a planner may know of a job before it arrives.
type Forecast struct {
	ID        string
	Arrival   float64 // predicted arrival (the workload's, for now exact)
	Recurring bool
	User      string
	Queue     string
	After     []string // parent jobs (workflows)
	Stages    []StageForecast
}

// StageForecast is a stage's estimated profile.
type StageForecast struct {
	ID      string
	Tasks   int
	Parents []string // parent stage ids
	Input   float64  // estimated bytes read from the DFS, all tasks
	Output  float64  // estimated bytes written, all tasks (fixed outputs only; ratio outputs are estimated from Input)
	Compute float64  // estimated seconds of compute, all tasks on a machine of speed 1
}

// FetchGater schedulers hold a task's input fetches (JobPacker aggregates
// a reducer's shuffle per source rack): when GateFetches returns true for
// a task as it starts, its transfers from other machines wait until the
// scheduler releases them with Plan.ReleaseFetch or Plan.ReleaseRack
// (node-local bytes are never held). View.Fetches shows the bytes held per
// source. FetchesReady is called whenever a gated task's held bytes grew.
type FetchGater interface {
	GateFetches(v View, t Task) bool
	FetchesReady(v View, t Task, p *Plan)
}

// NetworkPolicy sets the network side (Varys, Aalo, priority orders). It
// is registered like a scheduler and combined with one in a scenario
// (`scheduler: {name: fair, network: fifo}`). When a scenario names one, it
// sets every flow's class in place of the scheduler's own FlowClass.
type NetworkPolicy interface {
	FlowClasser
}

// CoflowRater is a network policy that sets every flow's rate itself
// (Varys, Aalo) rather than leaving the sharing to classes and max-min: a
// job's flows in flight are its coflow. The engine calls CoflowRates once
// per instant at which flows started or finished, after all of that
// instant's changes, and at the time the previous call returned (+Inf:
// none), such as Aalo's next queue crossing. Rates are computed from
// scratch each time; the engine pins every flow to the rate set (an
// explicit rate, served before every class) and passes on only the rates
// that changed. The policy must keep every link within its capacity; check
// mode verifies it. Hybrid (OCS) networks are refused at the start of the
// run: a flow's links change with the circuit schedule.
type CoflowRater interface {
	// CoflowRates sets Rate (bytes/s, >= 0) of every flow in cs, whose
	// coflows are in job arrival order. links holds every link's capacity
	// in bytes/s, indexed as CoflowFlow.Links.
	CoflowRates(v View, links []float64, cs []Coflow) (next float64, err error)
}

// Coflow is one job's flows in flight, for a CoflowRater.
type Coflow struct {
	Job Job
	// Sent is the bytes the job's flows delivered so far, finished flows
	// included (attained service, as Aalo counts it).
	Sent  float64
	Flows []CoflowFlow // in start order
}

// CoflowFlow is one flow in flight; the policy sets Rate.
type CoflowFlow struct {
	Task      Task    // the task receiving it
	Src       int     // the sending machine
	Size      float64 // bytes at its start
	Remaining float64 // bytes left now
	Links     []int   // its route: link indices (network.API Links order), at most four
	Rate      float64 // set by CoflowRates
}

// Observer is told about lifecycle events after the engine applied them.
// It may change flow classes in p (PushBox re-ranks a machine's flows when
// a task starts); placements are not allowed there.
type Observer interface {
	Observe(v View, e Event, p *Plan)
}

// Ticker is called every TickInterval seconds of simulated time while work
// remains (periodic recomputations such as NAS's TrafficThreshold).
type Ticker interface {
	TickInterval() float64
	Tick(v View)
}

// RepeatTicker is a Ticker whose Tick depends on nothing that stays still
// while nothing else happens (not on the time): Ticks(v, n) does what n calls
// to Tick in a row, with nothing in between, would do. The engine then passes
// an idle stretch (a long transfer on a slow link) in one step instead of a
// tick per interval; it calls Ticks at the first of the n ticks. (A wrapper
// that embeds a RepeatTicker and overrides Tick must override Ticks too.)
type RepeatTicker interface {
	Ticker
	Ticks(v View, n int)
}

// Initializer is called once before the first event.
type Initializer interface {
	Init(v View) error
}

// Failer lets a scheduler stop the run with an error it can only detect
// while running (a job naming a queue that does not exist). The engine
// checks Err after every call into the scheduler.
type Failer interface {
	Err() error
}

// ErrCheck is wrapped by every error of a failed check-mode assertion (the
// engine's invariants, a scheduler's own checks), so that a broken
// invariant can be told from an input the run rightly rejects.
var ErrCheck = errors.New("check")

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

// Event is one lifecycle event; Task is zero for job/stage events and Stage
// zero for job events.
type Event struct {
	Kind  EventKind
	Job   Job
	Stage Stage
	Task  Task
}

// Estimate is what a scheduler may know about a task.
type Estimate struct {
	Input   float64 // bytes the task reads (file input plus parent output)
	Compute float64 // seconds of compute (on the machine asked for, or speed 1)
	Output  float64 // bytes it writes
}

// Fetch is queued input of a task from one source machine.
type Fetch struct {
	Machine int // the first of its machines when FromRack
	Rack    int
	// FromRack: bytes of several machines of Rack, fetched as one transfer
	// (network.transfers: per-rack); releasing any of them releases it.
	FromRack bool
	Bytes    float64 // as the knowledge model estimates them
	Kind     string  // input, shuffle or dependent
	Held     bool    // held by fetch gating
}

// Output is where a finished (or running) job's final output lives.
type Output struct {
	Job       string
	Done      bool
	Total     float64
	ByMachine []MachineBytes // machines in id order
	ByRack    []float64      // bytes per rack
}

// MachineBytes is an amount of data on one machine.
type MachineBytes struct {
	Machine int
	Bytes   float64
}

// View is a scheduler's window on the engine: read access to machines and
// active jobs, estimates through the knowledge model, the network monitor.
// It reflects the plan of the call under way.
type View interface {
	Now() float64       // simulated seconds
	Seed() uint64       // the scenario seed (schedulers derive their own streams)
	Heartbeat() float64 // node heartbeat interval, seconds
	Checking() bool     // the run asserts invariants (check mode)

	NumMachines() int
	Machine(m int) Machine
	// FreeMachines lists the machines with a free slot (this pass's plan
	// deducted) in id order, without visiting the others.
	FreeMachines() iter.Seq[int]
	Racks() int
	RackOf(m int) int
	RackMachines(r int) []int // machines of rack r in id order; read only

	// Jobs are the active (arrived, unfinished) jobs in arrival order.
	Jobs() iter.Seq2[int, Job]
	// WaitingJobs are the active jobs with waiting tasks (Waiting() > 0),
	// in arrival order, without visiting the others.
	WaitingJobs() iter.Seq[Job]
	NumJobs() int
	Job(id string) (Job, bool)
	WaitingTasks() int // waiting tasks in the cluster, this pass's plan deducted

	Estimate(t Task) Estimate
	EstimateOn(t Task, m int) Estimate // compute on machine m's speed
	// RemainingInput is the bytes a task still has to receive as the
	// knowledge model estimates them (all of its input before it starts).
	RemainingInput(t Task) float64
	// Fetches lists a task's queued sources (held ones included).
	Fetches(t Task) []Fetch
	Locality(t Task, m int) Locality

	// Output is where job id's final output lives, while a job that reads
	// it can still use it (workflows).
	Output(id string) (Output, bool)

	Monitor() network.Sample
	// ReceiveRateNow is the exact current rate, in bytes/s, at which
	// machine m receives input over the network (node-local reads aside).
	ReceiveRateNow(m int) float64
	// Oversubscribed reports whether cross-rack traffic has less capacity
	// than the machines' NICs.
	Oversubscribed() bool
	// FlowsInFlight is the network as a predictor of flow completion
	// times sees it (NEAT): the scenario's network policy, the links and
	// every flow in flight with its route and progress. Built on each call.
	FlowsInFlight() FlowState
}

// FlowState is every flow in flight and the links they cross, for
// schedulers that predict completion times from the network state (NEAT).
type FlowState struct {
	// Policy is the scenario's network policy (`scheduler.network`), ""
	// when it names none (flows are then classed by the scheduler's own
	// FlowClass, or all in one max-min fair class); PolicyParams are its
	// parameters as the scenario gave them. Read only.
	Policy       string
	PolicyParams map[string]any
	// Links describes every link, indexed as CoflowFlow.Links (network.API
	// Links order); shared across calls: read only.
	Links []network.LinkInfo
	// Flows are the flows in flight, by receiving machine in id order,
	// then by the receiving task's start order there, then by start order.
	// Rate is each flow's current rate.
	Flows []CoflowFlow
}
