// Package inspect computes the statistics `netsched trace inspect` shows:
// job count, arrival span and rate, percentiles of bytes and task counts,
// the map-only share and class mixes of a workload, and the width and
// length of coflow traces.
package inspect

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/workload"
)

// Percentiles of a quantity over jobs, by nearest rank: the p-th
// percentile of n sorted values is the ceil(p/100 x n)-th smallest.
type Percentiles struct {
	P10 float64 `json:"p10"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// Summarize computes the percentiles of vals (sorting it in place); all
// zero for no values.
func Summarize(vals []float64) Percentiles {
	if len(vals) == 0 {
		return Percentiles{}
	}
	slices.Sort(vals)
	return Percentiles{P10: Rank(vals, 10), P50: Rank(vals, 50), P90: Rank(vals, 90), P99: Rank(vals, 99), Max: vals[len(vals)-1]}
}

// Rank is the nearest-rank p-th percentile of sorted values.
func Rank(sorted []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(k, 1), len(sorted))-1]
}

// Share is one class of a mix.
type Share struct {
	Name     string  `json:"name"`
	Jobs     int     `json:"jobs"`
	Fraction float64 `json:"fraction"`
}

// Stats describes a workload.
type Stats struct {
	Jobs         int     `json:"jobs"`
	FirstArrival float64 `json:"first_arrival_s"`
	LastArrival  float64 `json:"last_arrival_s"`
	Span         float64 `json:"arrival_span_s"`
	Rate         float64 `json:"arrival_rate_per_s"` // jobs / span (0 when span is 0)
	MeanGap      float64 `json:"mean_interarrival_s"`

	TotalInput     float64 `json:"total_input_bytes"`
	TotalShuffle   float64 `json:"total_shuffle_bytes"`
	TotalOutput    float64 `json:"total_output_bytes"`
	TotalDependent float64 `json:"total_dependent_bytes"`
	TotalTasks     int64   `json:"total_tasks"`
	// MaxTransfers bounds the network transfers between stages: a child
	// task fetches from each machine that holds parent output, so an edge
	// costs child tasks x min(parent tasks, machines) (child tasks for
	// one-to-one). It is what a flow-level run pays for, a cost estimate
	// before running; Machines is 0 when no cluster was given.
	MaxTransfers int64 `json:"max_transfers"`
	Machines     int   `json:"machines,omitempty"`

	Input   Percentiles `json:"input_bytes"`
	Shuffle Percentiles `json:"shuffle_bytes"`
	Output  Percentiles `json:"output_bytes"`
	Tasks   Percentiles `json:"tasks"`
	Maps    Percentiles `json:"root_stage_tasks"`
	Reduces Percentiles `json:"other_stage_tasks"`
	Stages  Percentiles `json:"stages"`

	MapOnly   float64 `json:"map_only_fraction"`  // jobs without stage dependencies
	Dependent float64 `json:"dependent_fraction"` // jobs that wait for other jobs
	Recurring float64 `json:"recurring_fraction"`
	Users     int     `json:"users"`
	Queues    int     `json:"queues"`

	SizeClasses    []Share `json:"size_classes"`
	InputClasses   []Share `json:"input_classes"`
	ShuffleClasses []Share `json:"shuffle_classes"`
	Labels         []Share `json:"labels,omitempty"`

	Coflows *CoflowStats `json:"coflows,omitempty"`
}

const mib = 1 << 20

// Class bins. Size classes (small/medium/large by input+shuffle+output) are
// our choice; the input and shuffle bins are NAS's (§IV-A), which put
// FB-2010 at 50.02% small-input and 68.70/12.58% shuffle-light/medium.
var (
	sizeBins    = []bin{{"small (<1GiB)", 1 << 30}, {"medium (1-100GiB)", 100 << 30}, {"large (>=100GiB)", math.Inf(1)}}
	inputBins   = []bin{{"small-input (<10MiB)", 10 * mib}, {"large-input (>=10MiB)", math.Inf(1)}}
	shuffleBins = []bin{{"shuffle-light (<1MiB)", mib}, {"shuffle-medium (1-100MiB)", 100*mib + 1}, {"shuffle-heavy (>100MiB)", math.Inf(1)}}
)

type bin struct {
	name  string
	below float64 // exclusive upper bound
}

func classify(bins []bin, v float64) int {
	for i, b := range bins {
		if v < b.below {
			return i
		}
	}
	return len(bins) - 1
}

// Collect reads src to the end and summarises it. Jobs must be valid;
// dependent jobs' inputs are their parents' expected outputs.
func Collect(src workload.Source) (*Stats, error) { return CollectOn(src, 0) }

// CollectOn is Collect for a cluster of machines (0: unknown, so every
// parent task counts as its own machine in MaxTransfers).
func CollectOn(src workload.Source, machines int) (*Stats, error) {
	var (
		st                                   = Stats{Machines: machines}
		in, sh, out, tasks, maps, reds, stgs []float64
		sizeN, inN, shN                      = make([]int, len(sizeBins)), make([]int, len(inputBins)), make([]int, len(shuffleBins))
		labels                               = map[string]int{}
		users, queues                        = map[string]bool{}, map[string]bool{}
		mapOnly, dependent, recurring        int
		outputs                              = map[string]float64{}
	)
	for {
		j, ok, err := src.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := j.Validate(0); err != nil {
			return nil, fmt.Errorf("job %s: %v", j.ID, err)
		}
		if st.Jobs == 0 {
			st.FirstArrival = j.Arrival
		}
		st.LastArrival = j.Arrival
		st.Jobs++
		dep := 0.0
		for _, p := range j.After {
			dep += outputs[p]
		}
		sz := JobSizes(j, dep)
		outputs[j.ID] = sz.Output
		in, sh, out = append(in, sz.Input), append(sh, sz.Shuffle), append(out, sz.Output)
		st.TotalInput += sz.Input
		st.TotalShuffle += sz.Shuffle
		st.TotalOutput += sz.Output
		st.TotalDependent += sz.Dependent
		sizeN[classify(sizeBins, sz.Input+sz.Shuffle+sz.Output)]++
		inN[classify(inputBins, sz.Input)]++
		shN[classify(shuffleBins, sz.Shuffle)]++

		var nt, nm, nr int
		edges := false
		for i := range j.Stages {
			n := j.Stages[i].TotalTasks()
			nt += n
			if len(j.Stages[i].After) == 0 {
				nm += n
			} else {
				nr += n
				edges = true
			}
		}
		st.TotalTasks += int64(nt)
		st.MaxTransfers += maxTransfers(j, machines)
		tasks, maps, reds = append(tasks, float64(nt)), append(maps, float64(nm)), append(reds, float64(nr))
		stgs = append(stgs, float64(len(j.Stages)))
		if !edges {
			mapOnly++
		}
		if len(j.After) > 0 {
			dependent++
		}
		if j.Recurring {
			recurring++
		}
		if j.Class != "" {
			labels[j.Class]++
		}
		users[j.User] = true
		queues[j.Queue] = true
	}
	if st.Jobs == 0 {
		return &st, nil
	}
	st.Span = st.LastArrival - st.FirstArrival
	if st.Span > 0 {
		st.Rate = float64(st.Jobs) / st.Span
	}
	if st.Jobs > 1 {
		st.MeanGap = st.Span / float64(st.Jobs-1)
	}
	st.Input, st.Shuffle, st.Output = Summarize(in), Summarize(sh), Summarize(out)
	st.Tasks, st.Maps, st.Reduces, st.Stages = Summarize(tasks), Summarize(maps), Summarize(reds), Summarize(stgs)
	n := float64(st.Jobs)
	st.MapOnly, st.Dependent, st.Recurring = float64(mapOnly)/n, float64(dependent)/n, float64(recurring)/n
	st.Users, st.Queues = len(users), len(queues)
	st.SizeClasses = shares(sizeBins, sizeN, st.Jobs)
	st.InputClasses = shares(inputBins, inN, st.Jobs)
	st.ShuffleClasses = shares(shuffleBins, shN, st.Jobs)
	names := make([]string, 0, len(labels))
	for k := range labels {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		st.Labels = append(st.Labels, Share{Name: k, Jobs: labels[k], Fraction: float64(labels[k]) / n})
	}
	return &st, nil
}

// maxTransfers is the bound of Stats.MaxTransfers for one job.
func maxTransfers(j *workload.Job, machines int) int64 {
	tasks := make(map[string]int64, len(j.Stages))
	for i := range j.Stages {
		tasks[j.Stages[i].ID] = int64(j.Stages[i].TotalTasks())
	}
	var n int64
	for i := range j.Stages {
		child := int64(j.Stages[i].TotalTasks())
		for _, d := range j.Stages[i].After {
			if d.Pattern == workload.OneToOne {
				n += child
				continue
			}
			sources := tasks[d.Stage]
			if machines > 0 {
				sources = min(sources, int64(machines))
			}
			n += child * sources
		}
	}
	return n
}

func shares(bins []bin, counts []int, n int) []Share {
	out := make([]Share, len(bins))
	for i, b := range bins {
		out[i] = Share{Name: b.name, Jobs: counts[i], Fraction: float64(counts[i]) / float64(n)}
	}
	return out
}
