package sched_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// Each extension point of the API is exercised here by a small scheduler
// with hand-checked outcomes.

// run simulates an inline scenario under s in check mode, with task records.
func run(t *testing.T, doc string, s sched.Scheduler) *metrics.Result {
	t.Helper()
	return schedtest.Run(t, doc, s)
}

func jct(t *testing.T, r *metrics.Result, id string) float64 {
	t.Helper()
	for _, j := range r.Jobs {
		if j.ID == id {
			return j.JCT
		}
	}
	t.Fatalf("job %s not in the result", id)
	return 0
}

var near = schedtest.Near

// firstFit places, on an offered machine, the first waiting task of the
// earliest job that may run there.
type firstFit struct{}

func (firstFit) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		var stages []sched.Stage
		for _, st := range j.Stages() {
			stages = append(stages, st)
		}
		if t := locate.First(stages, m); !t.IsZero() {
			p.Place(t, m)
			return
		}
	}
}

// Three maps on machines 1-3 finish at t=1, 2 and 3, each with 1MB for the
// one reducer on machine 0 (slow-start 0: it starts at t=0). NICs are
// 1MB/s; the reducer computes nothing.
const gatedJob = `
cluster: {racks: 1, machines_per_rack: 4, slots_per_machine: 1, nic: 1MB/s}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 1}, {compute: 2s, output: 1MB, pin: 2}, {compute: 3s, output: 1MB, pin: 3}]}
        - id: reduce
          after: [{stage: map, slowstart: 0}]
          tasks: [{compute: 0s, pin: 0}]
`

// gate holds a reducer's fetches until two sources are ready, releases
// them together, then lets every later source go at once.
type gate struct {
	firstFit
	released bool
	log      []string
}

func (g *gate) GateFetches(v sched.View, t sched.Task) bool { return t.Stage().NumParents() > 0 }

func (g *gate) FetchesReady(v sched.View, t sched.Task, p *sched.Plan) {
	var held []sched.Fetch
	for _, f := range v.Fetches(t) {
		if f.Held {
			held = append(held, f)
		}
	}
	if !g.released && len(held) < 2 {
		return
	}
	g.released = true
	for _, f := range held {
		g.log = append(g.log, fmt.Sprintf("%gs m%d %s", v.Now(), f.Machine, f.Kind))
		if err := p.ReleaseFetch(t, f.Machine); err != nil {
			return
		}
	}
}

// Held until t=2, the first two fetches share machine 0's 1MB/s downlink
// (0.5MB/s each); at t=3 the third joins (1/3 each): the first two end
// at 4.5, the third has 0.5MB left and ends at 5. Ungated, the three run
// one after another: 1-2, 2-3, 3-4.
func TestFetchGatingTwoOfThree(t *testing.T) {
	g := &gate{}
	r := run(t, gatedJob, g)
	if got := jct(t, r, "A"); !near(got, 5) {
		t.Errorf("gated JCT %g, want 5", got)
	}
	want := []string{"2s m1 shuffle", "2s m2 shuffle", "3s m3 shuffle"}
	if strings.Join(g.log, "|") != strings.Join(want, "|") {
		t.Errorf("releases %q, want %q", g.log, want)
	}
	if got := jct(t, run(t, gatedJob, firstFit{}), "A"); !near(got, 4) {
		t.Errorf("ungated JCT %g, want 4", got)
	}
}

// releaseRack releases everything held from a rack as soon as it is held.
type releaseRack struct{ firstFit }

func (releaseRack) GateFetches(v sched.View, t sched.Task) bool { return true }
func (releaseRack) FetchesReady(v sched.View, t sched.Task, p *sched.Plan) {
	for _, f := range v.Fetches(t) {
		if f.Held {
			p.ReleaseRack(t, f.Rack)
			return
		}
	}
}

// Releasing per rack as soon as bytes are held is the ungated schedule.
func TestFetchReleaseRack(t *testing.T) {
	if got := jct(t, run(t, gatedJob, releaseRack{}), "A"); !near(got, 4) {
		t.Errorf("JCT %g, want 4", got)
	}
}

