package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// MaxEchoedJobs is the longest list of explicit jobs that Parse keeps in
// File.Workload.Jobs and that summary.json echoes job by job.
// A longer list is kept as its text, each job decoded again when the run
// reaches it: its file form would take about 640 bytes per job for as
// long as the run lasts, and its echo some 2 KB of JSON per job. Its echo
// is its count and the SHA-256 of the scenario file (File.Echo).
const MaxEchoedJobs = 1000

// maxHeldJobs is MaxEchoedJobs; tests lower it to send short lists down
// the text path, and raise it to keep long ones as before.
var maxHeldJobs = MaxEchoedJobs

// ExplicitJobs is the workload's explicit jobs in file order: Jobs, or
// the list Parse kept as text decoded in full (MaxEchoedJobs), nil for a
// trace or a generator.
func (w *WorkloadSpec) ExplicitJobs() ([]JobSpec, error) {
	if l := w.leftOut(); l != nil {
		return l.all()
	}
	return w.Jobs, nil
}

// jobList is a loaded list of explicit jobs: either decoded (specs), or
// kept as the text of its items (a list cut by cutList) and decoded again
// one item at a time whenever a job is needed, so that no more than one
// job's file form is alive at once.
type jobList struct {
	specs []JobSpec
	text  *splitList // items only (rest dropped)
	name  string     // file name for messages
	// arrivals of the text items, until the list is checked.
	arrivals []float64
	// sha is the SHA-256 of the file the list was read from (echo).
	sha [sha256.Size]byte
}

func (l *jobList) len() int {
	if l.text != nil {
		return len(l.text.items)
	}
	return len(l.specs)
}

// arrival returns job i's arrival.
func (l *jobList) arrival(i int) float64 {
	if l.text != nil {
		return l.arrivals[i]
	}
	return float64(l.specs[i].Arrival)
}

// spec returns job i's file form: the held one, or a fresh decoding of its
// text. The text was decoded without error when the list was loaded, so
// an error here is a bug.
func (l *jobList) spec(i int) (*JobSpec, error) {
	if l.text == nil {
		return &l.specs[i], nil
	}
	js := new(JobSpec)
	if err := l.text.decodeJob(l.name, i, js); err != nil {
		return nil, fmt.Errorf("decoding job %d of %s again: %w", i, l.name, err)
	}
	return js, nil
}

// readArrivals decodes every item again for its arrival.
func (l *jobList) readArrivals() error {
	arrivals := make([]float64, l.len())
	for i := range arrivals {
		js, err := l.spec(i)
		if err != nil {
			return err
		}
		arrivals[i] = float64(js.Arrival)
	}
	l.arrivals = arrivals
	return nil
}

// all returns every job's file form (for Encode).
func (l *jobList) all() ([]JobSpec, error) {
	if l.text == nil {
		return l.specs, nil
	}
	out := make([]JobSpec, l.len())
	for i := range out {
		js, err := l.spec(i)
		if err != nil {
			return nil, err
		}
		out[i] = *js
	}
	return out, nil
}

// decodeJob decodes cut item i into js as decodeSplit does (its shape was
// checked then).
func (sl *splitList) decodeJob(name string, i int, js *JobSpec) (err error) {
	it := sl.items[i]
	if useFlowJobs && decodeFlowJob(it.text[it.dash+1:], js) {
		return nil
	}
	defer recoverAt(name, &err)
	file, err := parser.ParseBytes(itemText(it.text, it.dash), 0)
	if err != nil {
		return err
	}
	if len(file.Docs) != 1 || file.Docs[0].Body == nil {
		return fmt.Errorf("item %d is not one document", i)
	}
	body := file.Docs[0].Body
	if _, isMap := unwrap(body).(*ast.MappingNode); !isMap {
		return fmt.Errorf("item %d is not a mapping", i)
	}
	isrc := sl.itemSource(name, i)
	isrc.body, isrc.lazy = body, nil
	return decodeValue(isrc, body, js)
}

// textList keeps sl's items for decoding again.
func textList(name string, sl *splitList, arrivals []float64) *jobList {
	return &jobList{text: &splitList{key: sl.key, items: sl.items}, name: name, arrivals: arrivals}
}

// jobsSummary stands for a list of more than MaxEchoedJobs jobs in the
// echo of a scenario.
type jobsSummary struct {
	Count      int    `json:"JobCount"`
	FileSHA256 string `json:"FileSHA256"`
}

// Echo is the scenario as summary.json echoes it: f itself, or, when Parse
// left a list of more than MaxEchoedJobs jobs out of f, f with the list
// replaced by its count and the SHA-256 of the scenario file (hex, as
// sha256sum prints it).
func (f *File) Echo() any {
	l := f.Workload.leftOut()
	if l == nil {
		return *f
	}
	return fileEcho{
		Name: f.Name, Seed: f.Seed, Cluster: f.Cluster, Network: f.Network, DFS: f.DFS, Engine: f.Engine, Knowledge: f.Knowledge,
		Workload: workloadEcho{jobsSummary: jobsSummary{Count: l.len(), FileSHA256: hex.EncodeToString(l.sha[:])},
			Trace: f.Workload.Trace, Format: f.Workload.Format, Generate: f.Workload.Generate, Options: f.Workload.Options},
		Scheduler: f.Scheduler, Output: f.Output,
	}
}

// fileEcho is File with the field order and JSON names of File (a test
// checks that they stay in step), for a file whose job list is left out.
type fileEcho struct {
	Name      string
	Seed      uint64
	Cluster   ClusterSpec
	Network   NetworkSpec
	DFS       DFSSpec
	Engine    EngineSpec
	Knowledge KnowledgeSpec
	Workload  workloadEcho
	Scheduler SchedulerSpec
	Output    OutputSpec
}

type workloadEcho struct {
	jobsSummary
	Trace    string
	Format   string
	Generate string
	Options  map[string]any
}
