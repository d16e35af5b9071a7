// Package coflow replays a coflow-benchmark trace on the flow-level network
// model alone (no tasks, no slots): every port is a machine on a
// non-blocking fabric whose NIC uplink and downlink run at the port speed,
// and a coflow scheduling policy sets the flows' rates.
//
// Policies: "fair" leaves sharing to the network's per-flow max-min
// allocation. "fifo", "scf", "ncf", "lcf" and "sebf" order the coflows, give
// each the Varys MADD allocation against the bandwidth earlier coflows left
// and then backfill leftover bandwidth in arrival order; "aalo" is Aalo's
// D-CLAS. Those six set explicit rates with network.SetRate and reallocate
// on every coflow arrival and departure (and, for aalo, whenever a coflow's
// sent bytes reach its queue's limit, computed exactly as an event); in
// between, a finished flow's bandwidth is backfilled at its two ports.
// See docs/coflow.md for the definitions.
package coflow

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/trace/coflowbench"
)

// Replay runs the whole trace under opt and returns one record per coflow
// (in trace order) and the summary.
func Replay(tr *coflowbench.Trace, opt Options) (*Result, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if tr == nil || tr.Ports < 1 {
		return nil, fmt.Errorf("coflow: trace has no ports")
	}
	r, err := newReplayer(tr, opt)
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
	pol   ratePolicy  // nil for fair
	aalo  *aaloPolicy // set when pol is aalo
	refil *refiller   // nil with Options.IdleFreedBandwidth, fair, or full reallocation per flow
	alloc *allocator

	coflows []*coflowState // by trace index; nil before arrival and after finish
	active  []*coflowState // arrival order
	recs    []Record

	departed, anyDone bool
	flows, reallocs   int
	rateUpdates       int
	netBytes          float64
	err               error
}

func newReplayer(tr *coflowbench.Trace, opt Options) (*replayer, error) {
	machines := make([]network.Machine, tr.Ports)
	for i := range machines {
		machines[i] = network.Machine{Rack: 0, NICUp: opt.PortSpeed, NICDown: opt.PortSpeed}
	}
	net, err := network.New(network.Config{
		Kind: network.NonBlocking, Machines: machines, Racks: 1,
		Monitor: network.MonitorConfig{Interval: -1}, // no samples: nobody reads them
	})
	if err != nil {
		return nil, err
	}
	r := &replayer{opt: opt, tr: tr, net: net, alloc: newAllocator(tr.Ports, opt.PortSpeed),
		coflows: make([]*coflowState, len(tr.Coflows)), recs: make([]Record, len(tr.Coflows))}
	switch opt.Policy {
	case Fair:
	case Aalo:
		r.aalo = newAalo(opt, tr.Ports)
		r.pol = r.aalo
	default:
		r.pol = &orderPolicy{key: orderKeys[opt.Policy]}
	}
	if r.pol != nil && !opt.IdleFreedBandwidth && !opt.RescheduleOnFlowCompletion {
		r.refil = newRefiller(tr.Ports)
	}
	return r, nil
}

