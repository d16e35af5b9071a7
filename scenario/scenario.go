package scenario

import (
	"fmt"
	"sort"
	"sync"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// Scenario is a validated scenario with every default applied: what the
// engine runs. File keeps the user's document for echoing in outputs
// (File.Echo), except a list of more than MaxEchoedJobs explicit jobs:
// that is kept as its text, and File.Workload.Jobs is nil (Encode and
// Resolve of the File still write every job).
type Scenario struct {
	Path string // file it came from ("" if built in code)
	File File

	Seed     uint64
	Machines []Machine
	Racks    int
	Network  network.Config // Machines/Racks filled in; Monitor.OnSample left for the engine

	BlockSize float64 // bytes; default DefaultBlockSize
	Replicas  int     // default 3

	ParallelFetches int // default 5
	// TransfersPerRack (network.transfers: per-rack, opt-in) merges a task's
	// sources outside its rack by source rack: one transfer carries the
	// bytes of several machines of a rack, a network.FlowSpec.FromRack flow
	// that leaves out their NICs. A source rack with one machine keeps its
	// ordinary flow.
	TransfersPerRack bool
	DefaultSlowStart float64 // default 0.05
	Heartbeat        float64 // seconds, default 1
	HeartbeatOnly    bool    // offers only on heartbeats (YARN-like)
	Check            bool
	MaxLiveTasks     int     // tasks of the jobs held at once; 0 means DefaultMaxLiveTasks
	Until            float64 // seconds; > 0: the run stops there, unfinished jobs left out of the results

	Knowledge KnowledgeSpec
	Scheduler SchedulerSpec
	Output    OutputSpec

	// OpenWorkload starts a fresh pass over the workload; calling it twice
	// gives the same jobs (runs are repeatable).
	OpenWorkload func() (workload.Source, error)
}

// Machine is one host of the cluster after overrides.
type Machine struct {
	Rack  int
	Slots int
	NIC   float64 // bytes/s, up and down
	// Speed is the compute speed relative to the reference machine: a
	// task's compute phase takes its compute time / Speed (CSS's
	// heterogeneous hosts). Default 1.
	Speed float64
}

// DefaultBlockSize is HDFS's default block size (128 MiB).
const DefaultBlockSize = 128 << 20

// Opener opens a workload described by a scenario: a trace file in some
// format, or a generator. path is "" for generators. sc is the scenario
// being built (cluster, DFS, seed already resolved) so that importers can
// size tasks to the cluster and seed their random streams.
type Opener func(path string, options map[string]any, sc *Scenario) (workload.Source, error)

var (
	registryMu sync.Mutex
	formats    = map[string]Opener{}
	generators = map[string]Opener{}
)

// RegisterFormat makes `workload: {trace: F, format: name}` available.
func RegisterFormat(name string, open Opener) { register(formats, "format", name, open) }

// RegisterGenerator makes `workload: {generate: name}` available.
func RegisterGenerator(name string, open Opener) { register(generators, "generator", name, open) }

func register(m map[string]Opener, kind, name string, open Opener) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := m[name]; dup {
		panic(fmt.Sprintf("scenario: %s %q registered twice", kind, name))
	}
	m[name] = open
}

// Formats and Generators list the registered names, sorted.
func Formats() []string    { return keys(formats) }
func Generators() []string { return keys(generators) }

func keys(m map[string]Opener) []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func lookup(m map[string]Opener, name string) (Opener, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	o, ok := m[name]
	return o, ok
}
