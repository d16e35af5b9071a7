package neat

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/workload"
)

// Scheduler is neat. It implements sched.Global (every opportunity of an
// instant at once), sched.Initializer and sched.Observer (to keep its job
// order); Offer runs the same pass.
type Scheduler struct {
	cfg  Config
	pred Predictor

	// Link indices into View.FlowsInFlight().Links, -1 when the network
	// has no such link (a non-blocking network has no rack links).
	mUp, mDown, rUp, rDown []int
	rackOf                 []int
	caps                   []float64

	// Per pass: the flows on every link (those in flight, then the flows
	// of the tasks this pass placed), the machines with a free slot, and
	// the shuffle sources of parent stages.
	links  [][]LinkFlow
	ids    [][]int // ids[l][i] identifies the flow of links[l][i] (one id per flow, across links)
	nflows int
	// loaded: links holds the flows of this pass; until then pending
	// holds the placements of the pass whose flows are still to add.
	loaded  bool
	pending []placement
	free    []int
	parents map[sched.Stage]*stageOut
	shares  map[sched.Stage]float64

	// Scratch of one task's evaluation.
	srcs    []source // non-file sources of the task, machine order
	flows   []source // the task's flows on the candidate (file source included)
	load    []float64
	touched []int
	worst   []float64 // per flow id: the largest delay the task imposes on it
	hit     []int     // flow ids with worst > 0
	best    []source  // flows of the best candidate so far
	acc     []float64
	chosen  sched.Task // the task choose took without predicting (commit's)

	ord orderIndex // the jobs with waiting tasks in serving order

	stats Stats
}

// Stats are counters of one run.
type Stats struct {
	Placements int // tasks placed
	Passes     int // scheduling passes that placed at least one task
}

// placement is a task the pass placed on machine m.
type placement struct {
	t sched.Task
	m int
}

// source is bytes a task receives from one machine.
type source struct {
	machine int
	bytes   float64
}

// stageOut is the estimated output of a parent stage's finished tasks per
// machine, in machine order.
type stageOut struct {
	byMachine []source
}

// New builds neat.
func New(c Config) *Scheduler { return &Scheduler{cfg: c} }

// Stats returns the run's counters so far.
func (s *Scheduler) Stats() Stats { return s.stats }

// Predictor is the single-link model in use (resolved by Init).
func (s *Scheduler) Predictor() Predictor { return s.pred }

// Init resolves the predictor from the scenario's network policy and maps
// the links.
func (s *Scheduler) Init(v sched.View) error {
	fs := v.FlowsInFlight()
	if s.cfg.Predictor == "auto" || s.cfg.Predictor == "" {
		s.pred = ForPolicy(fs.Policy, fs.PolicyParams)
	} else {
		p, err := ParsePredictor(s.cfg.Predictor)
		if err != nil {
			return fmt.Errorf("neat: %w", err)
		}
		s.pred = p
	}
	n, racks := v.NumMachines(), v.Racks()
	s.mUp, s.mDown = fill(n), fill(n)
	s.rUp, s.rDown = fill(racks), fill(racks)
	s.rackOf = make([]int, n)
	for m := range n {
		s.rackOf[m] = v.RackOf(m)
	}
	s.caps = make([]float64, len(fs.Links))
	for i, l := range fs.Links {
		s.caps[i] = l.Capacity
		switch {
		case l.Kind == network.LinkNIC && l.Index < n && l.Up:
			s.mUp[l.Index] = i
		case l.Kind == network.LinkNIC && l.Index < n:
			s.mDown[l.Index] = i
		case l.Kind == network.LinkRack && l.Index < racks && l.Up:
			s.rUp[l.Index] = i
		case l.Kind == network.LinkRack && l.Index < racks:
			s.rDown[l.Index] = i
		}
	}
	for m := range n {
		if s.mUp[m] < 0 || s.mDown[m] < 0 {
			return fmt.Errorf("neat: the network describes no NIC links of machine %d", m)
		}
	}
	k := len(fs.Links)
	s.links = make([][]LinkFlow, k)
	s.ids = make([][]int, k)
	s.load = make([]float64, k)
	s.acc = make([]float64, n)
	s.parents = map[sched.Stage]*stageOut{}
	s.shares = map[sched.Stage]float64{}
	s.ord.init(s.cfg.Order != "fair")
	return nil
}

