package jobmodel

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/coflowbench"
	"github.com/netsched/netsched/workload"
)

// Defaults of the coflow to job conversion. PushBox §7.1 generates mappers
// "according to shuffle size and input/output data ratios" from the
// Facebook measurements of its refs [44], [45] without stating the ratios;
// we use the byte-weighted ratios of the FB-2010 SWIM day (1,082.6 TB in,
// 437.9 TB shuffle, 339.4 TB out), the same cluster and year.
const (
	DefaultInputRatio  = 2.47  // input bytes per shuffle byte
	DefaultOutputRatio = 0.775 // output bytes per shuffle byte
)

// CoflowConfig turns each coflow of a coflow-benchmark trace into a
// MapReduce job (PushBox §7.1).
type CoflowConfig struct {
	Params
	Selection
	Labels      Labels
	Seed        uint64
	InputRatio  float64 // job input = InputRatio x shuffle bytes
	OutputRatio float64 // each reducer writes OutputRatio x the bytes it fetches
	Mappers     string  // "generated": ceil(input/block) maps; "trace": one per listed mapper
	Pin         string  // "none", "reducers" or "all": pin tasks to their trace ports
	Ports       string  // "machines": port p -> machine p mod N; "racks": see PortMachine
	// SmallQueue, when set, puts every coflow of fewer than SmallBelow
	// shuffle bytes in that queue (PushBox Fig. 9c: small jobs in a FIFO
	// queue next to a Fair one); the queue label wins over `queues`.
	SmallQueue string
	SmallBelow float64

	racks [][]int // machine indices of each rack, for port mapping
}

// ParseCoflow reads the conversion options; sc gives the cluster for port
// mapping (required when pin is not "none"), the block size, slow-start
// and seed.
func ParseCoflow(options map[string]any, sc *scenario.Scenario) (CoflowConfig, error) {
	o := NewOptions(options)
	c := CoflowConfig{
		Params:      ParseCompute(o, sc),
		Selection:   ParseSelection(o),
		Labels:      ParseLabels(o, 0),
		InputRatio:  o.Number("input_ratio", DefaultInputRatio),
		OutputRatio: o.Number("output_ratio", DefaultOutputRatio),
		Mappers:     o.Choice("mappers", "generated", "generated", "trace"),
		Pin:         o.Choice("pin", "none", "none", "reducers", "all"),
		Ports:       o.Choice("ports", "machines", "machines", "racks"),
		SmallQueue:  o.String("small_queue", ""),
		SmallBelow:  o.Bytes("small_below", 100e6),
	}
	var seed uint64
	if sc != nil {
		seed = sc.Seed
		c.racks = rackMachines(sc)
	}
	c.Seed = o.Seed("seed", seed)
	if c.Pin != "none" && len(c.racks) == 0 {
		o.Fail("pin", "pinning tasks to trace ports needs a cluster with machines")
	}
	return c, o.Err()
}

