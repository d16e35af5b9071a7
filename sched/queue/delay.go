package queue

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// DelayConfig is delay's parameters: fair's queue tree, the delay
// variant and its thresholds, the network.
type DelayConfig struct {
	FairTreeConfig
	Variant string  `param:"variant" choices:"skip|wait" help:"skip: one level, a non-local launch after skips skips (the paper's Algorithm 2); wait: two levels node -> rack -> any after w1, w2 (HFS)"`
	Skips   int     `param:"skips" min:"-1" help:"D, skips before a non-local launch (-1: ceil(0.231 x machines), §3.3's bound for 95% locality of 20-task jobs with 3 replicas)"`
	W1      float64 `param:"w1" unit:"s" min:"-1" help:"wait before rack-local (-1: HFS's auto value min(15s, 1.5 x heartbeat))"`
	W2      float64 `param:"w2" unit:"s" min:"-1" help:"further wait before off-switch (-1: as w1)"`
	NetworkConfig
}

// DefaultDelayConfig is delay scheduling with its automatic thresholds.
func DefaultDelayConfig() DelayConfig {
	return DelayConfig{FairTreeConfig: defaultFairTree, Variant: "skip", Skips: -1, W1: -1, W2: -1, NetworkConfig: NetworkConfig{"fair"}}
}

// NewDelay builds a delay scheduler from its configuration (PushBox's
// Hadoop baselines are delay with their own settings).
func NewDelay(c DelayConfig) (sched.Scheduler, error) {
	t, err := c.tree()
	if err != nil {
		return nil, err
	}
	return &Delay{base: base{flows: c.flows(), tree: t}, byWait: c.Variant == "wait", skips: c.Skips, w1: c.W1, w2: c.W2}, nil
}

func init() {
	sched.Register(sched.Define("delay",
		"delay scheduling (Zaharia et al., EuroSys 2010) over fair's queue order: a job without a local task is skipped for D offers or W1/W2 seconds",
		DefaultDelayConfig(), NewDelay))
}

// Delay is delay scheduling (§3) with fair's order of queues and jobs: the
// job that should go next but has no local task lets the next ones go
// first, for at most D skips (variant skip) or W1 then W2 seconds (wait).
// Only map-like requests are delayed; reduce-like ones go first, anywhere,
// as in HFS.
type Delay struct {
	base
	fairOrder
	byWait  bool
	skips   int     // D
	w1, w2  float64 // seconds
	lastHB  float64 // time of the previous offer
	skipped []*app  // apps skipped since the previous offer (wait)
}

// Heartbeats: skip counts and waits grow with opportunities, which must
// keep coming while slots stay free.
func (d *Delay) Heartbeats() bool { return true }

func (d *Delay) Offer(v sched.View, m int, p *sched.Plan) {
	d.defaults(v)
	if d.byWait {
		d.heartbeat(v.Now())
	}
	d.tree.offer(v, m, d, p)
}

// defaults resolves the automatic values once the cluster is known.
func (d *Delay) defaults(v sched.View) {
	if d.skips < 0 {
		d.skips = DefaultSkips(v.NumMachines())
	}
	if d.w1 < 0 {
		d.w1 = min(15, 1.5*v.Heartbeat())
	}
	if d.w2 < 0 {
		d.w2 = d.w1
	}
}

// DefaultSkips is delay scheduling's D for a cluster of machines (§3.3):
// D >= -(M/R) ln(N(1-λ) / (1 + N(1-λ))) for λ = 0.95, N = 20, R = 3, the
// skips that give 95% node locality to 20-task jobs with 3 replicas. It is
// exported for sw-delay, which runs over delay scheduling with the same
// default. (pushbox's locality_delay is a fraction of the machines, a
// parameter, so it is not this.)
func DefaultSkips(machines int) int {
	const lambda, tasks, replicas = 0.95, 20.0, 3.0
	x := tasks * (1 - lambda)
	return int(math.Ceil(-float64(machines) / replicas * math.Log(x/(1+x))))
}

// heartbeat is HFS's updateLocalityWaitTimes: each job skipped at the
// previous opportunity has waited the time since.
func (d *Delay) heartbeat(now float64) {
	for _, a := range d.skipped {
		a.wait += now - d.lastHB
		a.skipped = false
	}
	d.skipped = d.skipped[:0]
	d.lastHB = now
}

func (d *Delay) assign(v sched.View, a *app, m int) sched.Task {
	if t, _ := pick(v, a.job, reduceLike, m, sched.OffSwitch); !t.IsZero() {
		return t
	}
	if waitingAt(a.job, mapLike) == 0 {
		return sched.Task{}
	}
	if d.byWait {
		return d.assignByWait(v, a, m)
	}
	return d.assignBySkips(v, a, m)
}

// assignBySkips is §3.1: a node-local task resets the skip count; without
// one, the job launches anyway once it was skipped D times, else it is
// skipped once more.
func (d *Delay) assignBySkips(v sched.View, a *app, m int) sched.Task {
	if t, _ := pick(v, a.job, mapLike, m, sched.NodeLocal); !t.IsZero() {
		a.skips = 0
		return t
	}
	if a.skips >= d.skips {
		if t, _ := pick(v, a.job, mapLike, m, sched.OffSwitch); !t.IsZero() {
			return t
		}
	}
	a.skips++
	return sched.Task{}
}

// assignByWait is §3.2: the job's level follows its last launch, and the
// wait since then unlocks rack-local after W1 and any after W2 more.
func (d *Delay) assignByWait(v sched.View, a *app, m int) sched.Task {
	t, got := pick(v, a.job, mapLike, m, d.allowed(a))
	if t.IsZero() {
		if !a.skipped {
			a.skipped = true
			d.skipped = append(d.skipped, a)
		}
		return sched.Task{}
	}
	a.level, a.wait = got, 0
	return t
}

func (d *Delay) allowed(a *app) sched.Locality {
	switch {
	case a.level == sched.OffSwitch, a.level == sched.RackLocal && a.wait >= d.w2, a.wait >= d.w1+d.w2:
		return sched.OffSwitch
	case a.level == sched.RackLocal, a.wait >= d.w1:
		return sched.RackLocal
	}
	return sched.NodeLocal
}
