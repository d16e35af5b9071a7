package scenario

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// Defaults applied when a scenario leaves a value out.
const (
	DefaultSeed            = 1 // absent; 0 is an error, not another spelling of 1
	DefaultReplicas        = 3
	DefaultParallelFetches = 5
	DefaultSlowStart       = 0.05
	DefaultHeartbeat       = 1.0 // seconds
	DefaultScheduler       = "fifo"
	// DefaultMaxLiveTasks bounds the tasks of the jobs held at once (about
	// 2 GB of engine state), so that no workload exhausts the machine.
	DefaultMaxLiveTasks = 5_000_000
	// A machine's compute speed (relative to 1) lies in [1/1000, 1000]:
	// a compute time divided by it stays a finite duration.
	minSpeed, maxSpeed = 1.0 / 1000, 1000.0
	// Cluster limits: each dimension, and machines in all; beyond them the
	// engine's per-machine state would not fit in memory.
	maxClusterDim = 100_000
	maxMachines   = 1_000_000
	// Link speeds between 1 bit/s and 1 Pbit/s (bytes/s).
	minRate, maxRate = 1.0 / 8, 1e15 / 8
)

// checkRate rejects link speeds outside [1 bit/s, 1 Pbit/s].
func checkRate(r float64) error {
	if !(r >= minRate && r <= maxRate) {
		return fmt.Errorf("%s is outside the supported range 1bps to 1Pbps", units.FormatRate(r))
	}
	return nil
}

// checkSpeed rejects compute speeds outside [minSpeed, maxSpeed].
func checkSpeed(v float64) error {
	if !(v >= minSpeed && v <= maxSpeed) {
		return fmt.Errorf("expected a compute speed between %g and %g (1 is the reference machine), got %g", minSpeed, maxSpeed, v)
	}
	return nil
}

// Knowledge models accepted by `knowledge.model`.
var knowledgeModels = []string{"exact", "multiplicative", "relative", "gaussian"}

// resolve checks everything decoding cannot and applies the defaults.
// checkFiles=false skips checking that a trace file exists.
func resolve(f *File, src *source, dirs traceDirs, checkFiles bool) (*Scenario, error) {
	sc := &Scenario{File: *f, Seed: DefaultSeed}
	if src.has("seed") {
		if f.Seed == 0 {
			return nil, src.at("seed", "expected a seed >= 1 (leave the key out for seed %d)", DefaultSeed)
		}
		sc.Seed = f.Seed
	}
	for _, step := range []func(*Scenario, *File, *source) error{
		resolveCluster, resolveNetwork, resolveDFS, resolveEngine, resolveKnowledge, resolveOutput,
	} {
		if err := step(sc, f, src); err != nil {
			return nil, err
		}
	}
	sc.Scheduler = f.Scheduler
	switch {
	case !src.has("scheduler"):
		sc.Scheduler.Name = DefaultScheduler
	case sc.Scheduler.Name == "":
		return nil, src.at("scheduler", "expected a scheduler name, got nothing (leave the key out for %s)", DefaultScheduler)
	}
	if err := checkScheduler(sc.Scheduler, src); err != nil {
		return nil, err
	}
	if err := resolveWorkload(sc, f, src, dirs, checkFiles); err != nil {
		return nil, err
	}
	return sc, nil
}

// has reports whether the document spells out path (so that an explicit 0
// can be told from an omitted key).
func (s *source) has(path string) bool { return s.lookup(path) != nil }

