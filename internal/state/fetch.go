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

	// shuffleAt indexes a long Pending list of an ungated task by merge
	// key: 1 + the position, counted over every source ever queued, of the
	// key's shuffle source, 0 if none. A running reducer of a large job
	// merges one map's output per finished map, and a scan of a queue of
	// hundreds of source machines per map and reducer was 12% of the CPU
	// of the first 200 full-size jobs. Pending changes only through Add, PopPending
	// and, before the index exists, plain appends; a gated task is never
	// indexed (its released sources may repeat a key).
	shuffleAt []int32
	popped    int32
	indexes   *IndexPool
}

// NewFetchState is an empty input phase whose long queue may borrow an
// index from pool (nil: never indexed).
func NewFetchState(pool *IndexPool) *FetchState {
	return &FetchState{indexes: pool}
}

// IndexPool recycles the dense shuffle-source indexes of FetchStates: at
// most one per running task is in use, and each is all zeros when given
// back (every indexed source has been popped).
type IndexPool struct {
	Keys int // merge keys: machines + racks
	free [][]int32
}

// indexFrom is the Pending length from which Add indexes it; a short
// queue (a map's one input, a small job's reducer) is scanned.
const indexFrom = 16

// Source is queued bytes from one machine, or from several machines of
// one rack under the per-rack transfer model.
type Source struct {
	Machine int // the machine, or the first of a FromRack source's machines
	Bytes   float64
	Kind    ByteKind
	// FromRack: the bytes come from more than one machine of Machine's
	// rack and travel as one network.FlowSpec.FromRack flow.
	FromRack bool
	// key is what Add merges on: Machine, or the rack under the per-rack
	// transfer model (a Key value).
	key int32
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

// Key is the merge key of bytes from machine m for Add: m itself, or, when
// perRack and m's rack is not the receiver's, machines+rack, shared by
// every machine of that rack.
func Key(m, rack, receiverRack, machines int, perRack bool) int {
	if perRack && rack != receiverRack {
		return machines + rack
	}
	return m
}

// Add queues bytes from machine m under merge key key (Key), merging with
// a queued fetch of the same key and kind so that one flow carries them (a
// reducer fetches per host, not per map; per rack under the per-rack
// model). A gated fetch state holds them instead, except node-local bytes,
// which need no transfer to hold back.
func (f *FetchState) Add(m, key int, b float64, k ByteKind, local bool) {
	q := f.Queue(local)
	if k == KindShuffle && q == &f.Pending && f.indexed() {
		if p := f.shuffleAt[key]; p > 0 {
			f.Pending[p-1-f.popped].Merge(m, b)
			return
		}
		f.Pending = append(f.Pending, NewSource(m, key, b, k))
		f.shuffleAt[key] = f.popped + int32(len(f.Pending))
		return
	}
	for i := range *q {
		if s := &(*q)[i]; s.key == int32(key) && s.Kind == k {
			s.Merge(m, b)
			return
		}
	}
	*q = append(*q, NewSource(m, key, b, k))
}

// indexed says whether Pending has a shuffle index, building one when the
// queue has grown long.
func (f *FetchState) indexed() bool {
	if f.shuffleAt != nil {
		return true
	}
	if f.indexes == nil || f.Gated || len(f.Pending) < indexFrom {
		return false
	}
	f.shuffleAt = f.indexes.get()
	for i, s := range f.Pending {
		if s.Kind == KindShuffle && f.shuffleAt[s.key] == 0 {
			f.shuffleAt[s.key] = f.popped + int32(i) + 1
		}
	}
	return true
}

// PopPending takes the first queued source.
func (f *FetchState) PopPending() Source {
	s := f.Pending[0]
	f.Pending = f.Pending[1:]
	f.popped++
	if f.shuffleAt != nil && s.Kind == KindShuffle && f.shuffleAt[s.key] == f.popped {
		f.shuffleAt[s.key] = 0
	}
	return s
}

// Release gives the index back to its pool, cleared; the input phase is
// over.
func (f *FetchState) Release() {
	if f.shuffleAt != nil {
		for _, s := range f.Pending {
			f.shuffleAt[s.key] = 0
		}
		f.indexes.put(f.shuffleAt)
		f.shuffleAt = nil
	}
}

func (p *IndexPool) get() []int32 {
	if n := len(p.free); n > 0 {
		at := p.free[n-1]
		p.free = p.free[:n-1]
		return at
	}
	return make([]int32, p.Keys)
}

// put takes back an index whose entries are all zero.
func (p *IndexPool) put(at []int32) { p.free = append(p.free, at) }

// NewSource is a queued fetch of b bytes from machine m under merge key key.
func NewSource(m, key int, b float64, k ByteKind) Source {
	return Source{Machine: m, Bytes: b, Kind: k, key: int32(key)}
}

// Merge adds b bytes from machine m to a queued source of the same key.
func (s *Source) Merge(m int, b float64) {
	s.Bytes += b
	if m != s.Machine {
		s.FromRack = true
	}
}

// Queue is the queue Add puts bytes in: Held under gating, except for
// node-local bytes, else Pending.
func (f *FetchState) Queue(local bool) *[]Source {
	if f.Gated && !local {
		return &f.Held
	}
	return &f.Pending
}
