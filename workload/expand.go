package workload

import (
	"fmt"
	"math/rand/v2"
)

// Expand returns the stage's tasks: the listed ones followed by Count drawn
// from Generate with r. Draw order is fixed so a seed fixes the result.
func (s *Stage) Expand(r *rand.Rand) []Task {
	tasks := append([]Task(nil), s.Tasks...)
	g := s.Generate
	if g == nil {
		return tasks
	}
	for i := 0; i < g.Count; i++ {
		t := Task{
			Input:       g.Input.Sample(r, i, g.Count),
			Share:       g.Share.Sample(r, i, g.Count),
			Compute:     g.Compute.Sample(r, i, g.Count),
			PerByte:     g.PerByte,
			Output:      g.Output.Sample(r, i, g.Count),
			OutputRatio: g.OutputRatio,
			Pin:         NoPin,
		}
		if g.Share.absent() {
			t.Share = 1
		}
		tasks = append(tasks, t)
	}
	return tasks
}

// FieldError is a validation error at a place in a job description. Path
// uses YAML-path syntax relative to the job, e.g. "stages[1].after[0].stage",
// so a loader can point at the line in the file.
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// Validate checks that a job is internally consistent: unique non-empty
// stage ids, dependencies on existing earlier-or-later stages without
// cycles, sane numbers, one-to-one edges between stages of equal size.
// machines is the cluster size for pins (0 skips the pin check).
func (j *Job) Validate(machines int) error {
	if err := CheckID("job", j.ID); err != nil {
		return &FieldError{"id", err.Error()}
	}
	if k, first := firstRepeat(j.After, func(id string) string { return id }); k >= 0 {
		return &FieldError{fmt.Sprintf("after[%d]", k), fmt.Sprintf("job %q is listed twice (also after[%d]); a parent is read once", j.After[k], first)}
	}
	if j.Arrival < 0 {
		return &FieldError{"arrival", fmt.Sprintf("arrival %g is negative", j.Arrival)}
	}
	if err := within("arrival", j.Arrival, MaxSeconds); err != nil {
		return &FieldError{"arrival", err.Error()}
	}
	if len(j.Stages) == 0 {
		return &FieldError{"stages", "a job needs at least one stage"}
	}
	index := map[string]int{}
	for i, s := range j.Stages {
		p := fmt.Sprintf("stages[%d]", i)
		if err := CheckID("stage", s.ID); err != nil {
			return &FieldError{p + ".id", err.Error()}
		}
		if _, dup := index[s.ID]; dup {
			return &FieldError{p + ".id", fmt.Sprintf("stage id %q is used twice in job %q", s.ID, j.ID)}
		}
		index[s.ID] = i
		if s.TotalTasks() == 0 {
			return &FieldError{p + ".tasks", "a stage needs at least one task (tasks or count)"}
		}
		if s.TotalTasks() > MaxTasksPerStage {
			return &FieldError{p + ".count", fmt.Sprintf("%d tasks in one stage is beyond the limit %d", s.TotalTasks(), MaxTasksPerStage)}
		}
		for k, t := range s.Tasks {
			if err := t.validate(machines); err != nil {
				return &FieldError{fmt.Sprintf("%s.tasks[%d].%s", p, k, err.Path), err.Msg}
			}
		}
		if g := s.Generate; g != nil {
			if g.Count < 0 {
				return &FieldError{p + ".count", fmt.Sprintf("count %d is negative", g.Count)}
			}
			for _, d := range []struct {
				name string
				dist Dist
				max  float64
			}{{"input", g.Input, MaxBytes}, {"share", g.Share, MaxShare}, {"compute", g.Compute, MaxSeconds}, {"output", g.Output, MaxBytes}} {
				err := d.dist.Validate()
				if err == nil {
					err = d.dist.Bounded(d.max)
				}
				if err != nil {
					return &FieldError{p + "." + d.name, err.Error()}
				}
			}
			if err := checkPerByte(g.PerByte); err != nil {
				return &FieldError{p + ".rate", err.Error()}
			}
			if err := within("output_ratio", g.OutputRatio, MaxRatio); err != nil {
				return &FieldError{p + ".output_ratio", err.Error()}
			}
		}
	}
	for i, s := range j.Stages {
		if k, first := firstRepeat(s.After, func(d Dep) string { return d.Stage }); k >= 0 {
			return &FieldError{fmt.Sprintf("stages[%d].after[%d]", i, k),
				fmt.Sprintf("stage %q is listed twice (also after[%d]); a parent's output is read once, so give it once", s.After[k].Stage, first)}
		}
		for k, d := range s.After {
			p := fmt.Sprintf("stages[%d].after[%d]", i, k)
			pi, ok := index[d.Stage]
			if !ok {
				return &FieldError{p, fmt.Sprintf("unknown stage %q (job %q has: %v)", d.Stage, j.ID, stageIDs(j))}
			}
			if pi == i {
				return &FieldError{p, fmt.Sprintf("stage %q depends on itself", s.ID)}
			}
			if d.SlowStart < 0 || d.SlowStart > 1 {
				return &FieldError{p + ".slowstart", fmt.Sprintf("slow-start %g must be within [0, 1]", d.SlowStart)}
			}
			if d.Pattern == OneToOne && j.Stages[pi].TotalTasks() != s.TotalTasks() {
				return &FieldError{p, fmt.Sprintf("one-to-one edge needs equal task counts, %q has %d and %q has %d",
					d.Stage, j.Stages[pi].TotalTasks(), s.ID, s.TotalTasks())}
			}
		}
	}
	if cyc := j.findCycle(index); cyc != "" {
		return &FieldError{"stages", "stage dependencies form a cycle through " + cyc}
	}
	return j.checkShares()
}