func resolveCluster(sc *Scenario, f *File, src *source) error {
	c := f.Cluster
	if !src.has("cluster") {
		return src.at("cluster", "missing; expected cluster: {racks: N, machines_per_rack: N, slots_per_machine: N, nic: 10Gbps}")
	}
	for _, p := range []struct {
		key string
		v   int
	}{{"racks", c.Racks}, {"machines_per_rack", c.MachinesPerRack}, {"slots_per_machine", c.SlotsPerMachine}} {
		path := "cluster." + p.key
		if !src.has(path) {
			return src.at(path, "missing; expected an integer >= 1")
		}
		if p.v < 1 || p.v > maxClusterDim {
			return src.at(path, "expected an integer between 1 and %d, got %d", maxClusterDim, p.v)
		}
	}
	if n := c.Racks * c.MachinesPerRack; n > maxMachines {
		return src.at("cluster", "%d racks x %d machines is %d machines, beyond the limit %d", c.Racks, c.MachinesPerRack, n, maxMachines)
	}
	if c.NIC <= 0 {
		return src.at("cluster.nic", "missing; expected the machines' NIC speed, like 10Gbps or 125MB/s")
	}
	if err := checkRate(float64(c.NIC)); err != nil {
		return src.at("cluster.nic", "%v", err)
	}
	speed := 1.0
	if src.has("cluster.speed") {
		if err := checkSpeed(c.Speed); err != nil {
			return src.at("cluster.speed", "%v", err)
		}
		speed = c.Speed
	}
	n := c.Racks * c.MachinesPerRack
	sc.Racks = c.Racks
	sc.Machines = make([]Machine, n)
	for i := range sc.Machines {
		sc.Machines[i] = Machine{Rack: i / c.MachinesPerRack, Slots: c.SlotsPerMachine, NIC: float64(c.NIC), Speed: speed}
	}
	seen := map[int]int{}
	for k, o := range c.Machines {
		path := fmt.Sprintf("cluster.machines[%d]", k)
		if !src.has(path + ".index") {
			return src.at(path, "missing index; expected the number of the machine to change (0..%d)", n-1)
		}
		if o.Index < 0 || o.Index >= n {
			return src.at(path+".index", "machine %d does not exist; the cluster has machines 0..%d", o.Index, n-1)
		}
		if first, dup := seen[o.Index]; dup {
			return src.at(path+".index", "machine %d is already changed by cluster.machines[%d]", o.Index, first)
		}
		seen[o.Index] = k
		m := &sc.Machines[o.Index]
		if o.Slots != nil {
			if *o.Slots < 0 || *o.Slots > maxClusterDim {
				return src.at(path+".slots", "expected an integer between 0 and %d, got %d", maxClusterDim, *o.Slots)
			}
			m.Slots = *o.Slots
		}
		if o.NIC > 0 {
			if err := checkRate(float64(o.NIC)); err != nil {
				return src.at(path+".nic", "%v", err)
			}
			m.NIC = float64(o.NIC)
		}
		if src.has(path + ".speed") {
			if err := checkSpeed(o.Speed); err != nil {
				return src.at(path+".speed", "%v", err)
			}
			m.Speed = o.Speed
		}
	}
	total := 0
	for _, m := range sc.Machines {
		total += m.Slots
	}
	if total == 0 {
		return src.at("cluster.machines", "no machine has a slot left; at least one slot is needed to run tasks")
	}
	return nil
}

var topologies = []network.Kind{network.NonBlocking, network.TwoTier, network.Hybrid}

func resolveNetwork(sc *Scenario, f *File, src *source) error {
	ns := f.Network
	kind := network.Kind(ns.Topology)
	if kind == "" {
		kind = network.NonBlocking
	}
	known := false
	for _, k := range topologies {
		known = known || k == kind
	}
	if !known {
		return src.at("network.topology", "unknown topology %q (expected nonblocking, two-tier or hybrid)", ns.Topology)
	}
	if kind == network.NonBlocking {
		for _, key := range []string{"oversubscription", "rack_uplink", "rack_downlink"} {
			if src.has("network." + key) {
				return src.at("network."+key, "applies only to the two-tier and hybrid topologies (this network is nonblocking)")
			}
		}
	}
	if ns.OCS != nil && kind != network.Hybrid {
		return src.at("network.ocs", "applies only to the hybrid topology (this network is %s)", kind)
	}
	if src.has("network.oversubscription") && ns.Oversubscription < 1 {
		return src.at("network.oversubscription", "expected a ratio >= 1 (1 = no oversubscription), got %g", ns.Oversubscription)
	}
	if g := float64(ns.Granularity); src.has("network.granularity") && !(g > 0 && g <= 3600) {
		return src.at("network.granularity", "expected a duration between 0 and 1h, like 100ms (absent: the exact model), got %s", units.FormatDuration(g))
	}
	switch ns.Transfers {
	case "", "per-machine":
	case "per-rack":
		if kind == network.NonBlocking {
			return src.at("network.transfers", "per-rack applies only to the two-tier and hybrid topologies (this network is nonblocking)")
		}
		sc.TransfersPerRack = true
	default:
		return src.at("network.transfers", "expected per-machine (the exact model) or per-rack, got %q", ns.Transfers)
	}
	cfg := network.Config{
		Kind:        kind,
		Machines:    make([]network.Machine, len(sc.Machines)),
		Racks:       sc.Racks,
		RackUp:      float64(ns.RackUplink),
		RackDown:    float64(ns.RackDownlink),
		Granularity: float64(ns.Granularity),
	}
	for i, m := range sc.Machines {
		cfg.Machines[i] = network.Machine{Rack: m.Rack, NICUp: m.NIC, NICDown: m.NIC}
	}
	if kind != network.NonBlocking {
		cfg.Oversubscription = network.DefaultOversubscription
		if src.has("network.oversubscription") {
			cfg.Oversubscription = ns.Oversubscription
		}
	}
	var err error
	if cfg.Monitor, err = resolveMonitor(ns.Monitor, src); err != nil {
		return err
	}
	if kind == network.Hybrid {
		if cfg.OCS, err = resolveOCS(ns.OCS, src); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		path string
		v    float64
	}{{"network.rack_uplink", cfg.RackUp}, {"network.rack_downlink", cfg.RackDown}, {"network.ocs.port_speed", cfg.OCS.PortSpeed}} {
		if src.has(r.path) {
			if err := checkRate(r.v); err != nil {
				return src.at(r.path, "%v", err)
			}
		}
	}
	if g := ns.Goodput; src.has("network.goodput") {
		if !(g > 0 && g <= 1) {
			return src.at("network.goodput", "expected the share of a link's rate TCP delivers as payload, in (0, 1], got %g", g)
		}
		for i := range cfg.Machines {
			cfg.Machines[i].NICUp *= g
			cfg.Machines[i].NICDown *= g
		}
		cfg.RackUp, cfg.RackDown, cfg.OCS.PortSpeed = cfg.RackUp*g, cfg.RackDown*g, cfg.OCS.PortSpeed*g
		if err := checkScaledRates(cfg); err != nil {
			return src.at("network.goodput", "%g makes a link too slow: %v", g, err)
		}
	}
	if o := ns.Oversubscription; src.has("network.oversubscription") && !(o <= 1e6) {
		return src.at("network.oversubscription", "expected a ratio between 1 and 1e6, got %g", o)
	}
	sc.Network = cfg
	return nil
}

