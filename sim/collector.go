package sim

import (
	"math"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
)

// Version is netsched's version, echoed in every summary.
const Version = "0.1.0"

// collector accumulates the measures of architecture §3 while the run goes.
type collector struct {
	sc        *scenario.Scenario
	moved     [state.NumKinds]metrics.Scope
	jobs      []metrics.JobRecord
	tasks     []metrics.TaskRecord
	flows     []metrics.FlowRecord // nil unless output.flows
	timeline  []metrics.TimelineRow
	samples   int
	congested int
	firstArr  float64
	lastFin   float64
	nTasks    int

	stages    []metrics.StageRecord
	waits     []float64           // input-phase time of tasks of stages with parents
	parentsOf map[string][]string // job id -> parent job ids (workflows)
	saturated bool                // the latest monitor sample's verdict
	periods   metrics.TaskPeriods
}

func newCollector(sc *scenario.Scenario) *collector {
	c := &collector{sc: sc, firstArr: -1, parentsOf: map[string][]string{}}
	if sc.Output.Tasks {
		c.tasks = []metrics.TaskRecord{}
	}
	if sc.Output.Flows {
		c.flows = []metrics.FlowRecord{}
	}
	if sc.Output.Timeline {
		c.timeline = []metrics.TimelineRow{}
	}
	return c
}

// bytes records a transfer when it starts (node-local ones never become flows).
func (c *collector) transfer(t *state.Task, s state.Source, rackOf []int) {
	j := t.Job()
	scope := &c.moved[s.Kind]
	switch {
	case s.Machine == t.Machine:
		scope.NodeLocal += s.Bytes
	case rackOf[s.Machine] == rackOf[t.Machine]:
		scope.RackLocal += s.Bytes
	default:
		scope.CrossRack += s.Bytes
		j.BytesCross += s.Bytes
		t.CrossRackBytes += s.Bytes
	}
	switch s.Kind {
	case state.KindInput:
		j.BytesIn += s.Bytes
	case state.KindShuffle:
		j.BytesShuffle += s.Bytes
	case state.KindDependent:
		j.BytesDep += s.Bytes
	}
}

// started records the map progress at the first reduce (architecture §3,
// NAS Fig. 3d) when a job's first task of a stage with parents (a reducer)
// takes a slot: the share of its root-stage tasks (maps) finished by then.
// §3 names no stage for a job with several roots: all of them are its maps.
func (c *collector) started(t *state.Task) {
	t.SaturatedAtStart = c.saturated
	j := t.Job()
	if len(t.Stage.Parents) == 0 || j.MapProgress >= 0 {
		return
	}
	done, total := 0, 0
	for _, st := range j.Stages {
		if len(st.Parents) == 0 {
			done += st.Finished
			total += len(st.Tasks)
		}
	}
	j.MapProgress = float64(done) / float64(total)
}

func (c *collector) task(t *state.Task, rackOf []int) {
	c.nTasks++
	cross := t.CrossRackBytes > 0
	switch {
	case t.SaturatedAtStart && cross:
		c.periods.SaturatedCrossRack++
	case t.SaturatedAtStart:
		c.periods.Saturated++
	case cross:
		c.periods.UnsaturatedCrossRack++
	default:
		c.periods.Unsaturated++
	}
	if len(t.Stage.Parents) > 0 {
		c.waits = append(c.waits, t.InputDoneAt-t.StartAt)
	}
	if st := t.Stage; st.Finished == len(st.Tasks) {
		c.stage(st)
	}
	if c.tasks == nil {
		return
	}
	loc := state.LocalityOf(t, t.Machine, rackOf).String()
	c.tasks = append(c.tasks, metrics.TaskRecord{Job: t.Job().ID, Stage: t.Stage.ID, Index: t.Index, Machine: t.Machine,
		Ready: t.ReadyAt, Start: t.StartAt, InputDone: t.InputDoneAt, Finish: t.FinishAt, InputBytes: t.InputBytes, Output: t.OutputBytes, Locality: loc,
		CrossRack: t.CrossRackBytes, Saturated: t.SaturatedAtStart})
}

// flow records a network flow that just ended (output.flows).
func (c *collector) flow(r *state.FlowRec, now float64) {
	if c.flows == nil {
		return
	}
	t := r.Task
	c.flows = append(c.flows, metrics.FlowRecord{Job: t.Job().ID, Stage: t.Stage.ID, Index: t.Index, Src: r.Src, Dst: t.Machine,
		Bytes: r.Bytes, Kind: r.Kind.String(), Class: r.Class, Start: r.Start, Finish: now})
}

