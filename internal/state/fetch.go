package state

import "github.com/netsched/netsched/network"

// ByteKind says why bytes moved (for the bytes-by-kind measures).
type ByteKind int8

const (
	KindInput     ByteKind = iota // file (DFS) input reads
	KindShuffle                   // parent-stage output of the same job
	KindDependent                 // parent-job output (workflows)
	NumKinds
)

func (k ByteKind) String() string { return [...]string{"input", "shuffle", "dependent"}[k] }

// FetchState is a task's input phase: sources not yet fetched (one entry per
// source machine and kind, merged while queued), flows in flight, and parent
// tasks whose output it still expects. Under fetch gating, queued sources
// wait in Held until the scheduler releases them.
type FetchState struct {
	Pending     []Source
	Held        []Source
	Gated       bool // new sources go to Held
	Active      int
	Outstanding int
	Flows       []*FlowRec // in flight
}

// Source is queued bytes from one machine.
type Source struct {
	Machine int
	Bytes   float64
	Kind    ByteKind
	// Aggregate is the size of the aggregated transfer a released source
	// belongs to (Plan.ReleaseRackTogether); 0 when released alone.
	Aggregate float64
}

// FlowRec ties a network flow to the task that receives it.
type FlowRec struct {
	Task  *Task
	Src   int
	Bytes float64
	Kind  ByteKind
	ID    network.FlowID
	Class int     // the class it started in
	Start float64 // when it started
}

// Add queues bytes from a machine, merging with a queued fetch from the
// same machine and kind so that one flow carries them (a reducer fetches
// per host, not per map). A gated fetch state holds them instead, except
// node-local bytes, which need no transfer to hold back.
func (f *FetchState) Add(m int, b float64, k ByteKind, local bool) {
	q := f.Queue(local)
	for i := range *q {
		if (*q)[i].Machine == m && (*q)[i].Kind == k {
			(*q)[i].Bytes += b
			return
		}
	}
	*q = append(*q, Source{Machine: m, Bytes: b, Kind: k})
}

// Queue is the queue Add puts bytes in: Held under gating, except for
// node-local bytes, else Pending.
func (f *FetchState) Queue(local bool) *[]Source {
	if f.Gated && !local {
		return &f.Held
	}
	return &f.Pending
}
