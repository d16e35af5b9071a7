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
// sent bytes reach its queue's limit, computed exactly as an event).
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

type replayer struct {
	opt   Options
	tr    *coflowbench.Trace
	net   *network.Network
	pol   ratePolicy  // nil for fair
	aalo  *aaloPolicy // set when pol is aalo
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
		if r.pol == nil {
			continue
		}
		realloc := arrived || r.departed || (r.opt.RescheduleOnFlowCompletion && r.anyDone)
		check := t >= polNext
		if !realloc && !check {
			continue
		}
		r.refresh()
		if r.aalo != nil && r.aalo.requeue(r.active) {
			realloc = true
		}
		if realloc {
			r.pol.allocate(r.alloc, r.active)
			r.apply(t)
			r.reallocs++
		}
		if r.aalo != nil {
			polNext = r.aalo.nextCrossing(t, r.active)
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
	f.done, f.rem = true, 0
	r.anyDone = true
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
				r.net.SetRate(t, f.id, f.next)
				f.rate = f.next
				r.rateUpdates++
			}
		}
	}
}