// stage records a stage whose last task just finished.
func (c *collector) stage(st *state.Stage) {
	r := metrics.StageRecord{Job: st.Job.ID, Stage: st.ID, Tasks: len(st.Tasks), Parents: len(st.Parents),
		Ready: math.Inf(1), Start: math.Inf(1)}
	for _, t := range st.Tasks {
		r.Ready = min(r.Ready, t.ReadyAt)
		r.Start = min(r.Start, t.StartAt)
		r.Finish = max(r.Finish, t.FinishAt)
		r.InputWait += t.InputDoneAt - t.StartAt
	}
	r.CCT = r.Finish - r.Start
	r.InputWait /= float64(len(st.Tasks))
	c.stages = append(c.stages, r)
}

func (c *collector) job(j *state.Job) {
	if c.firstArr < 0 || j.Arrival < c.firstArr {
		c.firstArr = j.Arrival
	}
	c.lastFin = max(c.lastFin, j.Finish)
	if len(j.Parents) > 0 {
		ids := make([]string, len(j.Parents))
		for i, p := range j.Parents {
			ids[i] = p.ID
		}
		c.parentsOf[j.ID] = ids
	}
	c.jobs = append(c.jobs, metrics.JobRecord{ID: j.ID, User: j.User, Queue: j.Queue, Arrival: j.Arrival, Start: j.Start,
		Finish: j.Finish, JCT: j.Finish - j.Arrival, Tasks: j.TasksTotal, InputBytes: j.BytesIn, ShuffleBytes: j.BytesShuffle,
		DepBytes: j.BytesDep, CrossRack: j.BytesCross, OutputBytes: j.BytesOut, LocalMaps: j.LocalMaps, FileTasks: j.DFSMaps, Class: j.Class,
		MapProgress: j.MapProgress})
}

func (c *collector) sample(s network.Sample) {
	c.samples += s.Count
	c.saturated = s.Saturated
	if s.Saturated {
		c.congested += s.Count
	}
	if c.timeline == nil {
		return
	}
	row := metrics.TimelineRow{Time: s.Time, CrossRackUtilization: s.CrossRackUtilization, Saturated: s.Saturated}
	for _, u := range s.LinkUtilization {
		row.MaxLinkUtilization = max(row.MaxLinkUtilization, u)
	}
	if n := len(s.ReceiveRate); n > 0 {
		for _, r := range s.ReceiveRate {
			row.MeanReceiveRate += r
		}
		row.MeanReceiveRate /= float64(n)
	}
	if s.Count > 1 {
		// A stretch of identical samples: its first and last rows.
		first := row
		first.Time = s.Since
		c.timeline = append(c.timeline, first)
	}
	c.timeline = append(c.timeline, row)
}