// rackPlanner pins each job, before it arrives, to a rack it chose from
// the forecast: jobs alternate racks from the last one down.
type rackPlanner struct {
	rackOf    map[string]int
	forecasts []sched.Forecast
}

func (r *rackPlanner) Plan(v sched.View, w []sched.Forecast) error {
	r.forecasts = w
	r.rackOf = map[string]int{}
	for i, f := range w {
		r.rackOf[f.ID] = v.Racks() - 1 - i%v.Racks()
	}
	return nil
}

func (r *rackPlanner) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		if r.rackOf[j.ID()] != v.RackOf(m) {
			continue
		}
		for _, st := range j.Stages() {
			if t := st.NextWaiting(m); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
	}
}

func TestPlannerPinsJobsToRacks(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1GB/s}
network: {topology: two-tier, oversubscription: 2}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, count: 4, input: 100MB, compute: 1s, output: 10MB}
        - {id: reduce, after: map, count: 2, compute: 1s}
    - id: B
      arrival: 1s
      stages:
        - {id: map, count: 3, compute: 2s}
`
	pl := &rackPlanner{}
	r := run(t, doc, pl)
	want := map[string]int{"A": 1, "B": 0}
	for _, tr := range r.Tasks {
		if rack := tr.Machine / 2; rack != want[tr.Job] {
			t.Errorf("%s/%s[%d] ran on machine %d (rack %d), planned rack %d", tr.Job, tr.Stage, tr.Index, tr.Machine, rack, want[tr.Job])
		}
	}
	if len(pl.forecasts) != 2 {
		t.Fatalf("forecast of %d jobs, want 2", len(pl.forecasts))
	}
	a := pl.forecasts[0]
	if a.ID != "A" || a.Arrival != 0 || len(a.Stages) != 2 || a.Stages[0].Tasks != 4 || !near(a.Stages[0].Input, 400e6) ||
		!near(a.Stages[0].Output, 40e6) || a.Stages[1].Tasks != 2 || a.Stages[1].Parents[0] != "map" || pl.forecasts[1].Arrival != 1 {
		t.Errorf("forecast %+v", pl.forecasts)
	}
}

// uploader places every input split on machine 3 when the job's input is
// uploaded, before the job arrives.
type uploader struct {
	firstFit
	jobsSeen []int
}

func (u *uploader) PlaceInput(v sched.View, in sched.InputSplit) []int {
	u.jobsSeen = append(u.jobsSeen, v.NumJobs())
	return []int{3}
}

func TestInputPlacedAtUpload(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 4, nic: 1GB/s}
workload:
  jobs:
    - id: A
      arrival: 5s
      stages:
        - {id: map, count: 2, input: 100MB, compute: 1s}
`
	u := &uploader{}
	r := run(t, doc, u)
	if len(u.jobsSeen) != 2 || u.jobsSeen[0] != 0 || u.jobsSeen[1] != 0 {
		t.Errorf("PlaceInput saw %v active jobs, want [0 0] (before A arrives)", u.jobsSeen)
	}
	for _, tr := range r.Tasks {
		if tr.Machine == 3 && tr.Locality != "node-local" {
			t.Errorf("%s/%s[%d] on machine 3 is %s, want node-local", tr.Job, tr.Stage, tr.Index, tr.Locality)
		}
	}
}

// rackBeat decides only on rack heartbeats, one task per call, on the
// rack's first machine with a free slot.
type rackBeat struct {
	calls []float64
	racks []int
}

func (r *rackBeat) Offer(v sched.View, m int, p *sched.Plan) {
	panic("a RackHeartbeater gets no machine offers")
}

