package sim

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sched"
)

// view is the engine's implementation of sched.View and of the backend of
// the plans it hands to the scheduler.
type view struct {
	e     *Engine
	links []network.LinkInfo // the network's links, fixed for its life (FlowsInFlight)
}

var access state.Access

func unwrapTask(t sched.Task) *state.Task { return t.State(access) }

func (v *view) Now() float64       { return v.e.now }
func (v *view) Seed() uint64       { return v.e.sc.Seed }
func (v *view) Heartbeat() float64 { return v.e.sc.Heartbeat }
func (v *view) Checking() bool     { return v.e.check }
func (v *view) NumMachines() int   { return len(v.e.machines) }

// FreeMachines lists the machines with a free slot in id order.
func (v *view) FreeMachines() iter.Seq[int] { return v.e.free.all() }
func (v *view) Machine(m int) sched.Machine {
	if m < 0 || m >= len(v.e.machines) {
		return sched.Machine{}
	}
	return sched.WrapMachine(v.e.machines[m])
}
func (v *view) Racks() int               { return v.e.sc.Racks }
func (v *view) RackOf(m int) int         { return v.e.rackOf[m] }
func (v *view) RackMachines(r int) []int { return v.e.rackMachines[r] }
func (v *view) NumJobs() int             { return len(v.e.jobs) }
func (v *view) WaitingTasks() int        { return v.e.waitingTotal }
func (v *view) Monitor() network.Sample  { return v.e.net.Monitor() }
func (v *view) Jobs() iter.Seq2[int, sched.Job] {
	return func(yield func(int, sched.Job) bool) {
		for i, j := range v.e.jobs {
			if !yield(i, sched.WrapJob(j)) {
				return
			}
		}
	}
}

// WaitingJobs yields the active jobs with waiting tasks in arrival order:
// Jobs without the others, found through the engine's index (e.jobs is in
// Seq order, so each member is found by binary search).
func (v *view) WaitingJobs() iter.Seq[sched.Job] {
	return func(yield func(sched.Job) bool) {
		jobs := v.e.jobs
		for seq := v.e.waitingJobs.Next(0); seq >= 0; seq = v.e.waitingJobs.Next(seq + 1) {
			i, ok := slices.BinarySearchFunc(jobs, seq, func(j *state.Job, s int) int { return cmp.Compare(j.Seq, s) })
			if !ok {
				continue // cannot happen: checked in check mode
			}
			if !yield(sched.WrapJob(jobs[i])) {
				return
			}
			jobs = jobs[i+1:]
		}
	}
}

func (v *view) Job(id string) (sched.Job, bool) {
	j, ok := v.e.jobsByID[id]
	return sched.WrapJob(j), ok
}

func (v *view) Locality(t sched.Task, m int) sched.Locality {
	return state.LocalityOf(unwrapTask(t), m, v.e.rackOf)
}

// Estimate returns the knowledge model's estimate of t (exact by default),
// its compute time on a machine of speed 1.
func (v *view) Estimate(t sched.Task) sched.Estimate { return v.e.knowledge.estimate(unwrapTask(t), 1) }

// EstimateOn is the estimate with t's compute time on machine m.
func (v *view) EstimateOn(t sched.Task, m int) sched.Estimate {
	return v.e.knowledge.estimate(unwrapTask(t), v.e.machines[m].Speed)
}

// RemainingInput is the bytes a task in its input phase still has to
// receive over the network or locally, as the scheduler would estimate it.
func (v *view) RemainingInput(st sched.Task) float64 {
	t := unwrapTask(st)
	if t.State != state.InInput {
		if t.State == state.Waiting || t.State == state.Admitting || t.State == state.Planned {
			return v.Estimate(st).Input
		}
		return 0
	}
	left := t.InputBytes - t.ReceivedByte
	for _, rec := range v.e.flowsOf(t) {
		left -= rec.Bytes - v.e.net.Remaining(rec.ID)
	}
	return math.Max(0, left) * v.e.knowledge.factor(t, 0)
}

// Fetches lists a task's queued sources, held ones included.
func (v *view) Fetches(st sched.Task) []sched.Fetch {
	t := unwrapTask(st)
	if t.Fetch == nil {
		return nil
	}
	k := v.e.knowledge.factor(t, 0)
	var out []sched.Fetch
	for i, q := range [][]state.Source{t.Fetch.Pending, t.Fetch.Held} {
		for _, s := range q {
			out = append(out, sched.Fetch{Machine: s.Machine, Rack: v.e.rackOf[s.Machine], Bytes: s.Bytes * k, Kind: s.Kind.String(), Held: i == 1, FromRack: s.FromRack})
		}
	}
	return out
}

// Output is where job id's final output lives.
func (v *view) Output(id string) (sched.Output, bool) {
	o := v.e.outputs[id]
	if o == nil {
		return sched.Output{}, false
	}
	out := sched.Output{Job: o.ID, Done: o.Done, Total: o.Total, ByRack: make([]float64, v.e.sc.Racks)}
	for _, mb := range o.ByMachine {
		out.ByMachine = append(out.ByMachine, sched.MachineBytes{Machine: mb.Machine, Bytes: mb.Bytes})
		out.ByRack[v.e.rackOf[mb.Machine]] += mb.Bytes
	}
	return out, true
}

