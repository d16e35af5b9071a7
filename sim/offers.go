package sim

import (
	"fmt"
	"math"
	"time"
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
		t := e.offer(m)
		e.checkScheduler()
		if t != nil && e.err == nil {
			e.apply(t, m)
		}
	}
	if e.waitingTotal > 0 && mc.Free > 0 {
		e.scheduleHeartbeat(m)
	}
}

// schedulingPass consults the scheduler after all events of an instant,
// unless the cluster offers only on heartbeats. A placement can itself
// change a slot at the same instant (a task with no input leaves its input
// phase at once), so passes repeat while they place tasks and leave news.
func (e *Engine) schedulingPass() {
	for e.passOnce() && (len(e.slotChanged) > 0 || e.taskArrival) && e.err == nil {
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
	if e.sc.HeartbeatOnly || e.waitingTotal == 0 || len(changed) == 0 && !arrival {
		return
	}
	if e.global != nil {
		e.stats.offers++
		start := time.Now()
		placements := e.global.Schedule(e.view, Opportunity{SlotChanged: changed, TaskArrival: arrival})
		e.schedTime += time.Since(start)
		if e.checkScheduler(); e.err != nil {
			return
		}
		for _, p := range placements {
			if p.Task == nil || p.Machine < 0 || p.Machine >= len(e.machines) {
				e.fail("scheduler %T returned an invalid placement %+v", e.sched, p)
				return
			}
			e.apply(p.Task, p.Machine)
			if e.err != nil {
				return
			}
		}
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
	for _, m := range order {
		for e.machines[m].Free > 0 && e.waitingTotal > 0 {
			e.stats.offers++
			t := e.offer(m)
			if e.checkScheduler(); t == nil || e.err != nil {
				break
			}
			e.apply(t, m)
			if e.err != nil {
				return
			}
		}
	}
	return
}

// offer asks the scheduler about machine m, timing the call (timing.json
// reports scheduler time per decision; it never enters the simulation).
func (e *Engine) offer(m int) *Task {
	start := time.Now()
	t := e.sched.Offer(e.view, m)
	e.schedTime += time.Since(start)
	return t
}

// apply validates and carries out one placement decision.
func (e *Engine) apply(t *Task, m int) {
	if err := e.validate(t, m); err != nil {
		e.fail("scheduler %T: invalid decision (%s -> machine %d): %v", e.sched, t, m, err)
		return
	}
	e.stats.decisions++
	e.startTask(t, m)
}

func (e *Engine) validate(t *Task, m int) error {
	if m < 0 || m >= len(e.machines) {
		return fmt.Errorf("machine %d does not exist", m)
	}
	if e.jobsByID[t.Job().ID] != t.Job() {
		return fmt.Errorf("the task's job is not active")
	}
	if t.State != Waiting {
		return fmt.Errorf("the task is %s, not waiting", t.State)
	}
	if e.machines[m].Free <= 0 {
		return fmt.Errorf("machine %d has no free slot", m)
	}
	if t.Pin >= 0 && t.Pin != m {
		return fmt.Errorf("the task is pinned to machine %d", t.Pin)
	}
	return nil
}