func rackMachines(sc *scenario.Scenario) [][]int {
	var racks [][]int
	for i, m := range sc.Machines {
		for m.Rack >= len(racks) {
			racks = append(racks, nil)
		}
		racks[m.Rack] = append(racks[m.Rack], i)
	}
	// Drop racks without machines so the modulo below never hits an empty one.
	out := racks[:0]
	for _, r := range racks {
		if len(r) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// PortMachine maps a trace port onto a machine index. "machines": port p
// runs on machine p mod N (N machines). "racks": port p goes to rack
// p mod R and, within it, to machine (p div R) mod (machines in that rack),
// so consecutive ports spread over racks first, as CoflowSim's per-rack
// model treats ports.
func (c *CoflowConfig) PortMachine(p int) int {
	if c.Ports == "racks" {
		r := c.racks[p%len(c.racks)]
		return r[(p/len(c.racks))%len(r)]
	}
	n := 0
	for _, r := range c.racks {
		n += len(r)
	}
	// Machines are numbered rack by rack, so index p mod N is a machine.
	return p % n
}

// Job converts one coflow: its reducers (ports and bytes) come from the
// trace; the job's input is InputRatio x its shuffle bytes, read by maps
// whose outputs together are the shuffle; each reducer's partition share is
// its bytes so it fetches exactly what the trace says.
func (c *CoflowConfig) Job(cf *coflowbench.Coflow, arrival float64) (workload.Job, error) {
	scale := c.SizeScale
	if scale == 0 {
		scale = 1
	}
	shuffle := cf.TotalBytes() * scale
	input := shuffle * c.InputRatio
	if err := Check(input, shuffle, 0); err != nil {
		return workload.Job{}, fmt.Errorf("coflow %s: %v", cf.ID, err)
	}
	if len(cf.Mappers) == 0 || len(cf.Reducers) == 0 {
		return workload.Job{}, fmt.Errorf("coflow %s has no mappers or no reducers", cf.ID)
	}
	maps := c.MapCount(input)
	if c.Mappers == "trace" {
		maps = len(cf.Mappers)
	}
	mapStage := workload.Stage{ID: "map"}
	mapTask := workload.Task{
		Input:   input / float64(maps),
		Compute: c.MapOverhead,
		PerByte: 1 / c.MapRate,
		Output:  shuffle / float64(maps),
		Pin:     workload.NoPin,
	}
	if c.Pin == "all" && maps > maxListed {
		return workload.Job{}, fmt.Errorf("coflow %s: %d pinned maps are too many to list (limit %d); use pin: reducers or mappers: trace", cf.ID, maps, maxListed)
	}
	if c.Pin == "all" {
		mapStage.Tasks = make([]workload.Task, maps)
		for i := range mapStage.Tasks {
			mapStage.Tasks[i] = mapTask
			mapStage.Tasks[i].Pin = c.PortMachine(cf.Mappers[i%len(cf.Mappers)])
		}
	} else {
		mapStage.Generate = &workload.TaskGen{
			Count:   maps,
			Input:   workload.ConstDist(mapTask.Input),
			Compute: workload.ConstDist(mapTask.Compute),
			PerByte: mapTask.PerByte,
			Output:  workload.ConstDist(mapTask.Output),
		}
	}
	red := workload.Stage{
		ID:    "reduce",
		After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: c.SlowStart, Pattern: workload.ScatterGather}},
		Tasks: make([]workload.Task, len(cf.Reducers)),
	}
	for i, r := range cf.Reducers {
		share := r.Bytes
		if share == 0 {
			// The smallest positive share keeps an empty reducer
			// (almost) empty and a stage of empty reducers valid; it is
			// what the recorded results were made with.
			share = math.SmallestNonzeroFloat64
		}
		t := workload.Task{
			Share:   share,
			Compute: c.ReduceOverhead,
			PerByte: 1 / c.ReduceRate,
			Output:  r.Bytes * scale * c.OutputRatio,
			Pin:     workload.NoPin,
		}
		if c.Pin != "none" {
			t.Pin = c.PortMachine(r.Port)
		}
		red.Tasks[i] = t
	}
	return workload.Job{ID: cf.ID, Arrival: arrival, Stages: []workload.Stage{mapStage, red}}, nil
}

// maxListed bounds the maps listed one by one for pinning, so a huge
// coflow is an error rather than an out-of-memory crash.
const maxListed = 1 << 20

// CoflowSource replays a parsed trace as jobs.
type CoflowSource struct {
	cfg     CoflowConfig
	tr      *coflowbench.Trace
	name    string
	i       int
	emitted int
}

// coflowLabelStream separates the labelling stream of this importer.
const coflowLabelStream = 0xc0f10b

// NewCoflowSource starts a pass over tr; name is used in errors.
func NewCoflowSource(name string, tr *coflowbench.Trace, cfg CoflowConfig) *CoflowSource {
	cfg.Labels.Start(cfg.Seed, coflowLabelStream)
	return &CoflowSource{cfg: cfg, tr: tr, name: name}
}

// Next returns the next selected coflow as a job.
func (s *CoflowSource) Next() (*workload.Job, bool, error) {
	for s.i < len(s.tr.Coflows) && !s.cfg.Full(s.emitted) {
		cf := &s.tr.Coflows[s.i]
		s.i++
		keep, stop := s.cfg.Keep(cf.Arrival)
		if stop {
			s.i = len(s.tr.Coflows)
			break
		}
		if !keep {
			continue
		}
		j, err := s.cfg.Job(cf, s.cfg.Arrival(cf.Arrival))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", s.name, err)
		}
		s.cfg.Labels.Apply(&j)
		if s.cfg.SmallQueue != "" && cf.TotalBytes() < s.cfg.SmallBelow {
			j.Queue = s.cfg.SmallQueue
		}
		s.emitted++
		return &j, true, nil
	}
	return nil, false, nil
}

// OpenCoflow is the scenario.Opener of the "coflow-benchmark" format: it
// parses the whole trace once (a coflow trace is small) and replays it.
func OpenCoflow(path string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	cfg, err := ParseCoflow(options, sc)
	if err != nil {
		return nil, fmt.Errorf("coflow-benchmark options: %w", err)
	}
	tr, err := coflowbench.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return NewCoflowSource(path, tr, cfg), nil
}