// checkShares rejects a stage that reads its parents' output by share (a
// scatter-gather edge, or a root stage of a job with parent jobs) when no
// task can have a share > 0: the shares could not be normalised.
func (j *Job) checkShares() error {
	for i, s := range j.Stages {
		reads := len(s.After) == 0 && len(j.After) > 0 || readsScatterGather(s.After)
		if reads && !s.sharesPositive() {
			return &FieldError{fmt.Sprintf("stages[%d]", i), fmt.Sprintf("every task of stage %q has share 0, but the stage reads its parents' output by share; give a task a share > 0", s.ID)}
		}
	}
	return nil
}

// firstRepeat returns the index of the first item whose key an earlier
// item has, and that earlier index; -1, -1 when the keys are distinct.
func firstRepeat[T any](items []T, key func(T) string) (int, int) {
	if len(items) <= 16 { // the usual few parents: no map
		for k := 1; k < len(items); k++ {
			for first := range k {
				if key(items[first]) == key(items[k]) {
					return k, first
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string]int, len(items))
	for k, it := range items {
		if first, dup := seen[key(it)]; dup {
			return k, first
		}
		seen[key(it)] = k
	}
	return -1, -1
}

func readsScatterGather(deps []Dep) bool {
	for _, d := range deps {
		if d.Pattern == ScatterGather {
			return true
		}
	}
	return false
}

// sharesPositive reports whether a task of the stage may have a share > 0,
// so that the shares can be normalised.
func (s *Stage) sharesPositive() bool {
	for _, t := range s.Tasks {
		if t.Share > 0 {
			return true
		}
	}
	g := s.Generate
	if g == nil || g.Count == 0 {
		return false
	}
	switch d := g.Share; {
	case d.absent():
		return true
	case d.Kind == Const:
		return d.A > 0
	case d.Kind == Uniform:
		return d.B > 0
	case d.Kind == Exponential:
		return d.A > 0
	}
	return true // lognormal, pareto and zipf draw positive weights
}

func (t *Task) validate(machines int) *FieldError {
	for _, f := range []struct {
		name   string
		v, max float64
	}{{"input", t.Input, MaxBytes}, {"share", t.Share, MaxShare}, {"compute", t.Compute, MaxSeconds},
		{"output", t.Output, MaxBytes}, {"output_ratio", t.OutputRatio, MaxRatio}} {
		if err := within(f.name, f.v, f.max); err != nil {
			return &FieldError{f.name, err.Error()}
		}
	}
	if err := checkPerByte(t.PerByte); err != nil {
		return &FieldError{"rate", err.Error()}
	}
	if t.Pin != NoPin && (t.Pin < 0 || machines > 0 && t.Pin >= machines) {
		return &FieldError{"pin", fmt.Sprintf("pin %d is not a machine index (cluster has machines 0..%d)", t.Pin, machines-1)}
	}
	return nil
}

func stageIDs(j *Job) []string {
	ids := make([]string, len(j.Stages))
	for i, s := range j.Stages {
		ids[i] = s.ID
	}
	return ids
}

// findCycle returns the id of a stage on a dependency cycle, or "".
func (j *Job) findCycle(index map[string]int) string {
	state := make([]int8, len(j.Stages)) // 0 new, 1 on stack, 2 done
	var visit func(i int) string
	visit = func(i int) string {
		state[i] = 1
		for _, d := range j.Stages[i].After {
			p := index[d.Stage]
			if state[p] == 1 {
				return j.Stages[p].ID
			}
			if state[p] == 0 {
				if c := visit(p); c != "" {
					return c
				}
			}
		}
		state[i] = 2
		return ""
	}
	for i := range j.Stages {
		if state[i] == 0 {
			if c := visit(i); c != "" {
				return c
			}
		}
	}
	return ""
}
