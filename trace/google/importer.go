package google

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// StageID names the single stage of every job this package makes: the
// trace records no stages, and CSS §V-B treats all tasks of a job as one
// cotask.
const StageID = "tasks"

// DefaultMaxEvents caps the task events kept in memory for the selected
// jobs: 8,388,608 events of 16 bytes (at most twice that while slices
// grow), about 40 hours of the 2011 trace at its ~200,000 task events per
// hour.
const DefaultMaxEvents = 1 << 23

// maxJobs caps the distinct job IDs the arrival pass tracks (about 40
// bytes each): the whole 2011 trace has fewer, since its job_events table
// has about 1.67 million lines. More means the input is not that trace.
const maxJobs = 1 << 21

// Config says which jobs of a trace become netsched jobs and how.
type Config struct {
	MaxJobs       int     // keep the first MaxJobs jobs by arrival; 0 = all
	MinTasks      int     // drop jobs with fewer kept tasks (>= 1)
	MaxTasks      int     // drop jobs with more kept tasks; 0 = no limit
	WindowStart   float64 // seconds of trace time (the trace starts at 600 s)
	WindowEnd     float64 // seconds; 0 = no end
	TimeScale     float64 // arrival = (first SUBMIT - WindowStart) x TimeScale
	DurationScale float64 // compute = duration x DurationScale
	CompleteOnly  bool    // drop jobs with any task that was not kept
	MaxEvents     int     // memory cap, see DefaultMaxEvents
	Labels        jobmodel.Labels
	Seed          uint64 // labelling stream seed (default: the scenario's)
}

// DefaultConfig is what an empty options mapping gives.
func DefaultConfig() Config {
	return Config{MinTasks: 1, TimeScale: 1, DurationScale: 1, MaxEvents: DefaultMaxEvents}
}

// ParseOptions reads the "google2011" format's options (docs/workloads.md);
// sc supplies the seed of the labelling stream and may be nil.
func ParseOptions(options map[string]any, sc *scenario.Scenario) (Config, error) {
	o := jobmodel.NewOptions(options)
	d := DefaultConfig()
	c := Config{
		MaxJobs:       o.Int("max_jobs", d.MaxJobs),
		MinTasks:      o.Int("min_tasks", d.MinTasks),
		MaxTasks:      o.Int("max_tasks", d.MaxTasks),
		WindowStart:   o.Duration("window_start", 0),
		WindowEnd:     o.Duration("window_end", 0),
		TimeScale:     o.Number("time_scale", d.TimeScale),
		DurationScale: o.Positive("duration_scale", d.DurationScale),
		CompleteOnly:  o.Bool("complete_only", false),
		MaxEvents:     o.Int("max_events", d.MaxEvents),
		Labels:        jobmodel.ParseLabels(o, 0),
	}
	var seed uint64
	if sc != nil {
		seed = sc.Seed
	}
	c.Seed = o.Seed("seed", seed)
	switch {
	case c.MinTasks < 1:
		o.Fail("min_tasks", "must be at least 1 (a job needs a task)")
	case c.MaxTasks != 0 && c.MaxTasks < c.MinTasks:
		o.Fail("max_tasks", "%d is less than min_tasks %d", c.MaxTasks, c.MinTasks)
	case c.WindowEnd != 0 && c.WindowEnd <= c.WindowStart:
		o.Fail("window_end", "%gs must be after window_start %gs", c.WindowEnd, c.WindowStart)
	case c.MaxEvents < 1:
		o.Fail("max_events", "must be at least 1")
	}
	return c, o.Err()
}

// Summary counts what a load read and what it dropped, so a caller can
// report it (Source.Summary); dropping is never an error.
type Summary struct {
	TaskFiles, JobFiles int
	TaskEvents          int64 // task_events lines read
	JobEvents           int64 // job_events lines read
	Jobs                int   // distinct job IDs seen

	// Jobs dropped by the arrival rule: first SUBMIT at timestamp 0 (before
	// the trace, arrival unknown), no SUBMIT at all (only synthesized
	// records), first SUBMIT outside [window_start, window_end).
	BeforeTrace, NoSubmit, OutsideWindow int

	// Tasks of the jobs in the window: kept, never finished (killed,
	// failed, lost, evicted for good or still running at the end), and
	// finished without the SCHEDULE that started that run (synthesized
	// records, or a run that began before the trace).
	TasksKept, TasksUnfinished, TasksUntimed int

	// Jobs in the window dropped because no task was kept, because a task
	// was not kept (complete_only), because their kept task count is
	// outside [min_tasks, max_tasks], or past max_jobs.
	NoTasks, Incomplete, TaskCount, PastMaxJobs int

	Emitted, EmittedTasks int // jobs and tasks the Source yields
}

