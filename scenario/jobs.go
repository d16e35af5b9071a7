package scenario

import (
	"fmt"
	"strconv"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/workload"
)

// toJob converts the file form of a job to the job model. It does not
// validate; jobChecker does.
func (js *JobSpec) toJob() workload.Job {
	j := workload.Job{
		ID:        js.ID,
		Arrival:   float64(js.Arrival),
		User:      js.User,
		Queue:     js.Queue,
		After:     append([]string(nil), js.After...),
		Recurring: js.Recurring,
		Class:     js.Class,
		Stages:    make([]workload.Stage, len(js.Stages)),
	}
	for i, s := range js.Stages {
		st := workload.Stage{ID: s.ID, After: s.After.toDeps()}
		if len(s.Tasks) > 0 {
			st.Tasks = make([]workload.Task, len(s.Tasks))
		}
		for k, t := range s.Tasks {
			st.Tasks[k] = workload.Task{
				Input: float64(t.Input),
				Share: 1, // absent

				Compute:     float64(t.Compute),
				PerByte:     perByte(t.Rate),
				Output:      float64(t.Output),
				OutputRatio: t.OutputRatio,
				Pin:         workload.NoPin,
			}
			if t.Share != nil {
				st.Tasks[k].Share = *t.Share
			}
			if t.Pin != nil {
				st.Tasks[k].Pin = *t.Pin
			}
		}
		if s.Count != 0 {
			st.Generate = &workload.TaskGen{
				Count:       s.Count,
				Input:       workload.Dist(s.Input),
				Share:       workload.Dist(s.Share),
				Compute:     workload.Dist(s.Compute),
				PerByte:     perByte(s.Rate),
				Output:      workload.Dist(s.Output),
				OutputRatio: s.OutputRatio,
			}
		}
		j.Stages[i] = st
	}
	return j
}

// perByte turns a processing rate (bytes/s) into seconds per byte.
func perByte(r units.Rate) float64 {
	if r <= 0 {
		return 0
	}
	return 1 / float64(r)
}

func rateOf(perByte float64) units.Rate {
	if perByte <= 0 {
		return 0
	}
	return units.Rate(1 / perByte)
}

// FromJobs converts jobs of the model to their file form, for writing a
// workload (for example an imported trace) as a native YAML or JSONL file.
// Processing rates are written as 1/PerByte, so PerByte reads back within
// one rounding step.
func FromJobs(jobs []workload.Job) []JobSpec {
	out := make([]JobSpec, len(jobs))
	for i := range jobs {
		out[i] = fromJob(&jobs[i])
	}
	return out
}

func fromJob(j *workload.Job) JobSpec {
	js := JobSpec{
		ID:        j.ID,
		Arrival:   units.Duration(j.Arrival),
		User:      j.User,
		Queue:     j.Queue,
		After:     append([]string(nil), j.After...),
		Recurring: j.Recurring,
		Class:     j.Class,
		Stages:    make([]StageSpec, len(j.Stages)),
	}
	if len(js.After) == 0 {
		js.After = nil
	}
	for i, s := range j.Stages {
		ss := StageSpec{ID: s.ID, After: fromDeps(s.After)}
		if len(s.Tasks) > 0 {
			ss.Tasks = make([]TaskSpec, len(s.Tasks))
		}
		for k, t := range s.Tasks {
			ss.Tasks[k] = TaskSpec{
				Input:       units.Bytes(t.Input),
				Compute:     units.Duration(t.Compute),
				Rate:        rateOf(t.PerByte),
				Output:      units.Bytes(t.Output),
				OutputRatio: t.OutputRatio,
			}
			if t.Share != 1 {
				share := t.Share
				ss.Tasks[k].Share = &share
			}
			if t.Pin != workload.NoPin {
				p := t.Pin
				ss.Tasks[k].Pin = &p
			}
		}
		if g := s.Generate; g != nil && g.Count != 0 {
			ss.Count = g.Count
			ss.Input = BytesDist(g.Input)
			ss.Share = NumberDist(g.Share)
			ss.Compute = DurationDist(g.Compute)
			ss.Rate = rateOf(g.PerByte)
			ss.Output = BytesDist(g.Output)
			ss.OutputRatio = g.OutputRatio
		}
		js.Stages[i] = ss
	}
	return js
}

// jobChecker validates jobs one at a time in arrival order, so that a
// streamed trace is checked the same way as a list in a scenario file.
type jobChecker struct {
	machines int
	noSlots  func(machine int) bool // a machine where no task can run
	// seen maps each job id checked to where it was defined, for
	// messages: its index in a list (whose line is computed only for a
	// message), or a streamed record's line (its text is not kept).
	seen map[string]int
	// find returns the arrival of a list's first job with an id (nil when
	// streamed). Only messages need it, so it may be slow.
	find     func(id string) (arrival float64, ok bool)
	list     string  // path of the list checked ("" when streamed)
	listSrc  *source // the list's document
	last     float64 // arrival of the previous job
	streamed bool    // jobs come from a stream: arrivals must not decrease
}