func (r *rackBeat) RackHeartbeat(v sched.View, rack int, p *sched.Plan) {
	r.calls = append(r.calls, v.Now())
	r.racks = append(r.racks, rack)
	for _, m := range v.RackMachines(rack) {
		if v.Machine(m).Free() == 0 {
			continue
		}
		for _, j := range v.Jobs() {
			for _, st := range j.Stages() {
				if t := st.NextWaiting(m); !t.IsZero() {
					p.Place(t, m)
					return
				}
			}
		}
	}
}

func TestRackHeartbeats(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
engine: {heartbeat: 1s}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, count: 3, compute: 10s}
`
	rb := &rackBeat{}
	r := run(t, doc, rb)
	if len(r.Tasks) != 3 {
		t.Fatalf("%d tasks ran, want 3", len(r.Tasks))
	}
	// One task per rack heartbeat: a rack's two heartbeats in [0, 1) are
	// at most one per rack, so the third task starts in [1, 2).
	starts := map[int]int{}
	for _, tr := range r.Tasks {
		starts[int(tr.Start)]++
	}
	if starts[0] != 2 || starts[1] != 1 {
		t.Errorf("tasks started per second %v, want 2 in [0,1) and 1 in [1,2)", starts)
	}
	for i := 1; i < len(rb.calls); i++ {
		if rb.racks[i] == rb.racks[i-1] && rb.calls[i]-rb.calls[i-1] < 1-1e-9 {
			t.Errorf("rack %d called at %g and %g, closer than the heartbeat", rb.racks[i], rb.calls[i-1], rb.calls[i])
		}
	}
}

// speedProbe records the estimates of the first task on machines 0 and 1.
type speedProbe struct {
	firstFit
	on [2]float64
}

func (s *speedProbe) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		t := j.Stage(0).Task(0)
		s.on = [2]float64{v.EstimateOn(t, 0).Compute, v.EstimateOn(t, 1).Compute}
	}
	s.firstFit.Offer(v, m, p)
}

// Machine 1 is twice as fast: its task computes 4s of reference work in 2s.
func TestHeterogeneousSpeed(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s, machines: [{index: 1, speed: 2}]}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 4s, pin: 0}, {compute: 4s, pin: 1}]}
`
	s := &speedProbe{}
	r := run(t, doc, s)
	for _, tr := range r.Tasks {
		want := map[int]float64{0: 4, 1: 2}[tr.Machine]
		if !near(tr.Finish-tr.Start, want) {
			t.Errorf("task on machine %d took %g s, want %g", tr.Machine, tr.Finish-tr.Start, want)
		}
	}
	if s.on != [2]float64{4, 2} {
		t.Errorf("EstimateOn %v, want [4 2]", s.on)
	}
}

// outputProbe records, when B arrives, where its parent A's output is.
type outputProbe struct {
	firstFit
	byRack []float64
}

func (o *outputProbe) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if e.Kind == sched.JobArrived && e.Job.ID() == "B" {
		out, ok := v.Output("A")
		if ok && out.Done {
			o.byRack = out.ByRack
		}
	}
}

// A's two tasks write 3MB on machine 0 (rack 0) and 5MB on machine 2
// (rack 1); B arrives after A ended and reads it.
func TestWorkflowOutputPerRack(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 1s, output: 3MB, pin: 0}, {compute: 1s, output: 5MB, pin: 2}]}
    - id: B
      arrival: 10s
      after: [A]
      stages:
        - {id: map, count: 1, compute: 1s}