func (s Summary) String() string {
	return fmt.Sprintf("%d of %d jobs kept with %d tasks (%d task_events and %d job_events lines in %d+%d files); "+
		"jobs dropped: %d submitted before the trace, %d without SUBMIT, %d outside the window, %d without a finished task, "+
		"%d incomplete, %d outside min/max tasks, %d past max_jobs; tasks of jobs in the window: %d kept, %d never finished, %d finished without a recorded start",
		s.Emitted, s.Jobs, s.EmittedTasks, s.TaskEvents, s.JobEvents, s.TaskFiles, s.JobFiles,
		s.BeforeTrace, s.NoSubmit, s.OutsideWindow, s.NoTasks, s.Incomplete, s.TaskCount, s.PastMaxJobs,
		s.TasksKept, s.TasksUnfinished, s.TasksUntimed)
}

// Files finds a trace's files. path is one task_events file, a directory
// of task_events files, or the trace's root (a directory with task_events/
// and optionally job_events/). Files are those named *.csv or *.csv.gz, in
// name order (part-00000-of-00500.csv.gz first); symbolic links count.
func Files(path string) (taskFiles, jobFiles []string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil, nil
	}
	dir := path
	if isDir(filepath.Join(path, "task_events")) {
		dir = filepath.Join(path, "task_events")
		if jd := filepath.Join(path, "job_events"); isDir(jd) {
			if jobFiles, err = tableFiles(jd); err != nil {
				return nil, nil, err
			}
		}
	}
	if taskFiles, err = tableFiles(dir); err != nil {
		return nil, nil, err
	}
	if len(taskFiles) == 0 {
		return nil, nil, fmt.Errorf("%s: no task_events files (*.csv or *.csv.gz)", dir)
	}
	return taskFiles, jobFiles, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func tableFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".csv") || strings.HasSuffix(n, ".csv.gz")) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out, nil
}

// input is one table file: a name for messages and a way to open its text.
type input struct {
	name string
	open func() (io.ReadCloser, error)
}

func fileInputs(paths []string) []input {
	out := make([]input, len(paths))
	for i, p := range paths {
		out[i] = input{p, func() (io.ReadCloser, error) { return OpenFile(p) }}
	}
	return out
}