// ReceiveRateNow is the exact current rate, in bytes/s, at which machine m
// receives input over the network: the sum of the current rates of the
// flows into the tasks running there. Node-local reads are not included.
func (v *view) ReceiveRateNow(m int) float64 {
	if m < 0 || m >= len(v.e.machines) {
		return 0
	}
	sum := 0.0
	for _, t := range v.e.machines[m].Running {
		if t.State != state.InInput {
			continue
		}
		for _, rec := range v.e.flowsOf(t) {
			sum += v.e.net.Rate(rec.ID)
		}
	}
	return sum
}

// Oversubscribed reports whether cross-rack traffic has less capacity than
// the machines' NICs: a two-tier or hybrid network with an oversubscription
// ratio above 1, or a rack link slower than the sum of its rack's NICs.
func (v *view) Oversubscribed() bool {
	cfg := v.e.sc.Network
	if cfg.Kind == "" || cfg.Kind == network.NonBlocking {
		return false
	}
	if cfg.RackUp == 0 && cfg.RackDown == 0 {
		return cfg.Oversubscription > 1
	}
	nic := make([]float64, v.e.sc.Racks)
	for _, m := range v.e.machines {
		if m.Rack < len(nic) {
			nic[m.Rack] += m.NIC
		}
	}
	for _, sum := range nic {
		if cfg.RackUp > 0 && cfg.RackUp < sum || cfg.RackDown > 0 && cfg.RackDown < sum {
			return true
		}
	}
	return false
}

// FlowsInFlight lists the scenario's network policy, the links and every
// flow in flight with its route, by receiving machine, task start order
// and flow start order.
func (v *view) FlowsInFlight() sched.FlowState {
	e := v.e
	if v.links == nil {
		v.links = e.net.Links()
	}
	fs := sched.FlowState{Policy: e.sc.Scheduler.Network, PolicyParams: e.sc.Scheduler.NetworkParams, Links: v.links}
	q, _ := e.net.(network.Querier)
	var links []int
	for _, mc := range e.machines {
		for _, t := range mc.Running {
			for _, rec := range e.flowsOf(t) {
				start := len(links)
				if q != nil {
					links = q.Route(rec.ID, links)
				}
				fs.Flows = append(fs.Flows, sched.CoflowFlow{Task: sched.WrapTask(t), Src: rec.Src, Size: rec.Bytes,
					Remaining: e.net.Remaining(rec.ID), Rate: e.net.Rate(rec.ID), Links: links[start:len(links):len(links)]})
			}
		}
	}
	return fs
}

func (e *Engine) flowsOf(t *state.Task) []*state.FlowRec {
	if t.Fetch == nil {
		return nil
	}
	return t.Fetch.Flows
}

// The plan backend. A call's kind decides which entries it may make.
type callKind int8

const (
	callDecide  callKind = iota // Offer, Schedule, RackHeartbeat, FetchesReady: everything
	callObserve                 // Observe: classes and fetch releases, no placements
)

// PlanPlace validates and reserves a placement: the task leaves the
// waiting set and takes its slot now; it starts when the call returns.
func (v *view) PlanPlace(st sched.Task, m int) error {
	e := v.e
	if st.IsZero() {
		return e.planFail("placed no task (the zero Task) on machine %d", m)
	}
	t := unwrapTask(st)
	if e.call != callDecide {
		return e.planFail("placed %s during an observer call; placements belong to Offer, Schedule or a heartbeat", t)
	}
	if err := e.validate(t, m); err != nil {
		return e.planFail("invalid placement (%s -> machine %d): %v", t, m, err)
	}
	e.reserve(t, m)
	return nil
}

// PlanSetClass changes a task's class and re-classes its flows in flight.
func (v *view) PlanSetClass(st sched.Task, class int) error {
	e := v.e
	t := unwrapTask(st)
	if class < 0 || class > network.MaxClass {
		return e.planFail("set class %d on %s, outside [0, %d]", class, t, network.MaxClass)
	}
	t.Class = class
	for _, rec := range e.flowsOf(t) {
		c, ok := e.flowClass(t, rec.Src)
		if !ok {
			return e.err
		}
		e.net.SetClass(e.now, rec.ID, c)
	}
	return nil
}

// PlanRelease releases a gated task's held transfer from machine m (the
// one carrying m's bytes: a FromRack transfer of m's rack under per-rack
// transfers).
func (v *view) PlanRelease(st sched.Task, m int) error {
	match := func(s state.Source) bool {
		return s.Machine == m || s.FromRack && v.e.rackOf[s.Machine] == v.e.rackOf[m]
	}
	return v.e.release(unwrapTask(st), match, fmt.Sprintf("machine %d", m))
}

// PlanReleaseRack releases a gated task's held transfers from rack r.
func (v *view) PlanReleaseRack(st sched.Task, r int) error {
	return v.e.release(unwrapTask(st), func(s state.Source) bool { return v.e.rackOf[s.Machine] == r }, fmt.Sprintf("rack %d", r))
}

// PlanReleaseTogether releases the held transfers of tasks from rack r as
// one aggregated transfer.
func (v *view) PlanReleaseTogether(ts []sched.Task, r int) error {
	if r < 0 || r >= v.Racks() {
		return v.e.planFail("released fetches from rack %d, which does not exist (racks 0-%d)", r, v.Racks()-1)
	}
	inner := make([]*state.Task, len(ts))
	for i, t := range ts {
		if t.IsZero() {
			return v.e.planFail("released fetches of no task")
		}
		inner[i] = unwrapTask(t)
	}
	return v.e.releaseTogether(inner, r)
}

func (e *Engine) planFail(format string, a ...any) error {
	e.fail("scheduler %s: "+format, append([]any{e.sc.Scheduler.Name}, a...)...)
	return e.err
}
