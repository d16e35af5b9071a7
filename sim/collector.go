package sim

import (
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
)

// Version is netsched's version, echoed in every summary.
const Version = "0.1.0"

// collector accumulates the measures of architecture §3 while the run goes.
type collector struct {
	sc        *scenario.Scenario
	moved     [numKinds]metrics.Scope
	jobs      []metrics.JobRecord
	tasks     []metrics.TaskRecord
	timeline  []metrics.TimelineRow
	samples   int
	congested int
	firstArr  float64
	lastFin   float64
	nTasks    int
}

func newCollector(sc *scenario.Scenario) *collector {
	c := &collector{sc: sc, firstArr: -1}
	if sc.Output.Tasks {
		c.tasks = []metrics.TaskRecord{}
	}
	if sc.Output.Timeline {
		c.timeline = []metrics.TimelineRow{}
	}
	return c
}

// bytes records a transfer when it starts (node-local ones never become flows).
func (c *collector) transfer(t *Task, s source, rackOf []int) {
	j := t.Job()
	scope := &c.moved[s.kind]
	switch {
	case s.machine == t.Machine:
		scope.NodeLocal += s.bytes
	case rackOf[s.machine] == rackOf[t.Machine]:
		scope.RackLocal += s.bytes
	default:
		scope.CrossRack += s.bytes
		j.bytesCross += s.bytes
	}
	switch s.kind {
	case kindInput:
		j.bytesIn += s.bytes
	case kindShuffle:
		j.bytesShuffle += s.bytes
	case kindDependent:
		j.bytesDep += s.bytes
	}
}

// started records the map progress at the first reduce (architecture §3,
// NAS Fig. 3d) when a job's first task of a stage with parents (a reducer)
// takes a slot: the share of its root-stage tasks (maps) finished by then.
// §3 names no stage for a job with several roots: all of them are its maps.
func (c *collector) started(t *Task) {
	j := t.Job()
	if len(t.Stage.Parents) == 0 || j.mapProgress >= 0 {
		return
	}
	done, total := 0, 0
	for _, st := range j.Stages {
		if len(st.Parents) == 0 {
			done += st.Finished
			total += len(st.Tasks)
		}
	}
	j.mapProgress = float64(done) / float64(total)
}

func (c *collector) task(t *Task, rackOf []int) {
	c.nTasks++
	if c.tasks == nil {
		return
	}
	loc := localityOf(t, t.Machine, rackOf).String()
	c.tasks = append(c.tasks, metrics.TaskRecord{Job: t.Job().ID, Stage: t.Stage.ID, Index: t.Index, Machine: t.Machine,
		Ready: t.ReadyAt, Start: t.StartAt, InputDone: t.InputDoneAt, Finish: t.FinishAt, InputBytes: t.inputBytes, Output: t.outputBytes, Locality: loc})
}

func (c *collector) job(j *Job) {
	if c.firstArr < 0 || j.Arrival < c.firstArr {
		c.firstArr = j.Arrival
	}
	c.lastFin = max(c.lastFin, j.Finish)
	c.jobs = append(c.jobs, metrics.JobRecord{ID: j.ID, User: j.User, Queue: j.Queue, Arrival: j.Arrival, Start: j.Start,
		Finish: j.Finish, JCT: j.Finish - j.Arrival, Tasks: j.TasksTotal, InputBytes: j.bytesIn, ShuffleBytes: j.bytesShuffle,
		DepBytes: j.bytesDep, CrossRack: j.bytesCross, OutputBytes: j.bytesOut, LocalMaps: j.localMaps, FileTasks: j.dfsMaps, Class: j.Class,
		MapProgress: j.mapProgress})
}

func (c *collector) sample(s network.Sample) {
	c.samples++
	if s.Saturated {
		c.congested++
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
	s := metrics.Summary{Version: Version, Scenario: c.sc.File, Seed: c.sc.Seed, Scheduler: c.sc.Scheduler.Name,
		SchedulerParams: c.sc.Scheduler.Params, Jobs: len(c.jobs), Tasks: c.nTasks, JCT: metrics.Summarize(jcts),
		Decisions: e.stats.decisions, Offers: e.stats.offers, Events: e.stats.events,
		MonitorSamples: c.samples, Congested: c.congested}
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
	s.Bytes = metrics.Bytes{Input: c.moved[kindInput], Shuffle: c.moved[kindShuffle], Dependent: c.moved[kindDependent]}
	s.Bytes.Total = s.Bytes.Input.Add(s.Bytes.Shuffle).Add(s.Bytes.Dependent)
	ns := e.net.Stats()
	s.Bytes.EPS, s.Bytes.OCS, s.OCSReconfigs = ns.EPSBytes, ns.OCSBytes, ns.Reconfigurations
	return &metrics.Result{Summary: s, Jobs: c.jobs, Tasks: c.tasks, Timeline: c.timeline}
}