func (r *replayer) run() error {
	n := len(r.tr.Coflows)
	next := 0              // next coflow to arrive
	polNext := math.Inf(1) // aalo's next limit crossing
	for r.err == nil {
		t := min(r.net.NextEvent(), polNext)
		if next < n {
			t = min(t, r.tr.Coflows[next].Arrival)
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
		for next < n && r.tr.Coflows[next].Arrival <= t {
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
		return fmt.Errorf("coflow: policy %s left coflow %s without bandwidth: it never finished", r.opt.Policy, r.tr.Coflows[r.active[0].idx].ID)
	}
	return nil
}

// schedule runs the rate policy after the events at time t and returns the
// time of its next own event (aalo's next limit crossing bound, else +Inf).
func (r *replayer) schedule(t float64, arrived bool, polNext float64) float64 {
	realloc := arrived || r.departed || (r.opt.RescheduleOnFlowCompletion && r.anyDone)
	if r.refil != nil {
		if realloc {
			r.refil.freed = r.refil.freed[:0] // the reallocation covers them
		} else if len(r.refil.freed) > 0 {
			r.refil.refill(r.alloc, func(ref flowRef) {
				f := ref.flow()
				if r.aalo != nil {
					// A raised rate can only bring this coflow's crossing forward.
					r.aalo.rateChanged(ref.c, f.rate, f.next, t)
					polNext = min(polNext, r.aalo.crossing(ref.c))
				}
				r.setRate(t, f)
			})
		}
	}
	check := t >= polNext
	if r.aalo != nil && (check || realloc) && r.aalo.requeue(t, r.active) {
		realloc = true
	}
	if realloc {
		r.refresh()
		r.pol.allocate(r.alloc, r.active)
		r.apply(t)
		r.reallocs++
		if r.aalo != nil {
			r.aalo.resync(t, r.active)
			if r.refil != nil {
				r.refil.sortByQueue()
			}
		}
	}
	if r.aalo == nil {
		return math.Inf(1)
	}
	if realloc || check {
		return r.aalo.nextCrossing(r.active)
	}
	return polNext
}

// arrive starts every flow of trace coflow i at time t.
func (r *replayer) arrive(i int, t float64) {
	c := &r.tr.Coflows[i]
	cs := newCoflowState(i, c)
	r.recs[i] = Record{ID: c.ID, Arrival: c.Arrival, Bytes: c.TotalBytes(), Width: cs.width, LongestFlow: cs.longest}
	r.flows += cs.width
	r.netBytes += cs.netBytes
	if cs.width == 0 {
		r.finish(cs, c.Arrival)
		return
	}
	r.coflows[i] = cs
	r.active = append(r.active, cs)
	if r.refil != nil {
		r.refil.add(cs)
	}
	for j := range cs.flows {
		f := &cs.flows[j]
		id, err := r.net.Start(t, network.FlowSpec{Src: f.src, Dst: f.dst, Size: f.size, Tag: tag(i, j)})
		if err != nil {
			r.err = fmt.Errorf("coflow %s: %w", c.ID, err)
			return
		}
		f.id = id
	}
}

func (r *replayer) onDone(c network.Completion) {
	ci, fi := untag(c.Tag)
	cs := r.coflows[ci]
	f := &cs.flows[fi]
	if r.aalo != nil {
		r.aalo.rateChanged(cs, f.rate, 0, c.Time)
	}
	f.done, f.rem = true, 0
	r.anyDone = true
	if r.refil != nil {
		r.refil.freed = append(r.refil.freed, flowRef{cs, fi})
	}
	if cs.left--; cs.left == 0 {
		r.finish(cs, c.Time)
	}
}

func (r *replayer) finish(cs *coflowState, t float64) {
	rec := &r.recs[cs.idx]
	rec.Finish, rec.CCT = t, t-cs.arrival
	r.coflows[cs.idx] = nil
	cs.flows = nil // the record keeps what outlives the coflow
	r.departed = true
}

// dropFinished removes finished coflows from the active list, keeping the
// arrival order.
func (r *replayer) dropFinished() {
	kept := r.active[:0]
	for _, c := range r.active {
		if c.left > 0 {
			kept = append(kept, c)
		}
	}
	clear(r.active[len(kept):])
	r.active = kept
}

// refresh reads every unfinished flow's remaining bytes from the network.
func (r *replayer) refresh() {
	for _, c := range r.active {
		for i := range c.flows {
			if f := &c.flows[i]; !f.done {
				f.rem = r.net.Remaining(f.id)
			}
		}
	}
}

// apply pins every flow whose computed rate changed.
func (r *replayer) apply(t float64) {
	for _, c := range r.active {
		for i := range c.flows {
			f := &c.flows[i]
			if !f.done && f.next != f.rate {
				r.setRate(t, f)
			}
		}
	}
}

// setRate pins f to its computed rate.
func (r *replayer) setRate(t float64, f *flowState) {
	r.net.SetRate(t, f.id, f.next)
	f.rate = f.next
	r.rateUpdates++
}
