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
	// Pending is changed only through Add, PopPending and QueueReleased,
	// which keep pendingAt.
	Pending     []Source
	Held        []Source
	Gated       bool // new sources go to Held
	Active      int
	Outstanding int
	Flows       []*FlowRec // in flight

	// pendingAt indexes a long Pending list: the first entry of each
	// (machine, kind), as a position counted over every entry ever queued
	// (popped of them were taken from the front). A reducer of a large job
	// adds one source per map from up to every machine, so scanning the
	// list per Add made its input phase quadratic. dups: some key may
	// have a second entry (QueueReleased does not merge).
	pendingAt map[sourceKey]int
	popped    int
	dups      bool
}

type sourceKey struct {
	machine int
	kind    ByteKind
}

// indexFrom is the length of Pending from which it is indexed (a short
// list is scanned).
const indexFrom = 16

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
	q := &f.Pending
	if f.Gated && !local {
		q = &f.Held
	} else {
		if f.pendingAt == nil && len(f.Pending) >= indexFrom {
			f.indexPending()
		}
		if f.pendingAt != nil {
			key := sourceKey{m, k}
			if p, ok := f.pendingAt[key]; ok {
				f.Pending[p-f.popped].Bytes += b
				return
			}
			f.pendingAt[key] = f.popped + len(f.Pending)
			f.Pending = append(f.Pending, Source{Machine: m, Bytes: b, Kind: k})
			return
		}
	}
	for i := range *q {
		if (*q)[i].Machine == m && (*q)[i].Kind == k {
			(*q)[i].Bytes += b
			return
		}
	}
	*q = append(*q, Source{Machine: m, Bytes: b, Kind: k})
}

func (f *FetchState) indexPending() {
	f.pendingAt = make(map[sourceKey]int, 2*len(f.Pending))
	for i, s := range f.Pending {
		key := sourceKey{s.Machine, s.Kind}
		if _, ok := f.pendingAt[key]; ok {
			f.dups = true
			continue
		}
		f.pendingAt[key] = f.popped + i
	}
}

// PopPending takes the first queued source.
func (f *FetchState) PopPending() Source {
	s := f.Pending[0]
	f.Pending = f.Pending[1:]
	if f.pendingAt != nil {
		key := sourceKey{s.Machine, s.Kind}
		if f.pendingAt[key] == f.popped {
			delete(f.pendingAt, key)
			if f.dups { // a later entry of the key becomes the first
				for i, o := range f.Pending {
					if o.Machine == s.Machine && o.Kind == s.Kind {
						f.pendingAt[key] = f.popped + 1 + i
						break
					}
				}
			}
		}
	}
	f.popped++
	return s
}

// QueueReleased appends a source released from Held, without merging it.
func (f *FetchState) QueueReleased(s Source) {
	if f.pendingAt != nil {
		key := sourceKey{s.Machine, s.Kind}
		if _, ok := f.pendingAt[key]; ok {
			f.dups = true
		} else {
			f.pendingAt[key] = f.popped + len(f.Pending)
		}
	}
	f.Pending = append(f.Pending, s)
}
