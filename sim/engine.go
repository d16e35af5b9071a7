package sim

import (
	"fmt"
	"github.com/netsched/netsched/internal/units"
	"math"
	"math/rand/v2"
	"time"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

var inf = math.Inf(1)

// newNetwork builds a run's network model (benchmarks substitute one).
var newNetwork = func(cfg network.Config) (network.API, error) { return network.New(cfg) }

// stallAfter is how long (simulated seconds) waiting work may sit on an idle
// cluster before the run is declared stalled.
const stallAfter = 86400

// idleBeatRounds is how many heartbeat periods the engine steps through
// with heartbeats and ticks alone (no task placed, no flow finished, no
// other event) before it checks what stepping on until the next other event
// would cost: a heartbeat per machine with a free slot and period. Beyond
// idleBeatBudget such steps the run is refused with that diagnosis (a
// transfer on a link far slower than intended, a `nic: 1bps` typo, or
// waiting tasks pinned to busy machines) instead of stepping for hours. A
// heartbeat-driven scheduler that defers a task does so for far fewer
// periods (delay's and NAS's skip counts are at most hundreds).
const (
	idleBeatRounds = 10_000
	idleBeatBudget = 1e8
)

// Engine is one simulation run. Build it with New and call Run once.
type Engine struct {
	sc       *scenario.Scenario
	now      float64
	events   eventHeap
	net      network.API
	machines []*state.Machine
	rackOf   []int
	// rackMachines lists each rack's machines in id order.
	rackMachines [][]int
	view         *view
	plan         *sched.Plan
	call         callKind // what the scheduler call under way may decide
	planned      []*state.Task

	sched        sched.Scheduler
	global       sched.Global
	flowClasser  sched.FlowClasser
	placer       sched.DataPlacer
	observer     sched.Observer
	ticker       sched.Ticker
	repeatTicker sched.RepeatTicker
	ticks        int // ticks taken; tick k is at k × TickInterval
	// progressAt is the time of the last event other than a heartbeat, or
	// of the last decision (idle heartbeats, idleBeatRounds).
	progressAt    float64
	decidedAt     int // e.stats.decisions at progressAt
	failer        sched.Failer
	gater         sched.FetchGater
	rackScheduler sched.RackHeartbeater
	rates         *rater // a network policy that sets flow rates; nil otherwise
	heartbeats    bool   // per-machine heartbeats are generated
	// rackHBScheduled marks racks with a pending rack heartbeat.
	rackHBScheduled []bool

	src         workload.Source
	srcDone     bool
	pendingSpec *workload.Job // read from the source, arriving next
	jobs        []*state.Job  // active jobs in arrival order
	jobsByID    map[string]*state.Job
	outputs     map[string]*state.JobOutput // job id -> output record (for workflows)
	uploaded    map[[2]int][]int            // replicas the DataPlacer chose for the job read ahead, by (stage, task)
	nextSeq     int
	unfinished  int             // arrived, not finished
	stoppedAt   float64         // engine.until or an interrupt cut the run here; 0: it ran to the end
	done        <-chan struct{} // closed: interrupt the run (RunContext)
	interrupt   bool            // done was found closed: the run stops where it is
	liveTasks   int             // tasks of the jobs held, as last counted (budget)

	flows flowTable // flows in flight, by tag

	// scheduling-pass bookkeeping
	slotChanged []int
	changedMark []bool
	free        freeSet // machines with a free slot
	// shuffleQueue's scratch: 1 + a source's position in the queue of the
	// task being started, per machine (0: none), and the machines set.
	queued       []int32
	touched      []int
	fetchIndexes state.IndexPool // running reducers' shuffle-source indexes
	taskArrival  bool
	rotate       int
	hbScheduled  []bool
	hbPhase      []float64
	waitingTotal int
	// waitingJobs holds the Seq of every job with waiting tasks, so that an
	// offer finds the first of them in arrival order without walking the
	// active jobs, most of which may have none (reducers fetching).
	waitingJobs state.IndexSet
	// Slots in the cluster, slots held, and tasks in their compute phase,
	// kept as tasks move so that telling progress from a deadlock is O(1)
	// per instant.
	slots, held, computing int

	rng       *rand.Rand // DFS placement and heartbeat phases
	knowledge *knowledge
	metrics   *collector
	check     bool
	err       error
	stats     runStats
	progress  func(Progress) // nil: no reports
	// schedTime is wall time spent inside the scheduler (timing.json only).
	schedTime time.Duration
}

type runStats struct {
	events, decisions, offers int
	passes                    int // loop iterations, for progress reports and interrupts
	// edgeVisits counts the tasks visited along stage edges (sizes, shuffle
	// queues, completions): linear in the tasks, which tests check.
	edgeVisits int
	lastReport time.Time // wall time of the last progress report
}

// New prepares a run of sc with scheduler s (see sched.NewScheduler). It
// fails on an invalid network description.
func New(sc *scenario.Scenario, s sched.Scheduler) (*Engine, error) {
	e := &Engine{sc: sc, sched: s, jobsByID: map[string]*state.Job{}, outputs: map[string]*state.JobOutput{},
		check: sc.Check}
	e.rng = rand.New(rand.NewPCG(sc.Seed, 0x6e657473636865)) // "netsche"
	e.rackMachines = make([][]int, sc.Racks)
	for i, m := range sc.Machines {
		speed := m.Speed
		if speed == 0 {
			speed = 1 // scenarios built in code may leave it out
		}
		e.machines = append(e.machines, &state.Machine{ID: i, Rack: m.Rack, Slots: m.Slots, Free: m.Slots, NIC: m.NIC, Speed: speed})
		e.rackOf = append(e.rackOf, m.Rack)
		if m.Rack >= 0 && m.Rack < sc.Racks {
			e.rackMachines[m.Rack] = append(e.rackMachines[m.Rack], i)
		}
		e.slots += m.Slots
		e.free.set(i, m.Slots > 0)
	}
	e.changedMark = make([]bool, len(e.machines))
	e.fetchIndexes.Keys = len(e.machines) + sc.Racks
	e.hbScheduled = make([]bool, len(e.machines))
	e.hbPhase = make([]float64, len(e.machines))
	cfg := sc.Network
	kn, err := newKnowledge(sc.Knowledge, sc.Seed)
	if err != nil {
		return nil, err
	}
	e.knowledge = kn
	e.metrics = newCollector(sc)
	prev := cfg.Monitor.OnSample
	cfg.Monitor.OnSample = func(smp network.Sample) {
		e.metrics.sample(smp)
		if prev != nil {
			prev(smp)
		}
	}
	net, err := newNetwork(cfg)
	if err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	e.net = net
	e.view = &view{e: e}
	e.plan = sched.NewPlan(e.view)
	e.global, _ = s.(sched.Global)
	e.flowClasser, _ = s.(sched.FlowClasser)
	if sc.Scheduler.Network != "" {
		// A named network policy sets the classes, in place of the
		// scheduler's own (queue's `network` parameter, PushBox's ranks).
		np, err := sched.NewNetworkPolicy(sc.Scheduler.Network, sc.Scheduler.NetworkParams)
		if err != nil {
			return nil, err
		}
		e.flowClasser = np
		if cr, ok := np.(sched.CoflowRater); ok {
			if e.rates, err = e.newRater(cr); err != nil {
				return nil, err
			}
		}
	} else if len(sc.Scheduler.NetworkParams) > 0 {
		return nil, fmt.Errorf("scheduler %s: network_params given without network", sc.Scheduler.Name)
	}
	e.placer, _ = s.(sched.DataPlacer)
	e.observer, _ = s.(sched.Observer)
	e.ticker, _ = s.(sched.Ticker)
	e.repeatTicker, _ = s.(sched.RepeatTicker)
	e.failer, _ = s.(sched.Failer)
	e.gater, _ = s.(sched.FetchGater)
	e.rackScheduler, _ = s.(sched.RackHeartbeater)
	if hb, ok := s.(sched.Heartbeater); ok && hb.Heartbeats() || sc.HeartbeatOnly || e.rackScheduler != nil {
		e.heartbeats = true
		for i := range e.hbPhase {
			e.hbPhase[i] = e.rng.Float64() * sc.Heartbeat
		}
	}
	return e, nil
}

// Run simulates until every job finished, and returns the result.
func (e *Engine) Run() (*metrics.Result, error) {
	src, err := e.sc.OpenWorkload()
	if err != nil {
		return nil, err
	}
	e.src = src
	if in, ok := e.sched.(sched.Initializer); ok {
		if err := in.Init(e.view); err != nil {
			return nil, fmt.Errorf("scheduler init: %w", err)
		}
	}
	if pl, ok := e.sched.(sched.Planner); ok {
		if err := e.planAhead(pl); err != nil {
			return nil, err
		}
	}
	if err := e.readNextJob(); err != nil {
		return nil, err
	}
	if e.interrupted() {
		return e.metrics.result(e), nil // while the workload was read ahead
	}
	if e.ticker != nil && e.ticker.TickInterval() > 0 {
		e.events.push(event{time: e.ticker.TickInterval(), kind: evTick})
	}
	idleSince := 0.0
	for e.err == nil {
		if e.unfinished == 0 && e.srcDone {
			break
		}
		t := min(e.events.peekTime(), e.net.NextEvent(), e.rates.nextTime())
		if e.sc.Until > 0 && t > e.sc.Until {
			// engine.until: what had not finished by then is left out.
			e.now, e.stoppedAt = e.sc.Until, e.sc.Until
			e.net.AdvanceTo(e.now, e.flowDone)
			break
		}
		if math.IsInf(t, 1) {
			return nil, e.stalled()
		}
		e.now = t
		e.net.AdvanceTo(t, e.flowDone)
		if err := e.net.Err(); err != nil {
			return nil, err // (it names the network's time)
		}
		for e.err == nil && e.events.Len() > 0 && e.events.peekTime() <= t && !e.interrupted() {
			e.handle(e.events.pop())
		}
		if e.err != nil {
			break
		}
		e.schedulingPass()
		e.rates.update()
		if e.check {
			e.checkInvariants()
		}
		// Every 1024 passes: a progress report.
		if e.stats.passes++; e.stats.passes&1023 == 0 && e.progress != nil {
			e.reportProgress()
		}
		if e.interrupted() {
			e.stoppedAt = e.now
			break
		}
		e.repeatTicks()
		if err := e.idleHeartbeats(); err != nil {
			return nil, err
		}
		// A run whose work can never progress would otherwise spin on
		// monitor samples, ticks and heartbeats forever. When every slot is
		// held and nothing moves, no slot can ever free: a deadlock, known
		// at once. With free slots the scheduler may still change its mind,
		// but none has a reason to keep an idle cluster idle for a
		// simulated day.
		if e.busy() {
			idleSince = t
		} else if e.held > 0 && e.held == e.slots {
			return nil, e.deadlocked()
		} else if t-idleSince > stallAfter {
			return nil, e.stalled()
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.metrics.result(e), nil
}

// busy reports whether something can still make progress by itself: a flow
// or a compute phase. A task in its input phase without a flow waits for
// parent tasks that have not finished, so the slot it holds is no progress.
func (e *Engine) busy() bool {
	// With nothing waiting, only future arrivals or blocked jobs remain.
	return e.net.ActiveFlows() > 0 || e.computing > 0 || e.waitingTotal == 0
}

func (e *Engine) stalled() error {
	return fmt.Errorf("simulation stalled at t=%gs: %d job(s) unfinished, %d waiting task(s), nothing computing or fetching; scheduler %T never placed them",
		e.now, e.unfinished, e.waitingTotal, e.sched)
}

// deadlocked is the error of a run whose slots are all held by tasks in
// their input phase (reducers) waiting for parent tasks (maps) that need a
// slot. Only a finishing compute phase frees a slot; arrivals, job
// releases, heartbeats and ticks only add waiting tasks and offers.
func (e *Engine) deadlocked() error {
	return fmt.Errorf("simulation deadlocked at t=%gs: every slot is held by reducers waiting for maps that cannot start (%d of %d slot(s) held by tasks in their input phase waiting for parent outputs, %d waiting task(s), %d job(s) unfinished); scheduler %T placed them before their maps",
		e.now, e.held, e.slots, e.waitingTotal, e.unfinished, e.sched)
}

// checkScheduler stops the run if the scheduler reported an error.
func (e *Engine) checkScheduler() {
	if e.failer != nil {
		if err := e.failer.Err(); err != nil {
			e.fail("scheduler %s: %w", e.sc.Scheduler.Name, err) // (a failed check stays sched.ErrCheck)
		}
	}
}

func (e *Engine) fail(format string, a ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("t=%gs: "+format, append([]any{e.now}, a...)...)
	}
}

func (e *Engine) handle(ev event) {
	e.stats.events++
	if ev.kind != evHeartbeat && ev.kind != evRackHeartbeat && ev.kind != evTick {
		e.progressAt = e.now // (a tick or heartbeat alone places nothing)
	}
	switch ev.kind {
	case evArrival:
		e.arrive()
	case evComputeDone:
		e.finishTask(ev.task)
	case evHeartbeat:
		e.heartbeat(ev.m)
	case evRackHeartbeat:
		e.rackHeartbeat(ev.m)
	case evTick:
		e.ticker.Tick(e.view)
		e.tickDone(1)
	}
}

// tickDone counts n ticks taken and schedules the next while work remains.
func (e *Engine) tickDone(n int) {
	e.ticks += n
	e.checkScheduler()
	if e.unfinished > 0 || !e.srcDone {
		e.events.push(event{time: float64(e.ticks+1) * e.ticker.TickInterval(), kind: evTick})
	}
}

// idleHeartbeats refuses a run that would step through more than
// idleBeatHorizon heartbeat periods with nothing but heartbeats, after
// idleBeatRounds of them changed nothing (see idleBeatRounds).
func (e *Engine) idleHeartbeats() error {
	if e.stats.decisions != e.decidedAt {
		e.progressAt, e.decidedAt = e.now, e.stats.decisions
		return nil
	}
	h := e.sc.Heartbeat
	if !e.heartbeats || h <= 0 || e.now-e.progressAt < idleBeatRounds*h || e.net.ActiveFlows() == 0 {
		return nil
	}
	free := 0
	for _, m := range e.machines {
		if m.Free > 0 {
			free++
		}
	}
	next := min(e.net.NextEvent(), e.rates.nextTime())
	for _, ev := range e.events.items {
		if ev.kind != evHeartbeat && ev.kind != evRackHeartbeat && ev.kind != evTick {
			next = min(next, ev.time)
		}
	}
	steps := (next - e.now) / h * float64(free)
	if steps <= idleBeatBudget {
		return nil
	}
	return fmt.Errorf("t=%gs: %d waiting task(s) and %d flow(s) in flight, nothing but heartbeats for %s, and the next other event "+
		"is at t=%gs: %.3g heartbeats of the %d machine(s) with a free slot before it, over the budget of %.0e. "+
		"A link is probably far slower than intended (check nic, rack_uplink, rack_downlink and port speeds), or the waiting tasks can never be placed on the free machines (pins)",
		e.now, e.waitingTotal, e.net.ActiveFlows(), units.FormatDuration(e.now-e.progressAt), next, steps, free, idleBeatBudget)
}

// everyTick turns repeatTicks off (tests compare the two).
var everyTick bool

// repeatTicks takes, in one step, the ticks due before anything else can
// happen (no engine event, flow completion or monitor change comes first:
// a resting monitor is no event), when the scheduler can take n ticks at
// once. A transfer on a slow link then costs a few steps, not a tick per
// interval, with the same results.
func (e *Engine) repeatTicks() {
	if e.repeatTicker == nil || everyTick || e.err != nil || e.events.Len() == 0 || e.events.items[0].kind != evTick {
		return
	}
	iv := e.ticker.TickInterval()
	other := min(e.events.secondTime(), e.net.NextEvent(), e.rates.nextTime())
	first := e.ticks + 1
	due := func(k int) bool { return network.Apart(float64(k)*iv, other) }
	if math.IsInf(other, 1) || !due(first+1) {
		return // one tick at most: the loop takes it
	}
	last := max(first+1, int(other/iv))
	for !due(last) {
		last--
	}
	for due(last + 1) {
		last++
	}
	ev := e.events.pop()
	e.now = ev.time
	e.net.AdvanceTo(e.now, e.flowDone) // nothing completes before other
	n := last - first + 1
	e.stats.events += n
	e.repeatTicker.Ticks(e.view, n)
	e.tickDone(n)
}

// readNextJob pulls one job from the source and schedules its arrival, so
// only one future job is held in memory.
func (e *Engine) readNextJob() error {
	spec, ok, err := e.src.Next()
	if err != nil {
		return err
	}
	if !ok {
		e.srcDone = true
		return nil
	}
	if spec.Arrival < e.now {
		return fmt.Errorf("workload: job %q arrives at %gs, before the previous job (%gs); sources must be sorted by arrival", spec.ID, spec.Arrival, e.now)
	}
	if e.placer != nil {
		if err := e.upload(spec); err != nil {
			return err
		}
	}
	e.events.push(event{time: spec.Arrival, kind: evArrival})
	e.pendingSpec = spec
	return nil
}

// planAhead reads the whole workload for a Planner and gives it the jobs'
// forecasts; the engine then replays the jobs it read. Memory follows the
// trace length for planners only.
func (e *Engine) planAhead(pl sched.Planner) error {
	var all []*workload.Job
	for !e.interrupted() {
		spec, ok, err := e.src.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		all = append(all, spec)
	}
	fc := make([]sched.Forecast, len(all))
	jobs := make([]workload.Job, len(all))
	for i, spec := range all {
		if err := spec.Validate(len(e.machines)); err != nil {
			return fmt.Errorf("workload: job %q: %v", spec.ID, err)
		}
		fc[i] = e.knowledge.forecast(spec, i, e.jobRand(i))
		jobs[i] = *spec
	}
	if err := pl.Plan(e.view, fc); err != nil {
		return fmt.Errorf("scheduler %s: planning: %w", e.sc.Scheduler.Name, err)
	}
	e.src = &workload.SliceSource{Jobs: jobs}
	return nil
}
