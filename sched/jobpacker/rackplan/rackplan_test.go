package rackplan_test

import (
	"slices"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

// placer uploads job A's input with PlaceReplicas and a fixed plan: splits
// 0-3 on rack 1, 4-5 on rack 2 (the job's map racks).
type placer struct {
	in   rackplan.Input
	reps map[int][]int
}

func (p *placer) PlaceInput(v sched.View, in sched.InputSplit) []int {
	r := rackplan.PlaceReplicas(v, in, p.in)
	if again := rackplan.PlaceReplicas(v, in, p.in); !slices.Equal(r, again) {
		p.reps[-1] = r // flags a second call that differs
	}
	p.reps[in.Task] = r
	return r
}

func (p *placer) Offer(v sched.View, m int, pl *sched.Plan) {
	for _, j := range v.Jobs() {
		if t := locate.First([]sched.Stage{j.Stage(0)}, m); !t.IsZero() {
			pl.Place(t, m)
			return
		}
	}
}

// First replica on the split's planned rack, in the planned numbers; the
// second on a rack the job's maps do not use (0 or 3); the third on
// another machine of the second's rack; the same answer on every call.
func TestPlaceReplicas(t *testing.T) {
	doc := `
cluster: {racks: 4, machines_per_rack: 2, slots_per_machine: 2, nic: 1GB/s}
workload:
  jobs:
    - {id: A, arrival: 1s, stages: [{id: map, count: 6, input: 10MB, compute: 1s}]}
`
	p := &placer{in: rackplan.Input{Racks: []int{1, 2}, Splits: []int{4, 2}}, reps: map[int][]int{}}
	schedtest.Run(t, doc, p)
	if _, bad := p.reps[-1]; bad {
		t.Error("two calls for the same split gave different replicas")
	}
	for i := range 6 {
		r := p.reps[i]
		want := 1
		if i >= 4 {
			want = 2
		}
		if len(r) != 3 || r[0]/2 != want || r[1]/2 != 0 && r[1]/2 != 3 || r[2]/2 != r[1]/2 || r[2] == r[1] {
			t.Errorf("split %d: replicas on machines %v (racks %d %d %d); want rack %d, then 0 or 3 twice", i, r, r[0]/2, r[1]/2, r[2]/2, want)
		}
	}
}

// adhocOnly runs everything through Adhoc, shuffle-heavy ad-hoc jobs
// (input > 1 GB) in their own Fair scheduler; lightFirst is fixed.
type adhocOnly struct {
	a          *rackplan.Adhoc
	lightFirst bool
	order      []string
}

func (s *adhocOnly) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	s.a.Observe(v, e, p)
	if e.Kind == sched.TaskStarted {
		s.order = append(s.order, e.Job.ID())
	}
}

func (s *adhocOnly) Offer(v sched.View, m int, p *sched.Plan) { s.a.Offer(v, m, p, s.lightFirst) }

// One slot: the heavy job (2 GB of input) and the light one (100 MB) wait
// from 0. Light first (a shuffle-heavy job already runs in the rack): the
// light job's task starts first; otherwise the heavy one's.
func TestAdhocKeepsHeavyApart(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - {id: heavy, stages: [{id: map, count: 1, input: 2GB, compute: 1s}]}
    - {id: light, stages: [{id: map, count: 1, input: 100MB, compute: 1s}]}
`
	for _, lightFirst := range []bool{true, false} {
		a, err := rackplan.NewAdhoc(1e9)
		if err != nil {
			t.Fatal(err)
		}
		s := &adhocOnly{a: a, lightFirst: lightFirst}
		schedtest.Run(t, doc, s)
		want := []string{"heavy", "light"}
		if lightFirst {
			want = []string{"light", "heavy"}
		}
		if !slices.Equal(s.order, want) {
			t.Errorf("lightFirst %v: started %v, want %v", lightFirst, s.order, want)
		}
	}
}

// Plan.Quota and Racks read a plan's entries.
func TestPlanQueries(t *testing.T) {
	p := rackplan.New(3)
	p.Add(2, rackplan.Entry{Job: "j", Kind: rackplan.Maps, Quota: 3, Start: 5})
	p.Add(2, rackplan.Entry{Job: "k", Kind: rackplan.Maps, Quota: 1, Start: 1})
	p.Add(0, rackplan.Entry{Job: "j", Kind: rackplan.Reduces, Quota: 2})
	p.Add(1, rackplan.Entry{Job: "c", Kind: rackplan.AllStages})
	p.Sort()
	if p.Seq[2][0].Job != "k" {
		t.Errorf("rack 2 sequence %+v not by start", p.Seq[2])
	}
	if p.Quota("j", rackplan.Maps, 2) != 3 || p.Quota("j", rackplan.Reduces, 2) != 0 || p.Quota("c", rackplan.AllStages, 1) != -1 {
		t.Error("quotas")
	}
	if !slices.Equal(p.Racks("j", rackplan.AllStages), []int{0, 2}) || !slices.Equal(p.Racks("j", rackplan.Maps), []int{2}) {
		t.Errorf("racks of j: %v, maps %v", p.Racks("j", rackplan.AllStages), p.Racks("j", rackplan.Maps))
	}
}
