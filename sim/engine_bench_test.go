package sim_test

import (
	"container/heap"
	"testing"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sim"
)

// freeNet is a network that never contends: every flow runs at the slower
// of its two NICs from start to end, whatever else is in flight, and a
// completion is an event of its own. It measures the engine's own cost per
// event (BenchmarkEngineNoContention), with no allocator behind the flows.
type freeNet struct {
	cfg   network.Config
	now   float64
	flows []freeFlow // by id
	due   freeHeap
	live  int
}

type freeFlow struct {
	tag          int64
	start, end   float64
	size, rate   float64
	done, cancel bool
}

type freeHeap []network.FlowID

func newFreeNet(cfg network.Config) (network.API, error) {
	return &freeNet{cfg: cfg, flows: make([]freeFlow, 1)}, nil
}

func (n *freeNet) Start(now float64, f network.FlowSpec) (network.FlowID, error) {
	n.now = max(n.now, now)
	r := min(n.cfg.Machines[f.Src].NICUp, n.cfg.Machines[f.Dst].NICDown)
	id := network.FlowID(len(n.flows))
	n.flows = append(n.flows, freeFlow{tag: f.Tag, start: n.now, end: n.now + f.Size/r, size: f.Size, rate: r})
	n.due.push(n, id)
	n.live++
	return id, nil
}

func (n *freeNet) Cancel(now float64, id network.FlowID) {
	if f := &n.flows[id]; !f.done && !f.cancel {
		f.cancel = true
		n.live--
	}
}

func (n *freeNet) SetClass(float64, network.FlowID, int)       {}
func (n *freeNet) SetRateCap(float64, network.FlowID, float64) {}
func (n *freeNet) SetRate(float64, network.FlowID, float64)    {}

func (n *freeNet) NextEvent() float64 {
	for len(n.due) > 0 && n.flows[n.due[0]].cancel {
		n.due.pop(n)
	}
	if len(n.due) == 0 {
		return network.Inf
	}
	return n.flows[n.due[0]].end
}

func (n *freeNet) Err() error { return nil }

func (n *freeNet) AdvanceTo(t float64, done func(network.Completion)) {
	for n.NextEvent() <= t {
		id := n.due.pop(n)
		f := &n.flows[id]
		f.done = true
		n.live--
		n.now = max(n.now, f.end)
		done(network.Completion{ID: id, Tag: f.tag, Time: f.end, Size: f.size})
	}
	n.now = max(n.now, t)
}

func (n *freeNet) Remaining(id network.FlowID) float64 {
	f := &n.flows[id]
	if f.done || f.cancel {
		return 0
	}
	return max(0, f.size-f.rate*(n.now-f.start))
}

func (n *freeNet) Rate(id network.FlowID) float64 { return n.flows[id].rate }
func (n *freeNet) ActiveFlows() int               { return n.live }
func (n *freeNet) Stats() network.Stats           { return network.Stats{} }
func (n *freeNet) Links() []network.LinkInfo      { return nil }
func (n *freeNet) LinkLoad() []float64            { return nil }
func (n *freeNet) Monitor() network.Sample        { return network.Sample{} }

func (h *freeHeap) push(n *freeNet, id network.FlowID) { heap.Push(&freeHeapOf{h, n}, id) }
func (h *freeHeap) pop(n *freeNet) network.FlowID {
	return heap.Pop(&freeHeapOf{h, n}).(network.FlowID)
}

type freeHeapOf struct {
	h *freeHeap
	n *freeNet
}

func (x *freeHeapOf) Len() int { return len(*x.h) }
func (x *freeHeapOf) Less(i, j int) bool {
	a, b := (*x.h)[i], (*x.h)[j]
	if ea, eb := x.n.flows[a].end, x.n.flows[b].end; ea != eb {
		return ea < eb
	}
	return a < b
}
func (x *freeHeapOf) Swap(i, j int) { (*x.h)[i], (*x.h)[j] = (*x.h)[j], (*x.h)[i] }
func (x *freeHeapOf) Push(v any)    { *x.h = append(*x.h, v.(network.FlowID)) }
func (x *freeHeapOf) Pop() any {
	old := *x.h
	v := old[len(old)-1]
	*x.h = old[:len(old)-1]
	return v
}

// BenchmarkEngineNoContention: the engine's own cost per event. The
// synthetic MapReduce scenario of BenchmarkEngine100kTasks (1,000 jobs x
// 100 tasks on 200 machines, FIFO) on a network that never contends
// (freeNet): what is left is the engine (events, task lifecycle, fetch
// queues, metrics) and the scheduler's decisions.
func BenchmarkEngineNoContention(b *testing.B) {
	defer sim.SetNewNetwork(newFreeNet)()
	sc := syntheticScenario(b, 1000, 90, 10)
	events := 0
	for b.Loop() {
		res, err := sim.Run(sc)
		if err != nil {
			b.Fatal(err)
		}
		events = res.Summary.Events
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events), "events")
}

// BenchmarkEngineNonBlocking: the same jobs on the network model itself,
// non-blocking (only NICs are shared): the engine plus the allocator.
func BenchmarkEngineNonBlocking(b *testing.B) {
	sc := syntheticScenario(b, 1000, 90, 10)
	sc.Network.Kind = network.NonBlocking
	events := 0
	for b.Loop() {
		res, err := sim.Run(sc)
		if err != nil {
			b.Fatal(err)
		}
		events = res.Summary.Events
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events), "events")
}