func newJobChecker(machines []Machine) *jobChecker {
	noSlots := func(m int) bool { return m >= 0 && m < len(machines) && machines[m].Slots == 0 }
	return &jobChecker{machines: len(machines), noSlots: noSlots, seen: map[string]int{}}
}

// lineNo is the line where a job seen as at was defined.
func (c *jobChecker) lineNo(at int) int {
	if c.streamed {
		return at
	}
	return c.listSrc.lineOf(joinKey(c.path(at), "id"))
}

// path is the path of item i of the list checked, "" for a streamed job.
func (c *jobChecker) path(i int) string {
	if c.list == "" {
		return ""
	}
	return c.list + "[" + strconv.Itoa(i) + "]"
}

// check validates js, found in src as the list's item number item (or as
// a streamed record: item is then ignored), and returns it as a job.
func (c *jobChecker) check(src *source, item int, js *JobSpec) (workload.Job, error) {
	path := c.path(item)
	at := func(sub, format string, args ...any) error {
		return src.at(joinKey(path, sub), format, args...)
	}
	for i, s := range js.Stages {
		if err := checkStageFields(src, joinKey(path, fmt.Sprintf("stages[%d]", i)), &s); err != nil {
			return workload.Job{}, err
		}
		for k, t := range s.Tasks {
			switch {
			case t.Pin == nil:
			case *t.Pin < 0:
				return workload.Job{}, at(fmt.Sprintf("stages[%d].tasks[%d].pin", i, k),
					"pin %d is not a machine index (cluster has machines 0..%d)", *t.Pin, c.machines-1)
			case c.noSlots(*t.Pin):
				// The run would stall with the task never placed.
				return workload.Job{}, at(fmt.Sprintf("stages[%d].tasks[%d].pin", i, k),
					"machine %d has slots: 0, so a task pinned to it could never run", *t.Pin)
			}
		}
	}
	j := js.toJob()
	if err := j.Validate(c.machines); err != nil {
		if fe, ok := err.(*workload.FieldError); ok {
			return j, at(fe.Path, "%s", fe.Msg)
		}
		return j, at("", "%v", err)
	}
	if prev, dup := c.seen[j.ID]; dup {
		return j, at("id", "job id %q is used twice (also at line %d)", j.ID, c.lineNo(prev))
	}
	if c.streamed && j.Arrival < c.last {
		return j, at("arrival", "arrival %s is earlier than the previous job's %s; a trace must be sorted by arrival",
			units.FormatDuration(j.Arrival), units.FormatDuration(c.last))
	}
	for k, p := range j.After {
		if _, ok := c.seen[p]; ok {
			continue
		}
		apath := fmt.Sprintf("after[%d]", k)
		var arr float64
		var exists bool
		if c.find != nil {
			arr, exists = c.find(p)
		}
		switch {
		case p == j.ID:
			return j, at(apath, "job %q depends on itself", p)
		case !exists && c.streamed:
			return j, at(apath, "job %q has not appeared before job %q; a job may only depend on jobs listed before it", p, j.ID)
		case !exists:
			return j, at(apath, "unknown job %q", p)
		case arr > j.Arrival:
			return j, at(apath, "job %q arrives at %s, after job %q (%s); a job may only depend on jobs that arrive no later",
				p, units.FormatDuration(arr), j.ID, units.FormatDuration(j.Arrival))
		default:
			return j, at(apath, "job %q arrives at the same time as job %q but is listed after it; list it first", p, j.ID)
		}
	}
	if c.streamed {
		c.seen[j.ID] = src.line0 + 1
	} else {
		c.seen[j.ID] = item
	}
	c.last = j.Arrival
	return j, nil
}

// checkStageFields rejects stage-level task fields without `count`: they
// describe generated tasks only, so alone they would be silently ignored.
func checkStageFields(src *source, path string, s *StageSpec) error {
	if s.Count != 0 {
		return nil
	}
	for _, f := range []struct {
		key string
		set bool
	}{
		{"input", s.Input != BytesDist{}}, {"share", s.Share != NumberDist{}}, {"compute", s.Compute != DurationDist{}},
		{"rate", s.Rate != 0}, {"output", s.Output != BytesDist{}}, {"output_ratio", s.OutputRatio != 0},
	} {
		if f.set {
			return src.at(path+"."+f.key, "a stage-level %s describes the tasks drawn by `count`, which is missing; set count or give %s per task under tasks", f.key, f.key)
		}
	}
	return nil
}

// lineOf is the line of path in the document (for "also at line N").
func (s *source) lineOf(path string) int {
	l, _ := s.filePosition(path)
	return l
}
