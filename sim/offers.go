package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"
)

// markChanged records a slot change on machine m for this instant's pass.
func (e *Engine) markChanged(m int) {
	if !e.changedMark[m] {
		e.changedMark[m] = true
		e.slotChanged = append(e.slotChanged, m)
	}
	if e.heartbeats {
		e.scheduleHeartbeat(m)
	}
}

// scheduleHeartbeat queues machine m's next heartbeat on its own phase grid.
// Heartbeats of full machines or with no waiting work are not generated,
// which keeps a day-long trace from costing a heartbeat per machine-second;
// the grid keeps their timing as if they had been.
func (e *Engine) scheduleHeartbeat(m int) {
	if e.rackScheduler != nil {
		e.scheduleRackHeartbeat(e.rackOf[m])
		return
	}
	if e.hbScheduled[m] {
		return // one pending heartbeat per machine
	}
	// Floor, not truncation: before the phase (now < phase) the grid point
	// at or below now is phase-h, so the first heartbeat is the phase itself.
	// A heartbeat exactly at now is the current one; the next is h later.
	h := e.sc.Heartbeat
	k := math.Floor((e.now - e.hbPhase[m]) / h)
	next := e.hbPhase[m] + h*(k+1)
	if next <= e.now {
		next += h
	}
	e.hbScheduled[m] = true
	e.events.push(event{time: next, kind: evHeartbeat, m: m})
}

func (e *Engine) heartbeat(m int) {
	e.hbScheduled[m] = false
	mc := e.machines[m]
	if mc.Free == 0 {
		return // restarted by markChanged when a slot frees
	}
	if e.waitingTotal > 0 {
		e.stats.offers++
		e.offer(m)
	}
	if e.waitingTotal > 0 && mc.Free > 0 {
		e.scheduleHeartbeat(m)
	}
}

// scheduleRackHeartbeat queues rack r's heartbeat (RackHeartbeater) on the
// phase grid of the rack's first machine: a rack heartbeats when one of its
// machines would.
func (e *Engine) scheduleRackHeartbeat(r int) {
	if e.rackHBScheduled == nil {
		e.rackHBScheduled = make([]bool, e.sc.Racks)
	}
	if e.rackHBScheduled[r] {
		return
	}
	e.rackHBScheduled[r] = true
	h := e.sc.Heartbeat
	phase := e.hbPhase[e.rackMachines[r][0]]
	k := math.Floor((e.now - phase) / h)
	next := phase + h*(k+1)
	if next <= e.now {
		next += h
	}
	e.events.push(event{time: next, kind: evRackHeartbeat, m: r})
}

// rackHeartbeat asks a RackHeartbeater about rack r, once per heartbeat.
func (e *Engine) rackHeartbeat(r int) {
	e.rackHBScheduled[r] = false
	free := false
	for _, m := range e.rackMachines[r] {
		free = free || e.machines[m].Free > 0
	}
	if !free || e.waitingTotal == 0 {
		return // restarted by markChanged when a slot frees
	}
	e.stats.offers++
	e.decide(func() { e.rackScheduler.RackHeartbeat(e.view, r, e.plan) })
	free = false
	for _, m := range e.rackMachines[r] {
		free = free || e.machines[m].Free > 0
	}
	if e.waitingTotal > 0 && free {
		e.scheduleRackHeartbeat(r)
	}
}

// schedulingPass consults the scheduler after all events of an instant,
// unless the cluster offers only on heartbeats. A placement can itself
// change a slot at the same instant (a task with no input leaves its input
// phase at once), so passes repeat while they place tasks and leave news.
func (e *Engine) schedulingPass() {
	for e.passOnce() && (len(e.slotChanged) > 0 || e.taskArrival) && e.err == nil && !e.interrupt {
	}
}

