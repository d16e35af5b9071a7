// Package scenario reads and writes scenario files: the YAML that describes
// a cluster, its network, a workload, a scheduler and the run's options.
// Decoding is strict: an unknown key, a wrong type, a negative size or an
// impossible reference is an error naming the file, line and column.
//
// THIS FILE IS THE SCHEMA (a contract shared with the trace, experiment and
// CLI code). Field names are the YAML keys.
package scenario

import "github.com/netsched/netsched/internal/units"

// File is a scenario file as written by a user.
type File struct {
	Name      string        `yaml:"name,omitempty"`
	Seed      uint64        `yaml:"seed,omitempty"`
	Cluster   ClusterSpec   `yaml:"cluster"`
	Network   NetworkSpec   `yaml:"network,omitempty"`
	DFS       DFSSpec       `yaml:"dfs,omitempty"`
	Engine    EngineSpec    `yaml:"engine,omitempty"`
	Knowledge KnowledgeSpec `yaml:"knowledge,omitempty"`
	Workload  WorkloadSpec  `yaml:"workload"`
	Scheduler SchedulerSpec `yaml:"scheduler"`
	Output    OutputSpec    `yaml:"output,omitempty"`
}

// ClusterSpec: machines are numbered 0..N-1 rack by rack.
type ClusterSpec struct {
	Racks           int               `yaml:"racks"`
	MachinesPerRack int               `yaml:"machines_per_rack"`
	SlotsPerMachine int               `yaml:"slots_per_machine"`
	NIC             units.Rate        `yaml:"nic"`
	Speed           float64           `yaml:"speed,omitempty" json:",omitempty"` // compute speed of every machine, 1 = reference
	Machines        []MachineOverride `yaml:"machines,omitempty"`
}

// MachineOverride changes one machine's slots, NIC speed or compute speed.
type MachineOverride struct {
	Index int        `yaml:"index"`
	Slots *int       `yaml:"slots,omitempty"`
	NIC   units.Rate `yaml:"nic,omitempty"`
	Speed float64    `yaml:"speed,omitempty" json:",omitempty"`
}

// NetworkSpec selects the topology (nonblocking, two-tier, hybrid).
type NetworkSpec struct {
	Topology         string      `yaml:"topology,omitempty"` // default nonblocking
	Oversubscription float64     `yaml:"oversubscription,omitempty"`
	RackUplink       units.Rate  `yaml:"rack_uplink,omitempty"`
	RackDownlink     units.Rate  `yaml:"rack_downlink,omitempty"`
	OCS              *OCSSpec    `yaml:"ocs,omitempty"`
	Monitor          MonitorSpec `yaml:"monitor,omitempty"`
	// Goodput scales every link's rate to the payload TCP delivers on it
	// (netsched validate fits it); 0 means 1, the exact line rate.
	Goodput float64 `yaml:"goodput,omitempty" json:",omitempty"`
	// Granularity, when set, makes the network model coarser in time: rates
	// change only on a grid of this period (network.Config.Granularity;
	// docs/network.md). Absent: the exact model.
	Granularity units.Duration `yaml:"granularity,omitempty" json:",omitempty"`
	// Transfers, when per-rack, makes the transfer model coarser: a task
	// fetches once per source rack outside its own (Scenario.TransfersPerRack;
	// docs/network.md). Absent or per-machine: the exact model.
	Transfers string `yaml:"transfers,omitempty" json:",omitempty"`
}

type OCSSpec struct {
	PortSpeed units.Rate     `yaml:"port_speed,omitempty"`
	Interval  units.Duration `yaml:"interval,omitempty"`
	Delay     units.Duration `yaml:"delay,omitempty"`
	Elephant  units.Bytes    `yaml:"elephant,omitempty"`
}

type MonitorSpec struct {
	Interval  units.Duration `yaml:"interval,omitempty"`
	Window    units.Duration `yaml:"window,omitempty"`
	Threshold float64        `yaml:"threshold,omitempty"`
}

// DFSSpec: input blocks and their replication (HDFS defaults 128MB x 3).
type DFSSpec struct {
	Block    units.Bytes `yaml:"block,omitempty"`
	Replicas int         `yaml:"replicas,omitempty"`
}

// EngineSpec tunes the task model and scheduling opportunities.
type EngineSpec struct {
	ParallelFetches int            `yaml:"parallel_fetches,omitempty"`                 // default 5
	SlowStart       *float64       `yaml:"slowstart,omitempty"`                        // Scenario.DefaultSlowStart (0.05): the slow-start generators and importers give reduce stages
	Heartbeat       units.Duration `yaml:"heartbeat,omitempty"`                        // default 1s
	Offers          string         `yaml:"offers,omitempty"`                           // immediate (default) | heartbeat
	Check           bool           `yaml:"check,omitempty"`                            // assert invariants while running
	MaxLiveTasks    int            `yaml:"max_live_tasks,omitempty" json:",omitempty"` // budget of tasks held at once; default 5,000,000
	Until           units.Duration `yaml:"until,omitempty" json:",omitempty"`          // stop the run at this simulated time (default: when every job finished)
}

