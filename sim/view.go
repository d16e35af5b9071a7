package sim

import (
	"math"

	"github.com/netsched/netsched/network"
)

// View is a scheduler's window on the engine: read access to machines and
// active jobs, estimates through the knowledge model, the network monitor,
// and the few actions a scheduler may take besides placing tasks.
type View struct{ e *Engine }

// Now is the simulated time in seconds.
func (v *View) Now() float64 { return v.e.now }

// Machines are indexed by id; read-only.
func (v *View) Machines() []*Machine { return v.e.machines }

// Racks is the number of racks.
func (v *View) Racks() int { return v.e.sc.Racks }

// RackOf returns machine m's rack.
func (v *View) RackOf(m int) int { return v.e.rackOf[m] }

// Jobs are the active (arrived, unfinished) jobs in arrival order; read-only.
func (v *View) Jobs() []*Job { return v.e.jobs }

// Job finds an active job by id.
func (v *View) Job(id string) *Job { return v.e.jobsByID[id] }

// WaitingTasks is the number of waiting tasks in the cluster.
func (v *View) WaitingTasks() int { return v.e.waitingTotal }

// Heartbeat is the node heartbeat interval in seconds.
func (v *View) Heartbeat() float64 { return v.e.sc.Heartbeat }

// Seed is the scenario seed (schedulers derive their own random streams).
func (v *View) Seed() uint64 { return v.e.sc.Seed }

// Monitor is the network monitor's latest smoothed reading.
func (v *View) Monitor() network.Sample { return v.e.net.Monitor() }

// SetTaskClass changes the network priority class of a task, and so of its
// flows in flight and those it starts later (PushBox re-orders
// priorities). Each flow's class is derived as when it started: through
// the scheduler's FlowClass when it has one, so a flow it classes by its
// source (PushBox's intra-rack class) keeps that class.
func (v *View) SetTaskClass(t *Task, class int) {
	if class < 0 {
		v.e.fail("scheduler %T set a negative class %d on %s", v.e.sched, class, t)
		return
	}
	t.Class = class
	for _, rec := range v.e.flowsOf(t) {
		c, ok := v.e.flowClass(t, rec.src)
		if !ok {
			return
		}
		v.e.net.SetClass(v.e.now, rec.id, c)
	}
}

// RemainingInput is the bytes a task in its input phase still has to
// receive over the network or locally, as the scheduler would estimate it.
func (v *View) RemainingInput(t *Task) float64 {
	if t.State != InInput {
		if t.State == Waiting || t.State == Admitting {
			return v.Estimate(t).Input
		}
		return 0
	}
	left := t.inputBytes - t.receivedByte
	for _, rec := range v.e.flowsOf(t) {
		left -= rec.bytes - v.e.net.Remaining(rec.id)
	}
	return math.Max(0, left) * v.e.knowledge.factor(t, 0)
}

// Locality of running task t on machine m for a task with file input.
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

// Locality classifies running t on machine m.
func (v *View) Locality(t *Task, m int) Locality { return localityOf(t, m, v.e.rackOf) }

func localityOf(t *Task, m int, rackOf []int) Locality {
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

// Waiting-task lookups on a stage. Each returns nil when none fits; all
// respect pins (a pinned task is offered only its machine).

// NextWaiting is the first waiting task (by index) that may run on m.
func (s *Stage) NextWaiting(m int) *Task {
	if t := firstIn(s.waiting.pinned, m); t != nil {
		return t
	}
	return s.waiting.order.first()
}

// LocalWaiting is a waiting task with a replica on m (or pinned to m).
func (s *Stage) LocalWaiting(m int) *Task {
	if t := firstIn(s.waiting.pinned, m); t != nil {
		return t
	}
	return firstIn(s.waiting.byMachine, m)
}

// RackLocalWaiting is a waiting task with a replica in rack r.
func (s *Stage) RackLocalWaiting(r int) *Task { return firstIn(s.waiting.byRack, r) }

// WaitingCount is the number of waiting tasks of the stage.
func (s *Stage) WaitingCount() int {
	if !s.Ready {
		return 0
	}
	return len(s.Tasks) - s.Started
}

// ForEachWaiting calls fn on waiting tasks in index order until it returns false.
func (s *Stage) ForEachWaiting(fn func(t *Task) bool) {
	if !s.Ready {
		return
	}
	for _, t := range s.Tasks {
		if t.State == Waiting && !fn(t) {
			return
		}
	}
}

func (e *Engine) flowsOf(t *Task) []*flowRec {
	if t.fetch == nil {
		return nil
	}
	return t.fetch.flows
}