// passOnce runs one pass and reports whether it placed a task.
func (e *Engine) passOnce() (placed bool) {
	decided := e.stats.decisions
	changed := append([]int(nil), e.slotChanged...)
	arrival := e.taskArrival
	e.slotChanged = e.slotChanged[:0]
	e.taskArrival = false
	for _, m := range changed {
		e.changedMark[m] = false // news during this pass is for the next one
	}
	if arrival && e.heartbeats {
		for m, mc := range e.machines {
			if mc.Free > 0 {
				e.scheduleHeartbeat(m)
			}
		}
	}
	defer func() { placed = e.stats.decisions > decided }()
	if e.sc.HeartbeatOnly || e.rackScheduler != nil || e.waitingTotal == 0 || len(changed) == 0 && !arrival {
		return
	}
	if e.global != nil {
		e.stats.offers++
		e.decide(func() {
			e.global.Schedule(e.view, sched.Opportunity{SlotChanged: changed, TaskArrival: arrival}, e.plan)
		})
		return
	}
	order := changed
	if arrival {
		// Every machine with a free slot, starting at a rotating offset so
		// that no machine is always offered first.
		n := len(e.machines)
		listed := make([]bool, n)
		for _, m := range changed {
			listed[m] = true
		}
		e.rotate = (e.rotate + 1) % n
		for k := 0; k < n; k++ {
			m := (e.rotate + k) % n
			if e.machines[m].Free > 0 && !listed[m] {
				order = append(order, m)
			}
		}
	}
	for k, m := range order {
		for e.machines[m].Free > 0 && e.waitingTotal > 0 {
			e.stats.offers++
			if !e.offer(m) || e.err != nil {
				break
			}
		}
		if e.err != nil || e.interruptedAt(k+1) {
			return
		}
	}
	return
}

// offer asks the scheduler about machine m and reports whether it placed
// something.
func (e *Engine) offer(m int) bool {
	return e.decide(func() { e.sched.Offer(e.view, m, e.plan) }) > 0
}

// decide runs one deciding call into the scheduler, timed (timing.json
// reports scheduler time per decision; it never enters the simulation),
// then starts what its plan placed, in plan order. It returns the number
// of tasks placed.
func (e *Engine) decide(call func()) int {
	e.plan.Reset()
	e.call = callDecide
	start := time.Now()
	call()
	e.schedTime += time.Since(start)
	e.checkScheduler()
	placed := e.planned
	e.planned = nil
	for _, t := range placed {
		e.machines[t.Machine].Planned = e.machines[t.Machine].Planned[:0]
	}
	for _, t := range placed {
		if e.err != nil {
			break
		}
		e.stats.decisions++
		e.startTask(t, t.Machine)
	}
	e.planned = placed[:0]
	return len(placed)
}

// observe tells the scheduler about an event; its plan may change classes
// and release fetches, which take effect at once.
func (e *Engine) observe(ev sched.Event) {
	if e.observer == nil {
		return
	}
	prev := e.call
	e.call = callObserve
	e.observer.Observe(e.view, ev, e.plan)
	e.call = prev
	e.checkScheduler()
}

func (e *Engine) validate(t *state.Task, m int) error {
	if m < 0 || m >= len(e.machines) {
		return fmt.Errorf("machine %d does not exist", m)
	}
	if e.jobsByID[t.Job().ID] != t.Job() {
		return fmt.Errorf("the task's job is not active")
	}
	if t.State == state.Planned {
		return fmt.Errorf("the task is already placed by this plan (on machine %d)", t.Machine)
	}
	if t.State != state.Waiting {
		return fmt.Errorf("the task is %s, not waiting", t.State)
	}
	if e.machines[m].Free <= 0 {
		if len(e.machines[m].Planned) > 0 {
			return fmt.Errorf("machine %d has no free slot left (this plan already placed %d task(s) there)", m, len(e.machines[m].Planned))
		}
		return fmt.Errorf("machine %d has no free slot", m)
	}
	if t.Pin >= 0 && t.Pin != m {
		return fmt.Errorf("the task is pinned to machine %d", t.Pin)
	}
	return nil
}