// checkScaledRates checks the link speeds goodput scaled (0: a rack link
// derived later from the NICs, or no switch).
func checkScaledRates(cfg network.Config) error {
	rates := []float64{cfg.RackUp, cfg.RackDown, cfg.OCS.PortSpeed}
	for _, m := range cfg.Machines {
		rates = append(rates, m.NICUp)
	}
	for _, r := range rates {
		if r != 0 {
			if err := checkRate(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveMonitor gives each monitor key left out its default; a zero
// written is kept where it means something (window 0: no smoothing,
// threshold 0: always saturated).
func resolveMonitor(m MonitorSpec, src *source) (network.MonitorConfig, error) {
	cfg := network.DefaultMonitor()
	if src.has("network.monitor.interval") {
		if float64(m.Interval) < network.MinInterval {
			return cfg, src.at("network.monitor.interval", "expected a duration of at least 1ms (each sample is a simulation step), like 1s")
		}
		cfg.Interval = float64(m.Interval)
	}
	if src.has("network.monitor.window") {
		cfg.Window = float64(m.Window) // >= 0 as every duration; 0: no smoothing
	}
	if src.has("network.monitor.threshold") {
		if !(m.Threshold >= 0 && m.Threshold <= 1) {
			return cfg, src.at("network.monitor.threshold", "expected a utilisation between 0 and 1, got %g", m.Threshold)
		}
		cfg.Threshold = m.Threshold
	}
	return cfg, nil
}

// resolveOCS gives each key of a hybrid network's switch left out (or the
// whole ocs mapping) its default; delay 0 (instant circuits) and elephant
// 0B (every flow uses circuits) are kept as written.
func resolveOCS(o *OCSSpec, src *source) (network.OCSConfig, error) {
	cfg := network.DefaultOCS()
	if o == nil {
		return cfg, nil
	}
	if src.has("network.ocs.port_speed") {
		cfg.PortSpeed = float64(o.PortSpeed) // checked with the other rates
	}
	if src.has("network.ocs.interval") {
		if float64(o.Interval) < network.MinInterval {
			return cfg, src.at("network.ocs.interval", "expected a duration of at least 1ms (each reconfiguration is a simulation step), like 1s")
		}
		cfg.Interval = float64(o.Interval)
	}
	if src.has("network.ocs.delay") {
		cfg.Delay = float64(o.Delay)
	}
	if src.has("network.ocs.elephant") {
		cfg.ElephantThreshold = float64(o.Elephant)
	}
	return cfg, nil
}

func resolveDFS(sc *Scenario, f *File, src *source) error {
	d := f.DFS
	sc.BlockSize = float64(d.Block)
	if src.has("dfs.block") && (d.Block == 0 || float64(d.Block) > workload.MaxBytes) {
		return src.at("dfs.block", "expected a block size > 0 and <= %g bytes, like 128MB", float64(workload.MaxBytes))
	}
	if sc.BlockSize == 0 {
		sc.BlockSize = DefaultBlockSize
	}
	n := len(sc.Machines)
	switch {
	case src.has("dfs.replicas") && d.Replicas < 1:
		return src.at("dfs.replicas", "expected an integer >= 1, got %d", d.Replicas)
	case d.Replicas > n:
		return src.at("dfs.replicas", "%d replicas need at least %d machines; the cluster has %d", d.Replicas, d.Replicas, n)
	case d.Replicas == 0:
		sc.Replicas = min(DefaultReplicas, n)
	default:
		sc.Replicas = d.Replicas
	}
	return nil
}

func resolveEngine(sc *Scenario, f *File, src *source) error {
	e := f.Engine
	sc.ParallelFetches = e.ParallelFetches
	if src.has("engine.parallel_fetches") && e.ParallelFetches < 1 {
		return src.at("engine.parallel_fetches", "expected an integer >= 1, got %d", e.ParallelFetches)
	}
	if sc.ParallelFetches == 0 {
		sc.ParallelFetches = DefaultParallelFetches
	}
	sc.DefaultSlowStart = DefaultSlowStart
	if e.SlowStart != nil {
		if *e.SlowStart < 0 || *e.SlowStart > 1 {
			return src.at("engine.slowstart", "expected a fraction between 0 and 1, got %g", *e.SlowStart)
		}
		sc.DefaultSlowStart = *e.SlowStart
	}
	sc.Heartbeat = float64(e.Heartbeat)
	if src.has("engine.heartbeat") && e.Heartbeat == 0 {
		return src.at("engine.heartbeat", "expected a duration > 0, like 1s")
	}
	if sc.Heartbeat == 0 {
		sc.Heartbeat = DefaultHeartbeat
	}
	switch e.Offers {
	case "", "immediate":
	case "heartbeat":
		sc.HeartbeatOnly = true
	default:
		return src.at("engine.offers", "unknown offer mode %q (expected immediate or heartbeat)", e.Offers)
	}
	sc.Check = e.Check
	sc.MaxLiveTasks = DefaultMaxLiveTasks
	if src.has("engine.max_live_tasks") {
		if e.MaxLiveTasks < 1 {
			return src.at("engine.max_live_tasks", "expected an integer >= 1, got %d", e.MaxLiveTasks)
		}
		sc.MaxLiveTasks = e.MaxLiveTasks
	}
	if src.has("engine.until") && !(e.Until > 0) {
		return src.at("engine.until", "expected a duration > 0, like 48h")
	}
	sc.Until = float64(e.Until)
	return nil
}

func resolveKnowledge(sc *Scenario, f *File, src *source) error {
	k := f.Knowledge
	if k.Model == "" {
		k.Model = "exact"
	}
	known := false
	for _, m := range knowledgeModels {
		known = known || m == k.Model
	}
	if !known {
		return src.at("knowledge.model", "unknown knowledge model %q (expected %s)", k.Model, strings.Join(knowledgeModels, ", "))
	}
	// A parameter of another model is almost surely a mistake.
	for _, p := range []struct {
		key, model string
		set        bool
	}{{"f", "multiplicative", src.has("knowledge.f")}, {"rate", "relative", src.has("knowledge.rate")}, {"sigma", "gaussian", src.has("knowledge.sigma")}} {
		if p.set && k.Model != p.model {
			return src.at("knowledge."+p.key, "applies only to model %s (this model is %s)", p.model, k.Model)
		}
	}
	switch {
	case k.Model == "multiplicative" && k.F < 1:
		return src.at("knowledge.f", "model multiplicative needs f >= 1 (estimate = truth x f^(2U-1)), got %g", k.F)
	case k.Rate < 0 || k.Rate > 1:
		return src.at("knowledge.rate", "expected an error rate between 0 and 1, got %g", k.Rate)
	case k.Sigma < 0:
		return src.at("knowledge.sigma", "expected sigma >= 0, got %g", k.Sigma)
	case !(k.ArrivalShare >= 0 && k.ArrivalShare <= 1):
		return src.at("knowledge.arrival_share", "expected a share of the jobs between 0 and 1, got %g", k.ArrivalShare)
	case k.ArrivalJitter < 0 || math.IsInf(float64(k.ArrivalJitter), 0):
		return src.at("knowledge.arrival_jitter", "expected a duration >= 0, got %v", k.ArrivalJitter)
	case k.ArrivalShare > 0 && k.ArrivalJitter == 0:
		return src.at("knowledge.arrival_share", "arrival_share needs arrival_jitter (how far the forecasts are off, like 200s)")
	}
	sc.Knowledge = k
	return nil
}

func resolveOutput(sc *Scenario, f *File, src *source) error {
	sc.Output = f.Output
	if sc.Output.Dir != "" {
		return nil
	}
	stem := f.Name
	if stem == "" && src.name != "" {
		stem = strings.TrimSuffix(filepath.Base(src.name), filepath.Ext(src.name))
	}
	if stem == "" {
		stem = "scenario"
	}
	// A name is free text; keep it one path element.
	stem = strings.NewReplacer("/", "-", `\`, "-").Replace(stem)
	sc.Output.Dir = filepath.Join("out", stem)
	return nil
}