func fill(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// Schedule places waiting tasks on every free slot it can.
func (s *Scheduler) Schedule(v sched.View, _ sched.Opportunity, p *sched.Plan) { s.pass(v, p) }

// Offer runs the same pass (the engine calls it only without Schedule's
// opportunities, on heartbeats neat does not ask for).
func (s *Scheduler) Offer(v sched.View, _ int, p *sched.Plan) { s.pass(v, p) }

// pass walks the waiting tasks, jobs in the configured order, stages and
// tasks in index order, and puts each on the free machine of smallest
// predicted cost until no slot is free.
func (s *Scheduler) pass(v sched.View, p *sched.Plan) {
	if v.WaitingTasks() == 0 {
		return
	}
	s.free = s.free[:0]
	for m := range v.FreeMachines() {
		s.free = append(s.free, m)
	}
	if len(s.free) == 0 {
		return
	}
	s.loaded, s.pending = false, s.pending[:0]
	if referencePlace != nil {
		s.loadLinks(v) // the original pass reads the flows up front
	}
	clear(s.parents)
	clear(s.shares)
	var placed int
	switch {
	case referencePlace != nil:
		placed = referencePlace(s, v, p)
	case s.cfg.Order == "fair":
		placed = s.placeFair(v, p)
	default:
		placed = s.placeFIFO(v, p)
	}
	s.countPass(placed)
}

// placeJob places up to limit waiting tasks of job j, stage by stage; it
// reports whether the pass can go on (free slots remain and the plan
// accepted every placement). Within a stage a task with a replica on a
// free machine goes first, then the others in index order: NEAT places a
// task where it is predicted to finish first, and with slots scarce the
// task whose data sits on a free machine is the one that can finish there
// without crossing the network.
func (s *Scheduler) placeJob(v sched.View, p *sched.Plan, j sched.Job, limit int, placed *int) bool {
	n := 0
	for _, st := range j.Stages() {
		for j.Waiting() > 0 && st.WaitingCount() > 0 && len(s.free) > 0 && n < limit {
			t, m := s.localTask(v, st)
			if m < 0 {
				t, m = s.firstPlaceable(v, st)
			}
			if m < 0 {
				break
			}
			if p.Place(t, m) != nil {
				return false
			}
			n++
			*placed++
			s.stats.Placements++
			s.commit(m)
			if v.Machine(m).Free() == 0 {
				s.removeFree(m)
			}
		}
	}
	return len(s.free) > 0
}

// localTask is a waiting task of st with a replica on a free machine, and
// the machine choose picks for it; -1 when there is none.
func (s *Scheduler) localTask(v sched.View, st sched.Stage) (sched.Task, int) {
	if !st.HasFileInput() {
		return sched.Task{}, -1
	}
	for _, m := range s.free {
		if t := st.LocalWaiting(m); !t.IsZero() {
			return t, s.choose(v, t)
		}
	}
	return sched.Task{}, -1
}

// firstPlaceable is st's first waiting task in index order that choose can
// place, and its machine; -1 when none can be.
func (s *Scheduler) firstPlaceable(v sched.View, st sched.Stage) (sched.Task, int) {
	for _, t := range st.Waiting() {
		if m := s.choose(v, t); m >= 0 {
			return t, m
		}
	}
	return sched.Task{}, -1
}

func (s *Scheduler) countPass(placed int) {
	if placed > 0 {
		s.stats.Passes++
	}
}

func (s *Scheduler) removeFree(m int) {
	for i, x := range s.free {
		if x == m {
			s.free = append(s.free[:i], s.free[i+1:]...)
			return
		}
	}
}

// loadLinks fills the per-link flow lists, once per pass: the flows in
// flight, then those of the tasks the pass placed so far.
func (s *Scheduler) loadLinks(v sched.View) {
	if s.loaded {
		return
	}
	s.loaded = true
	for i := range s.links {
		s.links[i], s.ids[i] = s.links[i][:0], s.ids[i][:0]
	}
	s.nflows = 0
	for _, f := range v.FlowsInFlight().Flows {
		s.addFlow(f.Links, LinkFlow{Remaining: f.Remaining, Attained: f.Size - f.Remaining})
	}
	for _, pl := range s.pending {
		s.taskFlows(pl.t, pl.m, s.sources(v, pl.t))
		s.addFlows(s.flows, pl.m)
	}
	s.pending = s.pending[:0]
}

// addFlow puts one flow on the links of its route under a new id.
func (s *Scheduler) addFlow(route []int, f LinkFlow) {
	id := s.nflows
	s.nflows++
	if id >= len(s.worst) {
		s.worst = append(s.worst, 0)
	}
	for _, l := range route {
		if l >= 0 && l < len(s.links) {
			s.links[l] = append(s.links[l], f)
			s.ids[l] = append(s.ids[l], id)
		}
	}
}

// choose is the free machine of smallest cost for t (its pin when it has
// one and the pin is free), -1 when none may take it. Ties, to a relative
// 1e-9, go to the more local machine, then the lower id. s.best holds the
// chosen machine's flows.
//
// Costs matter only between two or more candidates: a pinned task or a
// single free machine is chosen without reading the flows in flight or
// predicting anything, and s.chosen records the task for commit (the
// free machines only shrink during a pass, so once a single one is left
// the pass never reads the links again).
func (s *Scheduler) choose(v sched.View, t sched.Task) int {
	lazy := !s.loaded && referencePlace == nil
	if pin := t.Pin(); pin >= 0 {
		if pin >= v.NumMachines() || v.Machine(pin).Free() == 0 {
			return -1
		}
		if lazy {
			s.chosen = t
			return pin
		}
		file := s.sources(v, t)
		s.cost(v, t, pin, file)
		s.best = append(s.best[:0], s.flows...)
		return pin
	}
	if lazy && len(s.free) == 1 {
		s.chosen = t
		return s.free[0]
	}
	s.loadLinks(v)
	file := s.sources(v, t)
	bestM, bestC := -1, math.Inf(1)
	var bestL sched.Locality
	for _, m := range s.free {
		c := s.cost(v, t, m, file)
		loc := v.Locality(t, m)
		tol := 1e-9 * math.Max(1, math.Abs(bestC))
		if bestM < 0 || c < bestC-tol || c <= bestC+tol && loc < bestL {
			bestM, bestC, bestL = m, c, loc
			s.best = append(s.best[:0], s.flows...)
		}
	}
	return bestM
}

// cost is the predicted cost Δ of placing t on machine m: the predicted
// completion of its input flows (the max over the links they cross, i.e.
// over its flows, each on its bottleneck link), plus the extra delay it
// imposes on the flows in flight (each delayed by the most any of those
// links delays it), plus its compute time on m. The task's flows that
// share a link are predicted as one flow of their total size there.
// s.flows holds the flows it would start.
func (s *Scheduler) cost(v sched.View, t sched.Task, m int, file float64) float64 {
	s.taskFlows(t, m, file)
	// The task's bytes on each link it crosses.
	for _, l := range s.touched {
		s.load[l] = 0
	}
	s.touched = s.touched[:0]
	var route [4]int
	for _, f := range s.flows {
		for _, l := range s.route(f.machine, m, &route) {
			if s.load[l] == 0 {
				s.touched = append(s.touched, l)
			}
			s.load[l] += f.bytes
		}
	}
	// The task ends when its last link is predicted to carry its bytes;
	// each flow in flight on those links is delayed by the most any one of
	// them delays it (its own bottleneck decides), counted once.
	completion, delay := 0.0, 0.0
	for _, l := range s.touched {
		c, _ := Predict(s.pred, s.links[l], s.load[l], s.caps[l])
		completion = max(completion, c)
		for i, f := range s.links[l] {
			id := s.ids[l][i]
			if d := Delay(s.pred, f, s.load[l], s.caps[l]); d > s.worst[id] {
				if s.worst[id] == 0 {
					s.hit = append(s.hit, id)
				}
				s.worst[id] = d
			}
		}
	}
	for _, id := range s.hit {
		delay += s.worst[id]
		s.worst[id] = 0
	}
	s.hit = s.hit[:0]
	cost := completion + delay
	if s.cfg.Compute {
		cost += v.EstimateOn(t, m).Compute
	}
	return cost
}

// taskFlows fills s.flows with the flows t would start on m: its file
// input from the nearest replica, then its sources (s.srcs) other than m.
func (s *Scheduler) taskFlows(t sched.Task, m int, file float64) {
	s.flows = s.flows[:0]
	if file > 0 && t.NumReplicas() > 0 {
		if src := s.nearestReplica(t, m); src != m {
			s.flows = append(s.flows, source{src, file})
		}
	}
	for _, src := range s.srcs {
		if src.machine != m && src.bytes > 0 {
			s.flows = append(s.flows, source{src.machine, src.bytes})
		}
	}
}

// route is the links a flow from src to dst crosses: the source NIC
// uplink, the rack uplink and downlink when the racks differ (and the
// network has rack links), the destination NIC downlink. An optical
// circuit a hybrid network might give an elephant is not predicted.
func (s *Scheduler) route(src, dst int, r *[4]int) []int {
	out := r[:0]
	out = append(out, s.mUp[src])
	if rs, rd := s.rackOf[src], s.rackOf[dst]; rs != rd {
		if l := s.rUp[rs]; l >= 0 {
			out = append(out, l)
		}
		if l := s.rDown[rd]; l >= 0 {
			out = append(out, l)
		}
	}
	return append(out, s.mDown[dst])
}

// commit adds the flows of the task just placed on m to the links, as
// flows that have received nothing yet; before the links are read it
// queues the task, and loadLinks adds its flows then.
func (s *Scheduler) commit(m int) {
	if !s.loaded {
		s.pending = append(s.pending, placement{s.chosen, m})
		return
	}
	s.addFlows(s.best, m)
}

func (s *Scheduler) addFlows(flows []source, m int) {
	var route [4]int
	for _, f := range flows {
		s.addFlow(s.route(f.machine, m, &route), LinkFlow{Remaining: f.bytes})
	}
}

// nearestReplica is the replica the engine reads a split from on m:
// node-local, else one in m's rack, else the first.
func (s *Scheduler) nearestReplica(t sched.Task, m int) int {
	for _, r := range t.Replicas() {
		if r == m {
			return r
		}
	}
	for _, r := range t.Replicas() {
		if s.rackOf[r] == s.rackOf[m] {
			return r
		}
	}
	return t.Replica(0)
}

// sources fills s.srcs with the bytes t would fetch, per machine, from
// its finished parent tasks and its parent jobs' outputs (estimates, as
// the knowledge model gives them), and returns its file input bytes, read
// from the replica nearest to where it runs. Parent tasks still running
// are not predicted (their output is not anywhere yet).
func (s *Scheduler) sources(v sched.View, t sched.Task) (file float64) {
	clear(s.acc)
	st := t.Stage()
	total := s.share(st)
	frac := 1.0
	if total > 0 {
		frac = t.Share() / total
	}
	fromParents := 0.0
	used := false
	for _, e := range st.Parents() {
		switch e.Pattern {
		case workload.OneToOne:
			if t.Index() < e.Parent.NumTasks() {
				pt := e.Parent.Task(t.Index())
				out := v.Estimate(pt).Output
				fromParents += out
				if pt.Phase() == sched.Done && pt.Machine() >= 0 {
					s.acc[pt.Machine()] += out
					used = true
				}
			}
		default:
			k := frac
			if e.Pattern == workload.Broadcast {
				k = 1
			}
			so := s.parentOut(v, e.Parent)
			for _, src := range so.byMachine {
				s.acc[src.machine] += k * src.bytes
				used = true
			}
			if st.HasFileInput() {
				for _, pt := range e.Parent.Tasks() {
					fromParents += k * v.Estimate(pt).Output
				}
			}
		}
	}
	if st.ReadsJobParents() {
		for _, id := range t.Job().ParentJobs() {
			out, ok := v.Output(id)
			if !ok {
				continue
			}
			for _, mb := range out.ByMachine {
				b := mb.Bytes * frac
				fromParents += b
				s.acc[mb.Machine] += b
				used = true
			}
		}
	}
	s.srcs = s.srcs[:0]
	if used {
		for m, b := range s.acc {
			if b > 0 {
				s.srcs = append(s.srcs, source{m, b})
			}
		}
	}
	if st.HasFileInput() {
		file = max(0, v.Estimate(t).Input-fromParents)
	}
	return file
}

// share is the sum of a stage's task shares (a task reads share/total of
// each parent task's output).
func (s *Scheduler) share(st sched.Stage) float64 {
	if x, ok := s.shares[st]; ok {
		return x
	}
	x := 0.0
	for _, t := range st.Tasks() {
		x += t.Share()
	}
	s.shares[st] = x
	return x
}

// parentOut is the estimated output of st's finished tasks per machine,
// computed once per pass.
func (s *Scheduler) parentOut(v sched.View, st sched.Stage) *stageOut {
	if so, ok := s.parents[st]; ok {
		return so
	}
	so := &stageOut{}
	if st.Finished() > 0 {
		acc := make([]float64, v.NumMachines())
		for _, pt := range st.Tasks() {
			if pt.Phase() == sched.Done && pt.Machine() >= 0 {
				acc[pt.Machine()] += v.Estimate(pt).Output
			}
		}
		for m, b := range acc {
			if b > 0 {
				so.byMachine = append(so.byMachine, source{m, b})
			}
		}
	}
	s.parents[st] = so
	return so
}
