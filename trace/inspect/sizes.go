package inspect

import "github.com/netsched/netsched/workload"

// Sizes are a job's expected byte counts.
type Sizes struct {
	Input     float64 // read from the distributed file system by the job's tasks
	Dependent float64 // read from parent jobs' outputs (workflows)
	Shuffle   float64 // written by stages that have child stages (intermediate data)
	Output    float64 // written by stages without child stages
}

// JobSizes computes a job's expected sizes by pushing bytes through its
// stage DAG. Generated tasks count with their distributions' means (exact
// for constants); a task with an output ratio writes ratio x (file input +
// fetched bytes); a scatter-gather child fetches its share of the parent's
// output, a broadcast child task all of it, a one-to-one child task its
// parent task's part. dependent is the total output of the job's parent
// jobs, read evenly by the tasks of its root stages. j must be valid.
func JobSizes(j *workload.Job, dependent float64) Sizes {
	index := make(map[string]int, len(j.Stages))
	for i := range j.Stages {
		index[j.Stages[i].ID] = i
	}
	hasChild := make([]bool, len(j.Stages))
	rootTasks := 0
	for i := range j.Stages {
		for _, d := range j.Stages[i].After {
			hasChild[index[d.Stage]] = true
		}
		if len(j.Stages[i].After) == 0 {
			rootTasks += j.Stages[i].TotalTasks()
		}
	}
	out := make([]float64, len(j.Stages))
	done := make([]bool, len(j.Stages))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		done[i] = true
		s := &j.Stages[i]
		for _, d := range s.After {
			visit(index[d.Stage])
		}
		in := inflow{n: float64(s.TotalTasks())}
		for _, d := range s.After {
			p := out[index[d.Stage]]
			switch d.Pattern {
			case workload.Broadcast:
				in.perTask += p
			case workload.OneToOne:
				in.perTask += p / in.n
			default:
				in.shared += p
			}
		}
		if len(s.After) == 0 && rootTasks > 0 {
			in.perTask += dependent / float64(rootTasks)
		}
		out[i] = stageOutput(s, in)
	}
	var sz Sizes
	sz.Dependent = dependent
	for i := range j.Stages {
		visit(i)
		sz.Input += fileInput(&j.Stages[i])
		if hasChild[i] {
			sz.Shuffle += out[i]
		} else {
			sz.Output += out[i]
		}
	}
	return sz
}

// inflow is what a stage's tasks fetch: perTask bytes each, plus shared
// bytes split by partition share.
type inflow struct {
	n       float64
	perTask float64
	shared  float64
}

func genShare(g *workload.TaskGen) float64 {
	if g.Share.Kind == "" && g.Share.A == 0 {
		return float64(g.Count)
	}
	return float64(g.Count) * g.Share.Mean(g.Count)
}

func fileInput(s *workload.Stage) float64 {
	v := 0.0
	for _, t := range s.Tasks {
		v += t.Input
	}
	if g := s.Generate; g != nil {
		v += float64(g.Count) * g.Input.Mean(g.Count)
	}
	return v
}

func stageOutput(s *workload.Stage, in inflow) float64 {
	total := 0.0
	for _, t := range s.Tasks {
		total += t.Share
	}
	if g := s.Generate; g != nil {
		total += genShare(g)
	}
	out := 0.0
	for _, t := range s.Tasks {
		if t.OutputRatio > 0 {
			fetched := in.perTask
			if total > 0 {
				fetched += in.shared * t.Share / total
			}
			out += t.OutputRatio * (t.Input + fetched)
		} else {
			out += t.Output
		}
	}
	if g := s.Generate; g != nil && g.Count > 0 {
		n := float64(g.Count)
		if g.OutputRatio > 0 {
			fetched := in.perTask * n
			if total > 0 {
				fetched += in.shared * genShare(g) / total
			}
			out += g.OutputRatio * (n*g.Input.Mean(g.Count) + fetched)
		} else {
			out += n * g.Output.Mean(g.Count)
		}
	}
	return out
}
