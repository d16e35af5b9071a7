// Package coflow replays a coflow-benchmark trace on the flow-level network
// model alone (no tasks, no slots): every port is a machine on a
// non-blocking fabric whose NIC uplink and downlink run at the port speed,
// and a coflow scheduling policy sets the flows' rates.
//
// Policies are resolved through the registry of network policies (package
// sched), the same that scenarios name: "fair" leaves sharing to the
// network's per-flow max-min allocation; "varys" orders the coflows, gives
// each the MADD allocation against the bandwidth earlier coflows left and
// then backfills leftover bandwidth in arrival order ("fifo", "scf", "ncf",
// "lcf" and "sebf" are shorthands for varys with that order); "aalo" is
// Aalo's D-CLAS. The rates come from package coflow/rate, shared with the
// task engine. The explicit-rate policies pin flows with network.SetRate and
// reallocate on every coflow arrival and departure (and, for aalo, whenever
// a coflow's sent bytes reach its queue's limit, computed exactly as an
// event); in between, a finished flow's bandwidth is backfilled at its two
// ports. See docs/coflow.md for the definitions.
package coflow

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/coflow/rate"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/trace/coflowbench"
)

// Replay runs the whole trace under opt and returns one record per coflow
// (in trace order) and the summary.
func Replay(tr *coflowbench.Trace, opt Options) (*Result, error) {
	opt, pol, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if tr == nil || tr.Ports < 1 {
		return nil, fmt.Errorf("coflow: trace has no ports")
	}
	r, err := newReplayer(tr, opt, pol)
	if err != nil {
		return nil, err
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r.result(), nil
}

// afterStep, when set (by tests), runs after all events of each instant.
var afterStep func(r *replayer, t float64)

type replayer struct {
	opt   Options
	tr    *coflowbench.Trace
	net   *network.Network
	pol   rate.Policy    // nil for fair
	aalo  *rate.Aalo     // set when pol is aalo
	refil *rate.Refiller // nil with Options.IdleFreedBandwidth, fair, or full reallocation per flow
	alloc *rate.Allocator
	model flowModel

	coflows []*coflowState // by trace index; nil before arrival and after finish
	active  []*rate.Coflow // the arrived coflows' rate state, arrival order
	recs    []Record

	departed, anyDone bool
	flows, reallocs   int
	rateUpdates       int
	netBytes          float64
	err               error
}

func newReplayer(tr *coflowbench.Trace, opt Options, pol rate.Policy) (*replayer, error) {
	nm := tr.Ports
	if opt.SamePortFlows {
		nm *= 2 // port p sends from machine 2p and receives at 2p+1 (see machines)
	}
	machines := make([]network.Machine, nm)
	for i := range machines {
		machines[i] = network.Machine{Rack: 0, NICUp: opt.PortSpeed, NICDown: opt.PortSpeed}
	}
	net, err := network.New(network.Config{
		Kind: network.NonBlocking, Machines: machines, Racks: 1,
		Monitor:     network.MonitorConfig{Interval: -1}, // no samples: nobody reads them
		Granularity: opt.TimeStep,
	})
	if err != nil {
		return nil, err
	}
	// Resources: port p's uplink is p, its downlink ports+p (see resources).
	caps := make([]float64, 2*tr.Ports)
	for i := range caps {
		caps[i] = opt.PortSpeed
	}
	alloc, err := rate.NewAllocator(caps)
	if err != nil {
		return nil, err
	}
	r := &replayer{opt: opt, tr: tr, net: net, pol: pol, alloc: alloc,
		coflows: make([]*coflowState, len(tr.Coflows)), recs: make([]Record, len(tr.Coflows)),
		model: flowModel{merge: opt.MergeRackFlows, minFlow: opt.MinFlow, roundFlows: opt.RoundFlows, samePort: opt.SamePortFlows}}
	r.aalo, _ = pol.(*rate.Aalo)
	if r.aalo != nil && opt.AaloNoBackfill {
		r.aalo.SetBackfill(false)
	}
	if r.pol != nil && !opt.IdleFreedBandwidth && !opt.RescheduleOnFlowCompletion {
		r.refil = rate.NewRefiller(len(caps))
	}
	return r, nil
}

func (r *replayer) run() error {
	n := len(r.tr.Coflows)
	next := 0              // next coflow to arrive
	polNext := math.Inf(1) // aalo's next limit crossing
	for r.err == nil {
		t := min(r.net.NextEvent(), r.step(polNext))
		if next < n {
			t = min(t, r.step(r.tr.Coflows[next].Arrival))
		}
		if math.IsInf(t, 1) {
			break
		}
		r.departed, r.anyDone = false, false
		r.net.AdvanceTo(t, r.onDone)
		if r.departed {
			r.dropFinished()
		}
		arrived := false
		for next < n && r.step(r.tr.Coflows[next].Arrival) <= t {
			r.arrive(next, t)
			next, arrived = next+1, true
		}
		if r.pol != nil {
			polNext = r.schedule(t, arrived, polNext)
		}
		if afterStep != nil {
			afterStep(r, t)
		}
	}
	if r.err != nil {
		return r.err
	}
	if len(r.active) > 0 {
		return fmt.Errorf("coflow: policy %s left coflow %s without bandwidth: it never finished", r.opt.Policy, r.tr.Coflows[r.active[0].Index].ID)
	}
	return nil
}

// step is the time at which the replay handles an event due at t: t itself,
// or with Options.TimeStep the first multiple of the step at or after t (t
// within float noise of a multiple is that multiple, as in package network).
func (r *replayer) step(t float64) float64 {
	q := r.opt.TimeStep
	if q <= 0 || math.IsInf(t, 1) {
		return t
	}
	if k := math.Round(t / q); math.Abs(t-k*q) <= 1e-11*max(1, math.Abs(t)) {
		return k * q
	}
	return math.Ceil(t/q) * q
}

// machines are the network machines of a flow from port src to port dst:
// the ports themselves, or with Options.SamePortFlows 2src (sending half)
// and 2dst+1 (receiving half), so that a flow from a port to itself crosses
// its uplink and its downlink like any other.
func (r *replayer) machines(src, dst int) (int, int) {
	if r.opt.SamePortFlows {
		return 2 * src, 2*dst + 1
	}
	return src, dst
}

// schedule runs the rate policy after the events at time t and returns the
// time of its next own event (aalo's next limit crossing bound, else +Inf).
func (r *replayer) schedule(t float64, arrived bool, polNext float64) float64 {
	realloc := arrived || r.departed || (r.opt.RescheduleOnFlowCompletion && r.anyDone)
	if r.refil != nil {
		if realloc {
			r.refil.Forget() // the reallocation covers them
		} else if r.refil.Pending() {
			r.refil.Refill(r.alloc, func(ref rate.Ref) {
				f := ref.Flow()
				if r.aalo != nil {
					// A raised rate can only bring this coflow's crossing forward.
					r.aalo.RateChanged(ref.C, f.Rate, f.Next, t)
					polNext = min(polNext, r.aalo.Crossing(ref.C))
				}
				r.setRate(t, r.coflows[ref.C.Index], ref.I)
			})
		}
	}
	check := t >= r.step(polNext)
	if r.aalo != nil && (check || realloc) && r.aalo.Requeue(t, r.active) {
		realloc = true
	}
	if realloc {
		r.refresh()
		r.pol.Allocate(r.alloc, r.active)
		r.apply(t)
		r.reallocs++
		if r.aalo != nil {
			r.aalo.Resync(t, r.active)
			if r.refil != nil {
				r.refil.SortByQueue()
			}
		}
	}
	if r.aalo == nil || r.opt.AaloRequeueAtEvents {
		return math.Inf(1) // (requeued only at arrivals and departures)
	}
	if realloc || check {
		next := r.aalo.NextCrossing(r.active)
		if q := r.opt.TimeStep; q > 0 && r.step(next) <= t {
			next = t + q // checked at t already: the next step is the earliest
		}
		return next
	}
	return polNext
}

// arrive starts every flow of trace coflow i at time t.
func (r *replayer) arrive(i int, t float64) {
	c := &r.tr.Coflows[i]
	cs, specs := newCoflowState(i, r.tr.Ports, c, r.model)
	r.recs[i] = Record{ID: c.ID, Arrival: c.Arrival, Bytes: c.TotalBytes(), Width: cs.width, LongestFlow: cs.Longest}
	r.flows += cs.width
	r.netBytes += cs.Bytes
	if cs.width == 0 {
		r.finish(cs, c.Arrival)
		return
	}
	r.coflows[i] = cs
	r.active = append(r.active, &cs.Coflow)
	if r.refil != nil {
		r.refil.Add(&cs.Coflow)
	}
	for j, s := range specs {
		src, dst := r.machines(s.src, s.dst)
		id, err := r.net.Start(t, network.FlowSpec{Src: src, Dst: dst, Size: s.size, Tag: tag(i, j)})
		if err != nil {
			r.err = fmt.Errorf("coflow %s: %w", c.ID, err)
			return
		}
		cs.ids[j] = id
	}
}

func (r *replayer) onDone(c network.Completion) {
	ci, fi := untag(c.Tag)
	cs := r.coflows[ci]
	f := &cs.Flows[fi]
	if r.aalo != nil {
		r.aalo.RateChanged(&cs.Coflow, f.Rate, 0, c.Time)
	}
	f.Done, f.Rem = true, 0
	cs.finished = true
	r.anyDone = true
	if r.refil != nil {
		r.refil.Finished(&cs.Coflow, fi)
	}
	if cs.left--; cs.left == 0 {
		r.finish(cs, c.Time)
	}
}

func (r *replayer) finish(cs *coflowState, t float64) {
	rec := &r.recs[cs.Index]
	rec.Finish, rec.CCT = t, t-cs.arrival
	r.coflows[cs.Index] = nil
	cs.Flows, cs.ids, cs.still = nil, nil, nil // the record keeps what outlives the coflow
	r.departed = true
}

// dropFinished removes finished coflows from the active list, keeping the
// arrival order.
func (r *replayer) dropFinished() {
	kept := r.active[:0]
	for _, c := range r.active {
		if len(c.Flows) > 0 {
			kept = append(kept, c)
		}
	}
	clear(r.active[len(kept):])
	r.active = kept
}

// refresh brings every unfinished flow's remaining bytes up to date. Most
// active flows wait at rate 0 (87% after a reallocation on FB2010 under
// sebf), and a flow pinned at rate 0 keeps the network's remaining bytes
// bit for bit (its private group's clock does not move), so a flow read
// while at rate 0 is read again only after its rate changed. A coflow with
// no flow read or finished is Still: the allocator reuses its loads.
func (r *replayer) refresh() {
	for _, c := range r.active {
		cs := r.coflows[c.Index]
		still := !cs.finished
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done && !cs.still[i] {
				f.Rem = r.net.Remaining(cs.ids[i])
				cs.still[i] = f.Rate == 0 && !readEveryFlow
				still = false
			}
		}
		c.Still, cs.finished = still, false
	}
}

// readEveryFlow, set only by tests, makes refresh read every unfinished
// flow at every reallocation: the reference the skipping is checked
// against.
var readEveryFlow bool

// apply pins every flow whose computed rate changed.
func (r *replayer) apply(t float64) {
	for _, c := range r.active {
		cs := r.coflows[c.Index]
		for i := range c.Flows {
			if f := &c.Flows[i]; !f.Done && f.Next != f.Rate {
				r.setRate(t, cs, i)
			}
		}
	}
}

// setRate pins flow i of cs to its computed rate.
func (r *replayer) setRate(t float64, cs *coflowState, i int) {
	f := &cs.Flows[i]
	r.net.SetRate(t, cs.ids[i], f.Next)
	f.Rate = f.Next
	cs.still[i] = false
	r.rateUpdates++
}
