package sim

import "github.com/netsched/netsched/internal/state"

// event is one scheduled engine event; events at equal times run in the
// order they were scheduled (seq), which makes runs deterministic.
type event struct {
	time float64
	seq  uint64
	kind eventKind
	task *state.Task
	m    int
}

type eventKind int8

const (
	evArrival eventKind = iota // next job from the workload source
	evComputeDone
	evHeartbeat
	evTick
	evRackHeartbeat
)

// eventHeap is a binary min-heap on (time, seq); own code because
// container/heap's interface calls cost about a fifth more here.
type eventHeap struct {
	items []event
	seq   uint64
}

func (h *eventHeap) Len() int { return len(h.items) }

func (h *eventHeap) less(i, j int) bool {
	a, b := &h.items[i], &h.items[j]
	return a.time < b.time || a.time == b.time && a.seq < b.seq
}

func (h *eventHeap) push(e event) {
	e.seq = h.seq
	h.seq++
	h.items = append(h.items, e)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *eventHeap) peekTime() float64 {
	if len(h.items) == 0 {
		return inf
	}
	return h.items[0].time
}

// secondTime is the time of the event after the first (Inf if none).
func (h *eventHeap) secondTime() float64 {
	t := inf
	for _, i := range []int{1, 2} {
		if i < len(h.items) {
			t = min(t, h.items[i].time)
		}
	}
	return t
}

func (h *eventHeap) pop() event {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h.items[i], h.items[c] = h.items[c], h.items[i]
		i = c
	}
	return top
}
