package metrics

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/netsched/netsched/internal/outdir"
)

// Summary is summary.json: every number a comparison needs, nothing that
// depends on the wall clock.
type Summary struct {
	Version         string         `json:"version"`
	Scenario        any            `json:"scenario"`
	Seed            uint64         `json:"seed"`
	Scheduler       string         `json:"scheduler"`
	SchedulerParams map[string]any `json:"scheduler_params,omitempty"`
	Jobs            int            `json:"jobs"`
	Tasks           int            `json:"tasks"`
	JCT             Stats          `json:"jct"`
	JCTByBin        []BinStats     `json:"jct_by_bin"`
	Makespan        float64        `json:"makespan"`
	Throughput      float64        `json:"throughput"` // jobs per second of makespan
	Bytes           Bytes          `json:"bytes"`
	NodeLocality    float64        `json:"node_locality"`                // share of file-reading tasks that ran node-local
	MapProgress     float64        `json:"map_progress_at_first_reduce"` // mean JobRecord.MapProgress of the jobs with reducers; 0 without
	Decisions       int            `json:"decisions"`
	Offers          int            `json:"offers"`
	Events          int            `json:"events"`
	MonitorSamples  int            `json:"monitor_samples"`
	Congested       int            `json:"congested_samples"` // samples with cross-rack utilisation >= threshold
	OCSReconfigs    int            `json:"ocs_reconfigurations"`
	// StoppedAt is where engine.until or an interrupt (Interrupted) cut
	// the run, and Unfinished the jobs that had arrived by then and not
	// finished: everything else in the summary counts the finished jobs
	// only.
	StoppedAt   float64 `json:"stopped_at,omitempty"`
	Unfinished  int     `json:"unfinished_jobs,omitempty"`
	Interrupted bool    `json:"interrupted,omitempty"`
	// Cotasks (CSS): completion time per stage, and the mean input-phase
	// time of tasks of stages with parents (a reducer's wait for data).
	CCT         Stats            `json:"cct"`
	CCTByStage  []StageStats     `json:"cct_by_stage,omitempty"` // per stage id (map, reduce, ...): cct_by_stage.<id>.<stat>
	ReducerWait Stats            `json:"reducer_wait"`
	Workflows   *WorkflowSummary `json:"workflows,omitempty"`       // when jobs depend on jobs
	TaskPeriods *TaskPeriods     `json:"tasks_by_period,omitempty"` // when the monitor sampled
	Window      *Window          `json:"window,omitempty"`          // when output.window is set
}

// StageStats is CCT per stage id, over the jobs that have the stage.
type StageStats struct {
	Stage string `json:"stage"`
	Stats
}

// BinStats is JCT per job-size bin.
type BinStats struct {
	Bin string `json:"bin"`
	Stats
}

// Timing is timing.json: wall-clock figures, kept apart so that everything
// else is byte-identical between runs.
type Timing struct {
	WallSeconds       float64 `json:"wall_seconds"`
	SchedulerSeconds  float64 `json:"scheduler_seconds"`
	Decisions         int     `json:"decisions"`
	MicrosPerDecision float64 `json:"micros_per_decision"`
	EventsPerSecond   float64 `json:"events_per_second"`
	// Network allocator cost: rate recomputations and the mean number of
	// bundles (flows with one route and rate) each one covered.
	Allocations          int64   `json:"network_allocations"`
	BundlesPerAllocation float64 `json:"bundles_per_allocation"`
}

// TimelineRow is one monitor sample in timeline.csv.
type TimelineRow struct {
	Time                 float64
	CrossRackUtilization float64
	Saturated            bool
	MaxLinkUtilization   float64
	MeanReceiveRate      float64
}

// Result is everything a run produced.
type Result struct {
	Summary   Summary
	Jobs      []JobRecord
	Tasks     []TaskRecord // only when requested
	Flows     []FlowRecord // only when requested
	Stages    []StageRecord
	Workflows []WorkflowRecord // nil without workflow dependencies
	Timeline  []TimelineRow
	Timing    Timing
}

