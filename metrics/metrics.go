// Package metrics holds a run's results as defined in the architecture page
// §3 (job completion time, makespan, throughput, bytes by kind and scope,
// congestion samples) and writes them: summary.json, jobs.csv, tasks.csv,
// timeline.csv and timing.json. Everything except timing.json is a pure
// function of the scenario and seed, so reruns are byte-identical.
package metrics

import (
	"math"
	"sort"
)

// JobRecord is one finished job (a row of jobs.csv).
type JobRecord struct {
	ID           string
	User, Queue  string
	Arrival      float64
	Start        float64
	Finish       float64
	JCT          float64
	Tasks        int
	InputBytes   float64 // file input read
	ShuffleBytes float64 // parent-stage output fetched
	DepBytes     float64 // parent-job output fetched
	CrossRack    float64 // bytes of the above that crossed racks
	OutputBytes  float64
	LocalMaps    int // file-reading tasks that ran node-local
	FileTasks    int // file-reading tasks
	Class        string
	// MapProgress is the share of the job's root-stage tasks (maps)
	// finished when its first task of a stage with parents (a reducer)
	// started (architecture §3, NAS Fig. 3d); -1 for a job without one.
	MapProgress float64
}

// TaskRecord is one finished task (a row of tasks.csv).
type TaskRecord struct {
	Job, Stage         string
	Index              int
	Machine            int
	Ready, Start       float64
	InputDone, Finish  float64
	InputBytes, Output float64
	Locality           string
	CrossRack          float64 // bytes fetched from other racks
	Saturated          bool    // the network monitor said saturated when the task took its slot
}

// FlowRecord is one network flow (a row of flows.csv): a task's fetch of
// Bytes from machine Src to its own machine Dst.
type FlowRecord struct {
	Job, Stage    string
	Index         int // the task's
	Src, Dst      int
	Bytes         float64
	Kind          string // input, shuffle or dependent
	Class         int    // priority class at its start
	Start, Finish float64
}

// StageRecord is one finished stage (a cotask, CSS): a row of stages.csv.
type StageRecord struct {
	Job, Stage string
	Tasks      int
	Ready      float64 // first task ready
	Start      float64 // first task took a slot
	Finish     float64 // last task finished
	// CCT is the cotask completion time, CSS §I: from the start of its first
	// flow or task (a task starts before its flows) to the end of its last
	// task, Finish - Start.
	CCT float64
	// InputWait is the mean time its tasks spent in the input phase
	// (fetching, or waiting for parents' output): CSS Fig. 4c's reducer
	// wait for data.
	InputWait float64
	Parents   int // parent stages (0: a map-like stage)
}

// WorkflowRecord is one finished workflow (Dawn): the jobs linked by
// workflow dependencies, named by the first of them to arrive.
type WorkflowRecord struct {
	ID             string
	Jobs           int
	Submit, Finish float64 // first arrival, last finish
	WCT            float64 // Finish - Submit
	InputBytes     float64
	ShuffleBytes   float64
	DepBytes       float64
	CrossRack      float64
}

// TaskPeriods counts finished tasks by the network's state when they took
// a slot, and whether they fetched across racks (Dawn Fig. 14).
type TaskPeriods struct {
	Saturated            int `json:"saturated"`
	SaturatedCrossRack   int `json:"saturated_cross_rack"`
	Unsaturated          int `json:"unsaturated"`
	UnsaturatedCrossRack int `json:"unsaturated_cross_rack"`
}

// WorkflowSummary summarises the workflows of a run with dependent jobs.
type WorkflowSummary struct {
	Count int   `json:"count"`
	WCT   Stats `json:"wct"`
}

// Window counts what finished within Seconds of the first arrival.
type Window struct {
	Seconds   float64 `json:"seconds"`
	Jobs      int     `json:"jobs"`
	Workflows int     `json:"workflows"`
}

// Bytes counts bytes moved by kind and scope.
type Bytes struct {
	Input     Scope   `json:"input"`
	Shuffle   Scope   `json:"shuffle"`
	Dependent Scope   `json:"dependent"`
	Total     Scope   `json:"total"`
	EPS       float64 `json:"eps_bytes"`
	OCS       float64 `json:"ocs_bytes"`
}

// Scope splits bytes by where they travelled.
type Scope struct {
	NodeLocal float64 `json:"node_local"`
	RackLocal float64 `json:"rack_local"`
	CrossRack float64 `json:"cross_rack"`
}

// Add returns the sum of two scopes.
func (s Scope) Add(o Scope) Scope {
	return Scope{s.NodeLocal + o.NodeLocal, s.RackLocal + o.RackLocal, s.CrossRack + o.CrossRack}
}

// Stats summarises a sample of values.
type Stats struct {
	Count int     `json:"count"`
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// Summarize computes Stats; percentiles use the nearest-rank definition
// (the smallest value with at least p% of the sample at or below it).
func Summarize(xs []float64) Stats {
	if len(xs) == 0 {
		return Stats{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return Stats{Count: len(s), Mean: sum / float64(len(s)), P50: Percentile(s, 50), P95: Percentile(s, 95), P99: Percentile(s, 99), Max: s[len(s)-1]}
}

// Percentile of sorted values, nearest rank.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(k, len(sorted)-1))]
}

// SizeBins are the job-size bins (total bytes read) used for per-bin JCT,
// following PushBox's seven bins of shuffle size (§7.1, Table 2 style).
var SizeBins = []struct {
	Name  string
	Upper float64
}{
	{"<10MB", 10e6}, {"10-100MB", 100e6}, {"100MB-1GB", 1e9}, {"1-10GB", 10e9},
	{"10-100GB", 100e9}, {"100GB-1TB", 1e12}, {">=1TB", math.Inf(1)},
}

// SizeBin names the bin of a job moving the given bytes.
func SizeBin(bytes float64) string {
	for _, b := range SizeBins {
		if bytes < b.Upper {
			return b.Name
		}
	}
	return SizeBins[len(SizeBins)-1].Name
}
