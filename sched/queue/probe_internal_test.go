package queue

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// These tests run real simulations with the scheduler wrapped so that every
// placement can be checked against the per-app state it must leave behind
// (§1.4, §2, §3): resets and levels that the end results only show blurred.

// mapReduceJobs: small map-reduce jobs on three racks, arriving while busy.
func mapReduceJobs() string {
	var b strings.Builder
	b.WriteString(`
cluster: {racks: 3, machines_per_rack: 4, slots_per_machine: 2, nic: 1GB/s}
workload:
  jobs:
`)
	for i := range 60 {
		fmt.Fprintf(&b, "    - {id: j%02d, arrival: %gs, user: u%d, stages: [{id: map, count: %d, input: 64MB, compute: 3s, output: 8MB}, {id: red, after: map, count: 2, compute: 1s}]}\n",
			i, 0.3*float64(i), i%3, 1+i%5)
	}
	b.WriteString("scheduler: fifo\n")
	return b.String()
}

func probeRun(t *testing.T, s sched.Scheduler) {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(mapReduceJobs()), ".")
	if err != nil {
		t.Fatal(err)
	}
	sc.Check = true
	res, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Jobs != 60 {
		t.Fatalf("%d jobs finished, want 60", res.Summary.Jobs)
	}
}

// probe wraps a scheduler of this package and checks every placement
// against the state of the app that made it.
type probe struct {
	*base
	offer func(v sched.View, m int, p *sched.Plan)
	check func(v sched.View, a *app, t sched.Task, m int)
}

func (p probe) Heartbeats() bool { return true }

func (p probe) Offer(v sched.View, m int, pl *sched.Plan) {
	before := pl.Placed()
	p.offer(v, m, pl)
	if pl.Placed() == before {
		return
	}
	// The offer placed one task on m: the last one planned there.
	var t sched.Task
	for _, pt := range v.Machine(m).Planned() {
		t = pt
	}
	p.check(v, p.tree.apps[t.Job()], t, m)
}

func build(t *testing.T, name string, params map[string]any) sched.Scheduler {
	t.Helper()
	s, err := sched.NewScheduler(name, params)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Fair: an assignment resets its priority's count, and the allowed level is
// never looser than what was just achieved.
func TestProbeFair(t *testing.T) {
	f := build(t, "fair", map[string]any{"locality_node": 0.25, "locality_rack": 0.25}).(*Fair)
	placed := map[sched.Locality]int{}
	probeRun(t, probe{&f.base, f.Offer, func(v sched.View, a *app, tk sched.Task, m int) {
		r := a.req[priorityOf(tk.Stage())]
		got := v.Locality(tk, m)
		placed[got]++
		if r.opportunities != 0 {
			t.Fatalf("%s placed with %d opportunities left uncleared", tk, r.opportunities)
		}
		if got != sched.NoPreference && r.allowed > got {
			t.Fatalf("%s placed %s but the allowed level stayed %s", tk, got, r.allowed)
		}
	}})
	if placed[sched.NodeLocal] == 0 || placed[sched.RackLocal]+placed[sched.OffSwitch] == 0 {
		t.Fatalf("placements %v: the scenario should mix localities", placed)
	}
}

// Delay, skip variant: node-local resets the count; anything else needs D
// skips first.
func TestProbeDelaySkips(t *testing.T) {
	d := build(t, "delay", map[string]any{"skips": 3}).(*Delay)
	nonLocal := 0
	probeRun(t, probe{&d.base, d.Offer, func(v sched.View, a *app, tk sched.Task, m int) {
		switch v.Locality(tk, m) {
		case sched.NodeLocal:
			if a.skips != 0 {
				t.Fatalf("%s placed node-local without resetting the skip count (%d)", tk, a.skips)
			}
		case sched.RackLocal, sched.OffSwitch:
			nonLocal++
			if a.skips < 3 {
				t.Fatalf("%s placed non-local after %d skips, want at least 3", tk, a.skips)
			}
		}
	}})
	if nonLocal == 0 {
		t.Fatal("no non-local placement: the scenario should force some")
	}
}

// Delay, wait variant: a launch sets the level to its locality and clears
// the wait (the thresholds are TestDelayAllowedLevel's).
func TestProbeDelayWait(t *testing.T) {
	d := build(t, "delay", map[string]any{"variant": "wait", "w1": "0.1s", "w2": "0.2s"}).(*Delay)
	levels := map[sched.Locality]int{}
	probeRun(t, probe{&d.base, d.Offer, func(v sched.View, a *app, tk sched.Task, m int) {
		if !tk.Stage().HasFileInput() {
			return
		}
		got := v.Locality(tk, m)
		levels[got]++
		if a.level != got || a.wait != 0 {
			t.Fatalf("%s placed %s: level %s and wait %g, want %s and 0", tk, got, a.level, a.wait, got)
		}
	}})
	if levels[sched.RackLocal] == 0 || levels[sched.OffSwitch] == 0 {
		t.Fatalf("levels %v: the scenario should reach rack and off-switch", levels)
	}
}

// Capacity: node- and rack-local placements reset the missed opportunities,
// off-switch ones do not.
func TestProbeCapacity(t *testing.T) {
	c := build(t, "capacity", map[string]any{"node_locality_delay": 4}).(*Capacity)
	placed := map[sched.Locality]int{}
	probeRun(t, probe{&c.base, c.Offer, func(v sched.View, a *app, tk sched.Task, m int) {
		r := a.req[priorityOf(tk.Stage())]
		got := v.Locality(tk, m)
		placed[got]++
		switch got {
		case sched.NodeLocal, sched.RackLocal:
			if r.opportunities != 0 {
				t.Fatalf("%s placed %s without resetting (%d)", tk, got, r.opportunities)
			}
		case sched.OffSwitch:
			if r.opportunities == 0 {
				t.Fatalf("%s placed off-switch with no missed opportunity", tk)
			}
		}
	}})
	if placed[sched.RackLocal] == 0 || placed[sched.OffSwitch] == 0 {
		t.Fatalf("placements %v: the scenario should reach rack and off-switch", placed)
	}
}