// eachTask calls fn for every event of the task_events files in order.
func eachTask(files []input, fn func(in input, e *TaskEvent) error) error {
	for _, in := range files {
		rc, err := in.open()
		if err != nil {
			return err
		}
		r := NewTaskEventReader(in.name, rc)
		for {
			e, ok, err := r.Next()
			if err == nil && ok {
				err = fn(in, &e)
			}
			if err != nil || !ok {
				rc.Close()
				if err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// event is what the second pass keeps of a task event: 16 bytes.
type event struct {
	t    int64
	task int32
	typ  EventType
}

// jobAcc gathers one selected job.
type jobAcc struct {
	id      uint64
	arrival int64 // microseconds
	events  []event
}

// jobRec is a selected job ready to replay.
type jobRec struct {
	id        uint64
	arrival   float64   // seconds, shifted and scaled
	durations []float64 // seconds, scaled, by task index
}

// Load reads the trace at path (see Files) and returns the selected jobs.
//
// A job is one netsched job with one stage (StageID) of independent tasks,
// one per kept task, in task-index order: compute = the task's duration x
// duration_scale; no input and no output, since the trace records no bytes.
// Its arrival is its first SUBMIT (in job_events or task_events, whichever
// is earlier), shifted by window_start and scaled by time_scale; its ID is
// the trace's job ID.
//
// A task's duration is the time from the SCHEDULE that started its last
// run to that run's FINISH. The task's events are put in time order (at
// equal times in lifecycle order: SUBMIT, UPDATE_PENDING, SCHEDULE,
// UPDATE_RUNNING, then EVICT, FAIL, FINISH, KILL, LOST); an EVICT, FAIL,
// KILL or LOST ends a run without a FINISH, and the last FINISH counts.
// A SCHEDULE or FINISH at a special timestamp (0, 2^63-1) measures
// nothing. Tasks that never FINISH, and FINISHes without a run started
// inside the trace, are dropped and counted in the Summary; so are jobs
// (see Summary). Synthesized events (missing info set) count like others.
//
// Memory: the files are read twice, streaming. The first pass keeps one
// arrival per distinct job (at most 2,097,152 jobs, else an error); the
// second keeps the events of the jobs whose arrival is in the window, 16
// bytes each, at most MaxEvents (else an error that says to narrow the
// window: max_jobs cannot bound it, since jobs are sorted by arrival only
// after all files are read). Files need not be sorted, neither within nor
// across files.
func Load(path string, cfg Config) (*Source, error) {
	tf, jf, err := Files(path)
	if err != nil {
		return nil, err
	}
	return load(fileInputs(tf), fileInputs(jf), cfg)
}

func load(taskFiles, jobFiles []input, cfg Config) (*Source, error) {
	if len(taskFiles) == 0 {
		return nil, fmt.Errorf("no task_events files")
	}
	sum := Summary{TaskFiles: len(taskFiles), JobFiles: len(jobFiles)}
	arrivals, err := firstSubmits(taskFiles, jobFiles, &sum)
	if err != nil {
		return nil, err
	}
	if sum.TaskEvents == 0 {
		return nil, fmt.Errorf("%s: no task events: expected lines of %d comma-separated fields", taskFiles[len(taskFiles)-1].name, len(taskColumns))
	}
	selected := cfg.selectJobs(arrivals, &sum)
	if err := collect(taskFiles, selected, cfg.MaxEvents); err != nil {
		return nil, err
	}
	src := &Source{cfg: cfg, jobs: cfg.build(selected, &sum)}
	src.sum = sum
	src.cfg.Labels.Start(cfg.Seed, labelStream)
	return src, nil
}

// noSubmit marks a job with no SUBMIT (yet) in the arrival table.
const noSubmit = -1

// firstSubmits is the first pass: each job's earliest SUBMIT. A SUBMIT
// after the trace (2^63-1) is not an arrival.
func firstSubmits(taskFiles, jobFiles []input, sum *Summary) (map[uint64]int64, error) {
	arrivals := map[uint64]int64{}
	note := func(name string, line int, job uint64, typ EventType, t int64) error {
		a, seen := arrivals[job]
		if !seen {
			if len(arrivals) >= maxJobs {
				return &ParseError{File: name, Line: line, Field: "job ID",
					Msg: fmt.Sprintf("more than %d distinct jobs: this is not (a part of) the 2011 trace", maxJobs)}
			}
			a = noSubmit
		}
		if typ == Submit && t != AfterTrace && (a == noSubmit || t < a) {
			a = t
		}
		arrivals[job] = a
		return nil
	}
	for _, in := range jobFiles {
		rc, err := in.open()
		if err != nil {
			return nil, err
		}
		r := NewJobEventReader(in.name, rc)
		for {
			e, ok, err := r.Next()
			if err == nil && ok {
				sum.JobEvents++
				err = note(in.name, e.Line, e.Job, e.Type, e.Time)
			}
			if err != nil || !ok {
				rc.Close()
				if err != nil {
					return nil, err
				}
				break
			}
		}
	}
	err := eachTask(taskFiles, func(in input, e *TaskEvent) error {
		sum.TaskEvents++
		return note(in.name, e.Line, e.Job, e.Type, e.Time)
	})
	sum.Jobs = len(arrivals)
	return arrivals, err
}

// micros converts seconds of trace time to microseconds, saturating.
func micros(s float64) int64 {
	if us := math.Round(s * 1e6); us < math.MaxInt64 {
		return int64(us)
	}
	return math.MaxInt64
}

// selectJobs applies the arrival rule and the window.
func (c *Config) selectJobs(arrivals map[uint64]int64, sum *Summary) map[uint64]*jobAcc {
	start, end := micros(c.WindowStart), int64(math.MaxInt64)
	if c.WindowEnd > 0 {
		end = micros(c.WindowEnd)
	}
	out := map[uint64]*jobAcc{}
	for id, a := range arrivals {
		switch {
		case a == noSubmit:
			sum.NoSubmit++
		case a == BeforeTrace:
			sum.BeforeTrace++
		case a < start || a >= end:
			sum.OutsideWindow++
		default:
			out[id] = &jobAcc{id: id, arrival: a}
		}
	}
	return out
}

// collect is the second pass: the events of the selected jobs.
func collect(taskFiles []input, selected map[uint64]*jobAcc, maxEvents int) error {
	kept := 0
	return eachTask(taskFiles, func(in input, e *TaskEvent) error {
		j := selected[e.Job]
		if j == nil {
			return nil
		}
		if kept++; kept > maxEvents {
			return &ParseError{File: in.name, Line: e.Line,
				Msg: fmt.Sprintf("the jobs in the window have more than %d task events (max_events): narrow window_start/window_end, or raise max_events (about 16-32 bytes of memory each)", maxEvents)}
		}
		j.events = append(j.events, event{t: e.Time, task: e.Task, typ: e.Type})
		return nil
	})
}

// rank orders events at equal timestamps by the task lifecycle (then by
// type code), so that the result never depends on the order of lines
// within or across files.
func rank(t EventType) int {
	switch t {
	case Submit:
		return 0
	case UpdatePending:
		return 1
	case Schedule:
		return 2
	case UpdateRunning:
		return 3
	}
	return 4
}

// taskDurations turns a job's events into the durations of its kept tasks
// (microseconds, by task index) and counts the others.
func taskDurations(evs []event, sum *Summary) (kept []int64, dropped int) {
	slices.SortFunc(evs, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.task, b.task), cmp.Compare(a.t, b.t), cmp.Compare(rank(a.typ), rank(b.typ)), cmp.Compare(a.typ, b.typ))
	})
	for i := 0; i < len(evs); {
		task := evs[i].task
		var start, dur int64
		running, finished, timed := false, false, false
		for ; i < len(evs) && evs[i].task == task; i++ {
			e := evs[i]
			special := e.t == BeforeTrace || e.t == AfterTrace
			switch e.typ {
			case Schedule:
				running, start = !special, e.t
			case Evict, Fail, Kill, Lost:
				running = false
			case Finish:
				finished, timed = true, running && !special
				dur = e.t - start
				running = false
			}
		}
		switch {
		case !finished:
			sum.TasksUnfinished++
			dropped++
		case !timed:
			sum.TasksUntimed++
			dropped++
		default:
			sum.TasksKept++
			kept = append(kept, dur)
		}
	}
	return kept, dropped
}

// build turns the selected jobs into replayable records, in arrival order
// (ties by job ID), applying the job filters.
func (c *Config) build(selected map[uint64]*jobAcc, sum *Summary) []jobRec {
	order := make([]*jobAcc, 0, len(selected))
	for _, j := range selected {
		order = append(order, j)
	}
	slices.SortFunc(order, func(a, b *jobAcc) int { return cmp.Or(cmp.Compare(a.arrival, b.arrival), cmp.Compare(a.id, b.id)) })
	start := micros(c.WindowStart)
	var out []jobRec
	for _, j := range order {
		kept, dropped := taskDurations(j.events, sum)
		j.events = nil
		switch n := len(kept); {
		case n == 0:
			sum.NoTasks++
		case c.CompleteOnly && dropped > 0:
			sum.Incomplete++
		case n < c.MinTasks || c.MaxTasks > 0 && n > c.MaxTasks:
			sum.TaskCount++
		case c.MaxJobs > 0 && len(out) >= c.MaxJobs:
			sum.PastMaxJobs++
		default:
			d := make([]float64, n)
			for i, us := range kept {
				d[i] = float64(us) / 1e6 * c.DurationScale
			}
			out = append(out, jobRec{id: j.id, arrival: float64(j.arrival-start) / 1e6 * c.TimeScale, durations: d})
			sum.Emitted++
			sum.EmittedTasks += n
		}
	}
	return out
}

// labelStream separates this importer's labelling random stream.
const labelStream = 0x60061e

// Source replays the selected jobs of a loaded trace.
type Source struct {
	cfg  Config
	jobs []jobRec
	i    int
	sum  Summary
}

// Next returns the next job in arrival order.
func (s *Source) Next() (*workload.Job, bool, error) {
	if s.i >= len(s.jobs) {
		return nil, false, nil
	}
	r := &s.jobs[s.i]
	s.i++
	j := TasksJob(strconv.FormatUint(r.id, 10), r.arrival, r.durations)
	s.cfg.Labels.Apply(&j)
	return &j, true, nil
}

// Summary reports what the load read and dropped.
func (s *Source) Summary() Summary { return s.sum }

// TasksJob is the job shape of this package: one stage of independent
// tasks with the given compute times, no bytes read or written, placeable
// anywhere.
func TasksJob(id string, arrival float64, computes []float64) workload.Job {
	tasks := make([]workload.Task, len(computes))
	for i, c := range computes {
		tasks[i] = workload.Task{Share: 1, Compute: c, Pin: workload.NoPin}
	}
	return workload.Job{ID: id, Arrival: arrival, Stages: []workload.Stage{{ID: StageID, Tasks: tasks}}}
}

// Open is the scenario.Opener of the "google2011" format. It reads the
// whole trace before returning, so a bad line anywhere is reported before
// a simulation starts; the returned *Source has a Summary.
func Open(path string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	cfg, err := ParseOptions(options, sc)
	if err != nil {
		return nil, fmt.Errorf("google2011 options: %w", err)
	}
	return Load(path, cfg)
}