// KnowledgeSpec picks the estimator's error model.
type KnowledgeSpec struct {
	Model string  `yaml:"model,omitempty"` // exact (default) | multiplicative | relative | gaussian
	F     float64 `yaml:"f,omitempty"`     // multiplicative: estimate = truth x f^(2U-1)
	Rate  float64 `yaml:"rate,omitempty"`  // relative: estimate = truth x (1 +/- rate)
	Sigma float64 `yaml:"sigma,omitempty"` // gaussian: estimate = truth x (1 + N(0, sigma)), floored at 0
	// A planner's forecast of a job's arrival is off by U(-ArrivalJitter,
	// +ArrivalJitter) for a share ArrivalShare of the jobs (JobPacker
	// §5.4.2); any model.
	ArrivalShare  float64        `yaml:"arrival_share,omitempty" json:",omitempty"`
	ArrivalJitter units.Duration `yaml:"arrival_jitter,omitempty" json:",omitempty"`
}

// WorkloadSpec is exactly one of: explicit jobs, a trace file, a generator.
type WorkloadSpec struct {
	// Jobs is nil after Parse or Load when the file lists more than
	// MaxEchoedJobs jobs (they are kept as text): read them with
	// ExplicitJobs.
	Jobs     []JobSpec      `yaml:"jobs,omitempty"`
	Trace    string         `yaml:"trace,omitempty"`    // path, relative to the scenario file
	Format   string         `yaml:"format,omitempty"`   // swim | coflow-benchmark | native
	Generate string         `yaml:"generate,omitempty"` // generator name
	Options  map[string]any `yaml:"options,omitempty"`  // importer/generator parameters

	// held is a list of more than MaxEchoedJobs jobs that Parse left out
	// of Jobs (nil then): it is used while Jobs is nil (joblist.go).
	held *jobList
}

// JobSpec is one job in the explicit (native) workload format.
type JobSpec struct {
	ID        string         `yaml:"id"`
	Arrival   units.Duration `yaml:"arrival,omitempty"`
	User      string         `yaml:"user,omitempty"`
	Queue     string         `yaml:"queue,omitempty"`
	After     []string       `yaml:"after,omitempty"` // parent jobs
	Recurring bool           `yaml:"recurring,omitempty"`
	Class     string         `yaml:"class,omitempty"`
	Stages    []StageSpec    `yaml:"stages"`
}

// StageSpec: tasks listed one by one and/or `count` tasks drawn from the
// distributions given in the stage-level task fields.
type StageSpec struct {
	ID    string     `yaml:"id"`
	After DepList    `yaml:"after,omitempty"`
	Tasks []TaskSpec `yaml:"tasks,omitempty"`

	Count       int          `yaml:"count,omitempty"`
	Input       BytesDist    `yaml:"input,omitempty"`
	Share       NumberDist   `yaml:"share,omitempty"`
	Compute     DurationDist `yaml:"compute,omitempty"`
	Rate        units.Rate   `yaml:"rate,omitempty"` // processing rate: adds input bytes / rate to compute
	Output      BytesDist    `yaml:"output,omitempty"`
	OutputRatio float64      `yaml:"output_ratio,omitempty" json:"output_ratio"` // json tag: the JSONL fast path
}

// TaskSpec is one explicit task.
type TaskSpec struct {
	Input       units.Bytes    `yaml:"input,omitempty"`
	Share       *float64       `yaml:"share,omitempty"` // absent: 1; 0: reads none of its parents' output
	Compute     units.Duration `yaml:"compute,omitempty"`
	Rate        units.Rate     `yaml:"rate,omitempty"`
	Output      units.Bytes    `yaml:"output,omitempty"`
	OutputRatio float64        `yaml:"output_ratio,omitempty" json:"output_ratio"` // json tag: the JSONL fast path
	Pin         *int           `yaml:"pin,omitempty"`
}

// DepList is a stage's dependencies. In YAML: `after: map` (a barrier),
// `after: [map, join]`, or a list of maps
// `{stage: map, slowstart: 0.05, pattern: broadcast}`; a map entry with a
// slowstart is a finishes-before edge. Patterns: scatter-gather (default),
// broadcast, one-to-one.
type DepList []DepSpec

type DepSpec struct {
	Stage     string   `yaml:"stage"`
	SlowStart *float64 `yaml:"slowstart,omitempty"`
	Pattern   string   `yaml:"pattern,omitempty"`
}

// SchedulerSpec: `scheduler: fair` or `scheduler: {name: fair, params: {...}}`,
// optionally with a network policy: `{name: fair, network: varys,
// network_params: {...}}`.
type SchedulerSpec struct {
	Name          string         `yaml:"name"`
	Params        map[string]any `yaml:"params,omitempty"`
	Network       string         `yaml:"network,omitempty" json:",omitempty"`
	NetworkParams map[string]any `yaml:"network_params,omitempty" json:",omitempty"`
}

// OutputSpec: where results go and which optional files to write.
type OutputSpec struct {
	Dir      string `yaml:"dir,omitempty"`
	Tasks    bool   `yaml:"tasks,omitempty"`                   // tasks.csv
	Timeline bool   `yaml:"timeline,omitempty"`                // timeline.csv from the network monitor
	Flows    bool   `yaml:"flows,omitempty" json:",omitempty"` // flows.csv: every network flow
	// Window counts the jobs and workflows finished within this long of
	// the first arrival (Dawn's throughput: workflows done in 4 h).
	Window units.Duration `yaml:"window,omitempty" json:",omitempty"`
}
