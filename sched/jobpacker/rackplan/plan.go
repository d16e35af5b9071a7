// Package rackplan carries out, at run time, an offline plan that puts
// recurring jobs on racks (JobPacker §4.3-4.4, Corral as
// shared/design/baselines.md §7 describes it): each rack has a sequence of
// planned work, each job's input goes to the racks its maps are planned
// on, and the jobs the plan does not know (ad-hoc jobs) are left to the
// Fair scheduler. JobPacker and Corral differ in how they plan; they carry
// out their plans with these same pieces:
//
//   - Plan: per rack, entries (a job's maps or reduces or both, with a quota
//     of tasks) in planned order, and per job the racks of its input;
//   - Follower: on an offer of a machine, the first entry of its rack's
//     sequence, in order, that has a task that may start;
//   - PlaceReplicas: one replica of each input split on a planned rack,
//     the others as HDFS would place them;
//   - Adhoc: the Fair scheduler over the unplanned jobs only, optionally in
//     two classes (shuffle-heavy ones kept apart, JobPacker §4.4).
package rackplan

import "sort"

// Kind is what part of a job an entry plans: its maps (root stages), its
// reduces (every other stage) or both.
type Kind uint8

const (
	Maps Kind = iota
	Reduces
	AllStages
)

func (k Kind) String() string { return [...]string{"maps", "reduces", "all"}[k] }

// Entry is one planned piece of work on a rack.
type Entry struct {
	Job   string
	Kind  Kind
	Quota int     // tasks of Kind planned on the rack; 0 = any number
	Start float64 // planned start on this rack, seconds (orders the sequence)
}

// Plan is an offline plan: what each rack runs, in order, and where each
// job's input is uploaded.
type Plan struct {
	Seq   [][]Entry        // by rack
	Input map[string]Input // job -> where one replica of each split goes
}

// Input says which racks get one replica of each of a job's input splits:
// consecutive splits, in order, Splits[i] of them to Racks[i] (nil Splits:
// an equal share each).
type Input struct {
	Racks  []int
	Splits []int
}

// rackOf is the rack of split i of a job with n splits.
func (in Input) rackOf(i, n int) int {
	k := len(in.Racks)
	if len(in.Splits) != k {
		return in.Racks[min(k-1, i*k/max(1, n))]
	}
	for j, c := range in.Splits {
		if i < c {
			return in.Racks[j]
		}
		i -= c
	}
	return in.Racks[k-1]
}

// New is an empty plan for racks racks.
func New(racks int) *Plan {
	return &Plan{Seq: make([][]Entry, racks), Input: map[string]Input{}}
}

// Add appends e to rack's sequence.
func (p *Plan) Add(rack int, e Entry) { p.Seq[rack] = append(p.Seq[rack], e) }

// Sort orders every rack's sequence by planned start, keeping the order of
// addition among equal starts.
func (p *Plan) Sort() {
	for _, s := range p.Seq {
		sort.SliceStable(s, func(a, b int) bool { return s[a].Start < s[b].Start })
	}
}

// Racks lists the racks whose sequence has an entry of job id of kind k
// (AllStages matches any), in rack order.
func (p *Plan) Racks(id string, k Kind) []int {
	var out []int
	for r, s := range p.Seq {
		for _, e := range s {
			if e.Job == id && (k == AllStages || e.Kind == k || e.Kind == AllStages) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// Quota is the tasks of job id of kind k planned on rack r (0 when none;
// -1 when an entry has no limit).
func (p *Plan) Quota(id string, k Kind, r int) int {
	q := 0
	for _, e := range p.Seq[r] {
		if e.Job == id && e.Kind == k {
			if e.Quota == 0 {
				return -1
			}
			q += e.Quota
		}
	}
	return q
}
