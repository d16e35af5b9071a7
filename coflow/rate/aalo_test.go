package rate

import (
	"math"
	"testing"
)

const mib = 1 << 20

func newAaloT(t *testing.T, c AaloConfig) *Aalo {
	t.Helper()
	p, err := NewAalo(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAaloQueueFor(t *testing.T) {
	p := newAaloT(t, AaloConfig{Queues: 10, FirstLimit: 10 * mib, Multiplier: 10})
	cases := []struct {
		sent float64
		q    int
	}{
		{0, 0}, {10*mib - 1, 0}, {10 * mib, 1}, {99 * mib, 1}, {100 * mib, 2},
		{1e4 * mib, 4}, {0.99e9 * mib, 8}, {1e9 * mib, 9}, {1e15 * mib, 9},
	}
	for _, c := range cases {
		if got := p.QueueFor(c.sent); got != c.q {
			t.Errorf("QueueFor(%v MiB) = %d, want %d", c.sent/mib, got, c.q)
		}
	}
}

// A coflow's sent bytes are tracked between reallocations; the crossing
// bound assumes the current sending rate, and a flow finishing pushes it
// back. Q0's limit is 10, Q1's 100. At t = 100 the coflow has sent 4 of 18
// and sends with
//
//	f1: 2 left at rate 2
//	f2: 8 left at rate 1
//
// so the bound is 100 + 6/3 = 102. f1 finishes at 101 (sent 7): the bound
// becomes 101 + 3/1 = 104, when it reaches 10 and moves to Q1; the next
// bound is 104 + 90/1 = 194.
func TestAaloCrossing(t *testing.T) {
	p := newAaloT(t, AaloConfig{Queues: 3, FirstLimit: 10, Multiplier: 10})
	c := &Coflow{Bytes: 18, Flows: []Flow{
		{Rem: 2, Rate: 2},
		{Rem: 8, Rate: 1},
		{Rem: 0, Rate: 5, Done: true},
		{Rem: 4, Rate: 0}, // stalled: adds nothing
	}}
	active := []*Coflow{c}
	p.Resync(100, active)
	if c.sent0 != 4 || c.sendRate != 3 {
		t.Fatalf("sent %v rate %v, want 4 and 3", c.sent0, c.sendRate)
	}
	if got := p.NextCrossing(active); got != 102 {
		t.Errorf("bound = %v, want 102", got)
	}
	p.RateChanged(c, 2, 0, 101)
	if got := p.Crossing(c); got != 104 {
		t.Errorf("bound after f1 = %v, want 104", got)
	}
	if p.Requeue(103.9, active) || c.Queue != 0 {
		t.Errorf("moved at 103.9 (sent %v)", c.sent0)
	}
	if !p.Requeue(104, active) || c.Queue != 1 {
		t.Errorf("not moved at 104 (sent %v)", c.sent0)
	}
	if got := p.Crossing(c); got != 194 {
		t.Errorf("Q1 bound = %v, want 194", got)
	}
	// The last queue has no limit; a coflow that sends nothing never crosses.
	c.Queue = 2
	if got := p.Crossing(c); !math.IsInf(got, 1) {
		t.Errorf("last queue: bound = %v", got)
	}
	c.Queue, c.sendRate = 0, 0
	if got := p.Crossing(c); !math.IsInf(got, 1) {
		t.Errorf("no rate: bound = %v", got)
	}
}

// Reallocate, as the task engine uses it, at 1 byte/s resources with a
// first limit of 10 bytes:
//
//	A: 0 -> 2, Bytes 30 of which 6 sent (24 left)
//	B: 1 -> 2, Bytes 8, nothing sent
//
// Both in Q0; A is first (arrival) and takes down 2 at rate 1, B gets 0.
// A's crossing: it has 4 bytes to go to 10 at rate 1: t = 50 + 4 = 54.
// Called again at 54 with 20 left (10 sent), A moves to Q1: B now takes
// down 2, and B's crossing is 54 + 10/1 = 64 (it has only 8 bytes, so it
// would finish first; the bound is only a bound).
func TestReallocateAaloQueues(t *testing.T) {
	p := newAaloT(t, AaloConfig{Queues: 3, FirstLimit: 10, Multiplier: 10})
	a := newAlloc(t, uniform(3, 1)...)
	A := &Coflow{Index: 0, Bytes: 30, Flows: []Flow{flow(24, 0, 2)}}
	B := &Coflow{Index: 1, Bytes: 8, Flows: []Flow{flow(8, 1, 2)}}
	active := []*Coflow{A, B}
	if next := Reallocate(p, a, 50, active); next != 54 || A.Flows[0].Next != 1 || B.Flows[0].Next != 0 || A.Flows[0].Rate != 1 {
		t.Fatalf("at 50: next %v, rates A %v B %v", next, A.Flows[0].Next, B.Flows[0].Next)
	}
	A.Flows[0].Rem = 20
	if next := Reallocate(p, a, 54, active); next != 64 || A.Queue != 1 || A.Flows[0].Next != 0 || B.Flows[0].Next != 1 {
		t.Fatalf("at 54: next %v, queue A %d, rates A %v B %v", next, A.Queue, A.Flows[0].Next, B.Flows[0].Next)
	}
	// Varys has no events of its own.
	v, _ := NewVarys(SEBF)
	if next := Reallocate(v, a, 54, active); !math.IsInf(next, 1) {
		t.Errorf("varys next %v", next)
	}
}