`
	o := &outputProbe{}
	run(t, doc, o)
	if len(o.byRack) != 2 || !near(o.byRack[0], 3e6) || !near(o.byRack[1], 5e6) {
		t.Errorf("A's output by rack %v, want [3e6 5e6]", o.byRack)
	}
}

// bad makes one invalid plan entry of each kind.
type bad struct{ kind string }

func (b bad) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		t0, t1 := j.Stage(0).Task(0), j.Stage(0).Task(1)
		switch b.kind {
		case "double":
			p.Place(t0, 0)
			p.Place(t1, 0)
		case "missing":
			p.Place(t0, 7)
		case "twice":
			p.Place(t0, 0)
			p.Place(t0, 1)
		case "release":
			p.ReleaseFetch(t0, 1)
		}
		return
	}
}

func TestInvalidPlansRejected(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
scheduler: probe
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, count: 2, compute: 1s}
`
	for kind, want := range map[string]string{
		"double":  "machine 0 has no free slot left (this plan already placed 1 task(s) there)",
		"missing": "machine 7 does not exist",
		"twice":   "already placed by this plan",
		"release": "no gated fetches",
	} {
		t.Run(kind, func(t *testing.T) {
			sc, err := scenario.Parse("probe.yaml", []byte(strings.Replace(doc, "scheduler: probe\n", "", 1)), ".")
			if err != nil {
				t.Fatal(err)
			}
			sc.Scheduler.Name = "probe"
			_, err = sim.RunWith(sc, bad{kind})
			if err == nil || !strings.Contains(err.Error(), "scheduler probe") || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want one naming scheduler probe and %q", err, want)
			}
		})
	}
}

// Two maps on rack 1 (machines 2 and 3) write 60MB each; two reducers on
// rack 0 (machines 0 and 1) take half of each: 30MB per (map, reducer)
// pair, 60MB per reducer from rack 1, 120MB for the job. The elephant
// threshold is 100MB.
const aggregatedJob = `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
network:
  topology: hybrid
  oversubscription: 4
  ocs: {port_speed: 10GB/s, interval: 10ms, delay: 1ms, elephant: 100MB}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 1s, output: 60MB, pin: 2}, {compute: 1s, output: 60MB, pin: 3}]}
        - id: reduce
          after: [{stage: map, slowstart: 0}]
          tasks: [{compute: 0s, pin: 0}, {compute: 0s, pin: 1}]
`

// rackAggregator holds every reducer's fetches until the maps are done,
// then releases rack 1's bytes either per reducer or for both reducers as
// one aggregated transfer.
type rackAggregator struct {
	firstFit
	together bool
	released bool
}

func (a *rackAggregator) GateFetches(v sched.View, t sched.Task) bool { return true }

func (a *rackAggregator) FetchesReady(v sched.View, t sched.Task, p *sched.Plan) {
	if a.released {
		return
	}
	var reducers []sched.Task
	for _, r := range t.Stage().Tasks() {
		held := 0
		for _, f := range v.Fetches(r) {
			if f.Held {
				held++
			}
		}
		if held < 2 { // both maps' outputs must be held by both reducers
			return
		}
		reducers = append(reducers, r)
	}
	a.released = true
	if a.together {
		p.ReleaseRackTogether(reducers, 1)
		return
	}
	for _, r := range reducers {
		p.ReleaseRack(r, 1)
	}
}

// Released per reducer, each flow (30MB, aggregate 60MB) stays below the
// threshold and crosses the EPS; released together, the 120MB aggregate
// makes every flow eligible, and the circuit carries part of the shuffle.
func TestReleaseRackTogetherUsesCircuit(t *testing.T) {
	alone := run(t, aggregatedJob, &rackAggregator{})
	if alone.Summary.Bytes.OCS != 0 || !near(alone.Summary.Bytes.EPS, 120e6) {
		t.Errorf("released per reducer: OCS %g, EPS %g bytes; want 0 and 120MB", alone.Summary.Bytes.OCS, alone.Summary.Bytes.EPS)
	}
	together := run(t, aggregatedJob, &rackAggregator{together: true})
	if !(together.Summary.Bytes.OCS > 0) || !near(together.Summary.Bytes.OCS+together.Summary.Bytes.EPS, 120e6) {
		t.Errorf("released together: OCS %g, EPS %g bytes; want OCS > 0 and 120MB in all", together.Summary.Bytes.OCS, together.Summary.Bytes.EPS)
	}
	if !(jct(t, together, "A") < jct(t, alone, "A")) {
		t.Errorf("the circuit did not help: JCT %g together, %g alone", jct(t, together, "A"), jct(t, alone, "A"))
	}
}
