// Package workload defines the work that netsched simulates: jobs made of
// stages of tasks, with dependencies between stages and between jobs. These
// are plain descriptions (what a trace or a scenario file says); the engine
// turns them into running state when a job arrives.
//
// Sizes are bytes and times are seconds.
package workload

// Job is one submitted job: a DAG of stages.
type Job struct {
	ID      string
	Arrival float64
	User    string // "" means "default"
	Queue   string // "" means "default"
	// After lists jobs that must finish before this job starts (a workflow,
	// Dawn); this job's root stages read those jobs' outputs.
	After  []string
	Stages []Stage
	// Recurring marks a job that repeats with known characteristics
	// (Corral, JobPacker); Class is a free label (e.g. a size bin).
	Recurring bool
	Class     string
}

// DepKind is how a stage waits for a parent stage.
type DepKind int

const (
	// StartsAfter: the child becomes ready only when the parent has finished (a barrier).
	StartsAfter DepKind = iota
	// FinishesBefore: the child becomes ready once SlowStart of the parent's
	// tasks have finished (Hadoop reducer slow-start); it cannot finish first.
	FinishesBefore
)

// Pattern is how a stage's tasks read the output of a parent stage.
type Pattern int

const (
	// ScatterGather: every child task reads its share of every parent task's output.
	ScatterGather Pattern = iota
	// Broadcast: every child task reads all of every parent task's output.
	Broadcast
	// OneToOne: child task i reads the output of parent task i.
	OneToOne
)

func (p Pattern) String() string {
	return [...]string{"scatter-gather", "broadcast", "one-to-one"}[p]
}

// Dep is an edge from a parent stage of the same job.
type Dep struct {
	Stage     string
	Kind      DepKind
	SlowStart float64 // fraction of parent tasks done before the child is ready (FinishesBefore)
	Pattern   Pattern
}

// Stage is a set of tasks running the same function (a cotask in CSS).
type Stage struct {
	ID    string
	After []Dep
	// Tasks lists the tasks one by one; Generate, when set, adds Count more
	// drawn from distributions (expanded when the job arrives).
	Tasks    []Task
	Generate *TaskGen
}

// NoPin marks a task that may run on any machine.
const NoPin = -1

// Task is one unit of work that holds a slot while it reads its input over
// the network (input phase) and then computes (compute phase).
type Task struct {
	// Input is the size of an input split read from the distributed file
	// system (blocks with replicas), 0 if the task reads no file.
	Input float64
	// Share is this task's share of its parents' output under scatter-gather
	// (normalised over the stage's tasks); 0: it reads none of it. Files
	// that leave it out mean 1.
	Share float64
	// Compute is the fixed compute time; PerByte adds seconds per byte of
	// input (file input plus fetched parent output).
	Compute float64
	PerByte float64
	// Output is the bytes this task writes; when OutputRatio > 0 the output is
	// OutputRatio x input bytes instead.
	Output      float64
	OutputRatio float64
	// Pin restricts the task to one machine index (NoPin = anywhere).
	Pin int
}

// TaskGen draws Count tasks from distributions.
type TaskGen struct {
	Count       int
	Input       Dist
	Share       Dist // the zero Dist (not given): every share 1
	Compute     Dist
	PerByte     float64
	Output      Dist
	OutputRatio float64
}

// TotalTasks is the number of tasks a stage will have once expanded.
func (s *Stage) TotalTasks() int {
	n := len(s.Tasks)
	if s.Generate != nil {
		n += s.Generate.Count
	}
	return n
}

// Source yields jobs in non-decreasing arrival order, so that a trace of any
// length can be replayed without holding it in memory.
type Source interface {
	// Next returns the next job, or ok=false at the end. err reports a bad
	// record (with its file and line).
	Next() (job *Job, ok bool, err error)
}

// ReadAll reads src to its end. On a bad record it returns the jobs read
// before it with the error.
func ReadAll(src Source) ([]Job, error) {
	var out []Job
	for {
		j, ok, err := src.Next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, *j)
	}
}

// SliceSource replays a fixed list of jobs (already sorted by arrival).
type SliceSource struct {
	Jobs []Job
	i    int
}

func (s *SliceSource) Next() (*Job, bool, error) {
	if s.i >= len(s.Jobs) {
		return nil, false, nil
	}
	s.i++
	return &s.Jobs[s.i-1], true, nil
}