func (c *collector) result(e *Engine) *metrics.Result {
	var jcts []float64
	bins := map[string][]float64{}
	local, files := 0, 0
	progress, reducing := 0.0, 0
	for _, j := range c.jobs {
		jcts = append(jcts, j.JCT)
		b := metrics.SizeBin(j.InputBytes + j.ShuffleBytes + j.DepBytes)
		bins[b] = append(bins[b], j.JCT)
		local += j.LocalMaps
		files += j.FileTasks
		if j.MapProgress >= 0 {
			progress += j.MapProgress
			reducing++
		}
	}
	s := metrics.Summary{Version: Version, Scenario: c.sc.File.Echo(), Seed: c.sc.Seed, Scheduler: c.sc.Scheduler.Name,
		SchedulerParams: c.sc.Scheduler.Params, Jobs: len(c.jobs), Tasks: c.nTasks, JCT: metrics.Summarize(jcts),
		Decisions: e.stats.decisions, Offers: e.stats.offers, Events: e.stats.events,
		MonitorSamples: c.samples, Congested: c.congested}
	if e.stoppedAt > 0 || e.interrupt {
		s.StoppedAt, s.Unfinished, s.Interrupted = e.stoppedAt, e.unfinished, e.interrupt
	}
	for _, b := range metrics.SizeBins {
		if xs := bins[b.Name]; len(xs) > 0 {
			s.JCTByBin = append(s.JCTByBin, metrics.BinStats{Bin: b.Name, Stats: metrics.Summarize(xs)})
		}
	}
	if len(c.jobs) > 0 {
		s.Makespan = c.lastFin - c.firstArr
		if s.Makespan > 0 {
			s.Throughput = float64(len(c.jobs)) / s.Makespan
		}
	}
	if files > 0 {
		s.NodeLocality = float64(local) / float64(files)
	}
	if reducing > 0 {
		s.MapProgress = progress / float64(reducing)
	}
	s.Bytes = metrics.Bytes{Input: c.moved[state.KindInput], Shuffle: c.moved[state.KindShuffle], Dependent: c.moved[state.KindDependent]}
	s.Bytes.Total = s.Bytes.Input.Add(s.Bytes.Shuffle).Add(s.Bytes.Dependent)
	ns := e.net.Stats()
	s.Bytes.EPS, s.Bytes.OCS, s.OCSReconfigs = ns.EPSBytes, ns.OCSBytes, ns.Reconfigurations
	ccts := make([]float64, len(c.stages))
	for i, st := range c.stages {
		ccts[i] = st.CCT
	}
	s.CCT, s.ReducerWait = metrics.Summarize(ccts), metrics.Summarize(c.waits)
	s.CCTByStage = cctByStage(c.stages)
	if c.samples > 0 {
		p := c.periods
		s.TaskPeriods = &p
	}
	wfs := c.workflows()
	if wfs != nil {
		wcts := make([]float64, len(wfs))
		for i, w := range wfs {
			wcts[i] = w.WCT
		}
		s.Workflows = &metrics.WorkflowSummary{Count: len(wfs), WCT: metrics.Summarize(wcts)}
	}
	if w := float64(c.sc.Output.Window); w > 0 && len(c.jobs) > 0 {
		s.Window = &metrics.Window{Seconds: w}
		for _, j := range c.jobs {
			if j.Finish <= c.firstArr+w {
				s.Window.Jobs++
			}
		}
		for _, wf := range wfs {
			if wf.Finish <= c.firstArr+w {
				s.Window.Workflows++
			}
		}
	}
	return &metrics.Result{Summary: s, Jobs: c.jobs, Tasks: c.tasks, Stages: c.stages, Workflows: wfs, Timeline: c.timeline, Flows: c.flows}
}

// workflows groups the finished jobs into workflows: the connected
// components of the job dependencies, each named by its first job (by
// arrival, then finish order). Nil when no job depends on another.
func (c *collector) workflows() []metrics.WorkflowRecord {
	if len(c.parentsOf) == 0 {
		return nil
	}
	index := make(map[string]int, len(c.jobs))
	for i, j := range c.jobs {
		index[j.ID] = i
	}
	root := make([]int, len(c.jobs)) // union-find over job indices
	for i := range root {
		root[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	for i, j := range c.jobs {
		for _, p := range c.parentsOf[j.ID] {
			if k, ok := index[p]; ok {
				a, b := find(i), find(k)
				if a > b {
					a, b = b, a
				}
				root[b] = a
			}
		}
	}
	byRoot := map[int]int{}
	var out []metrics.WorkflowRecord
	for i, j := range c.jobs {
		r := find(i)
		k, ok := byRoot[r]
		if !ok {
			k = len(out)
			byRoot[r] = k
			out = append(out, metrics.WorkflowRecord{ID: j.ID, Submit: j.Arrival, Finish: j.Finish})
		}
		w := &out[k]
		if j.Arrival < w.Submit {
			w.ID, w.Submit = j.ID, j.Arrival
		}
		w.Finish = max(w.Finish, j.Finish)
		w.Jobs++
		w.InputBytes += j.InputBytes
		w.ShuffleBytes += j.ShuffleBytes
		w.DepBytes += j.DepBytes
		w.CrossRack += j.CrossRack
	}
	for i := range out {
		out[i].WCT = out[i].Finish - out[i].Submit
	}
	return out
}

// cctByStage summarises CCT per stage id, ids in order of first finish
// (a CSS figure plots the map and the reduce phase apart).
func cctByStage(stages []metrics.StageRecord) []metrics.StageStats {
	var ids []string
	by := map[string][]float64{}
	for _, st := range stages {
		if _, seen := by[st.Stage]; !seen {
			ids = append(ids, st.Stage)
		}
		by[st.Stage] = append(by[st.Stage], st.CCT)
	}
	out := make([]metrics.StageStats, len(ids))
	for i, id := range ids {
		out[i] = metrics.StageStats{Stage: id, Stats: metrics.Summarize(by[id])}
	}
	return out
}