// Files renders the output files: summary.json, jobs.csv, timing.json, and
// tasks.csv / timeline.csv when they were recorded.
func (r *Result) Files() ([]outdir.File, error) {
	sum, err := json.MarshalIndent(r.Summary, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	tim, err := json.MarshalIndent(r.Timing, "", "  ")
	if err != nil {
		return nil, err
	}
	files := []outdir.File{
		{Name: "summary.json", Data: append(sum, '\n')},
		{Name: "jobs.csv", Data: r.jobsCSV()},
		{Name: "timing.json", Data: append(tim, '\n')},
	}
	files = append(files, outdir.File{Name: "stages.csv", Data: r.stagesCSV()})
	if r.Workflows != nil {
		files = append(files, outdir.File{Name: "workflows.csv", Data: r.workflowsCSV()})
	}
	if r.Tasks != nil {
		files = append(files, outdir.File{Name: "tasks.csv", Stream: r.writeTasksCSV})
	}
	if r.Flows != nil {
		files = append(files, outdir.File{Name: "flows.csv", Stream: r.writeFlowsCSV})
	}
	if r.Timeline != nil {
		files = append(files, outdir.File{Name: "timeline.csv", Data: r.timelineCSV()})
	}
	return files, nil
}

// F formats a float the same way everywhere (shortest exact representation).
func F(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// JobsHeader is the column list of jobs.csv.
var JobsHeader = []string{"job_id", "user", "queue", "arrival", "start", "finish", "jct", "tasks",
	"input_bytes", "shuffle_bytes", "dependent_bytes", "cross_rack_bytes", "output_bytes", "node_local_tasks", "file_tasks", "class",
	"map_progress_at_first_reduce"}

func (r *Result) jobsCSV() []byte {
	rows := [][]string{JobsHeader}
	for _, j := range r.Jobs {
		progress := "" // a job without reducers has none
		if j.MapProgress >= 0 {
			progress = F(j.MapProgress)
		}
		rows = append(rows, []string{j.ID, j.User, j.Queue, F(j.Arrival), F(j.Start), F(j.Finish), F(j.JCT),
			strconv.Itoa(j.Tasks), F(j.InputBytes), F(j.ShuffleBytes), F(j.DepBytes), F(j.CrossRack), F(j.OutputBytes),
			strconv.Itoa(j.LocalMaps), strconv.Itoa(j.FileTasks), j.Class, progress})
	}
	return csvBytes(rows)
}

func (r *Result) writeTasksCSV(w io.Writer) error {
	return csvStream(w, TasksHeader, len(r.Tasks), func(i int, rec []string) []string {
		t := &r.Tasks[i]
		return append(rec, t.Job, t.Stage, strconv.Itoa(t.Index), strconv.Itoa(t.Machine), F(t.Ready), F(t.Start),
			F(t.InputDone), F(t.Finish), F(t.InputBytes), F(t.Output), t.Locality, F(t.CrossRack), strconv.FormatBool(t.Saturated))
	})
}

// FlowsHeader is the column list of flows.csv.
var FlowsHeader = []string{"job_id", "stage", "index", "src", "dst", "bytes", "kind", "class", "start", "finish"}

func (r *Result) writeFlowsCSV(w io.Writer) error {
	return csvStream(w, FlowsHeader, len(r.Flows), func(i int, rec []string) []string {
		f := &r.Flows[i]
		return append(rec, f.Job, f.Stage, strconv.Itoa(f.Index), strconv.Itoa(f.Src), strconv.Itoa(f.Dst), F(f.Bytes),
			f.Kind, strconv.Itoa(f.Class), F(f.Start), F(f.Finish))
	})
}

func (r *Result) stagesCSV() []byte {
	rows := [][]string{{"job_id", "stage", "tasks", "parents", "ready", "start", "finish", "cct", "input_wait"}}
	for _, s := range r.Stages {
		rows = append(rows, []string{s.Job, s.Stage, strconv.Itoa(s.Tasks), strconv.Itoa(s.Parents), F(s.Ready), F(s.Start),
			F(s.Finish), F(s.CCT), F(s.InputWait)})
	}
	return csvBytes(rows)
}

func (r *Result) workflowsCSV() []byte {
	rows := [][]string{{"workflow_id", "jobs", "submit", "finish", "wct", "input_bytes", "shuffle_bytes", "dependent_bytes", "cross_rack_bytes"}}
	for _, w := range r.Workflows {
		rows = append(rows, []string{w.ID, strconv.Itoa(w.Jobs), F(w.Submit), F(w.Finish), F(w.WCT), F(w.InputBytes),
			F(w.ShuffleBytes), F(w.DepBytes), F(w.CrossRack)})
	}
	return csvBytes(rows)
}

func (r *Result) timelineCSV() []byte {
	rows := [][]string{{"time", "cross_rack_utilization", "saturated", "max_link_utilization", "mean_receive_rate"}}
	for _, s := range r.Timeline {
		rows = append(rows, []string{F(s.Time), F(s.CrossRackUtilization), strconv.FormatBool(s.Saturated), F(s.MaxLinkUtilization), F(s.MeanReceiveRate)})
	}
	return csvBytes(rows)
}

// csvStream writes a header and n rows to w, each built by row into a
// reused record, without holding every row's strings at once: a full-size
// day's tasks.csv has ten million rows.
func csvStream(w io.Writer, header []string, n int, row func(i int, rec []string) []string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	rec := make([]string, 0, len(header))
	for i := range n {
		if err := cw.Write(row(i, rec[:0])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvBytes(rows [][]string) []byte {
	var b bytes.Buffer
	csvStream(&b, rows[0], len(rows)-1, func(i int, _ []string) []string { return rows[i+1] }) // writes to memory: cannot fail
	return b.Bytes()
}
