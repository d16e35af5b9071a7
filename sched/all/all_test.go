package all_test

import (
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sim"
)

const cluster = "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\n" +
	"workload: {jobs: [{id: A, stages: [{id: s, tasks: [{compute: 1s}]}]}]}\n"

// A bad scheduler choice fails the load, at the line and field at fault.
func TestSchedulerCheckedAtLoad(t *testing.T) {
	for _, c := range []struct{ sched, want string }{
		{"scheduler: fiffo", `s.yaml:3:12: scheduler.name: unknown scheduler "fiffo"`},
		{"scheduler:\n  name: pushbox\n  params:\n    m: 0", "s.yaml:6:8: scheduler.params.m: scheduler pushbox: parameter m: got 0, expected an integer >= 1"},
		{"scheduler:\n  name: nas\n  params: {light_shuffle: 1GB}", "s.yaml:5:11: scheduler.params.heavy_shuffle: scheduler nas: parameter heavy_shuffle: got 100MB, expected a size at least light_shuffle (1GB)"},
		{"scheduler:\n  name: fair\n  params:\n    queues: [{name: a, wieght: 2}]", `s.yaml:6:13: scheduler.params.queues: scheduler fair: parameter queues: entry 1: unknown key "wieght"`},
		{"scheduler: {name: delay, params: {skipz: 3}}", "s.yaml:3:42: scheduler.params.skipz: scheduler delay: unknown parameter(s) skipz (known: auto_create_queues, network, queues, skips, user_weights, variant, w1, w2)"},
		{"scheduler: {name: fair, params: {w1: 3s}}", "s.yaml:3:38: scheduler.params.w1: scheduler fair: unknown parameter(s) w1"},
	} {
		_, err := scenario.Parse("s.yaml", []byte(cluster+c.sched+"\n"), ".")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.sched, err, c.want)
		}
	}
	if _, err := scenario.Parse("s.yaml", []byte(cluster+"scheduler: {name: delay, params: {variant: wait, w1: 1.5s}}\n"), "."); err != nil {
		t.Errorf("a valid choice is rejected: %v", err)
	}
}

// Every registered scheduler's defaults decode and build: the defaults
// listed by `netsched schedulers` are the ones a scenario gets.
func TestDefaultsBuild(t *testing.T) {
	for _, info := range sched.Schedulers() {
		if err := sched.CheckSpec(info.Name, nil, "", nil); err != nil {
			t.Errorf("%s: %v", info.Name, err)
		}
		if _, err := sched.NewScheduler(info.Name, nil); err != nil {
			t.Errorf("%s: %v", info.Name, err)
		}
		// Writing every listed default back as a parameter gives the same
		// scheduler, so the listing can be pasted into a scenario.
		params := map[string]any{}
		for _, p := range info.Params {
			if p.Default != "none" && !strings.HasPrefix(p.Default, "[") {
				params[p.Name] = typed(p.Default)
			}
		}
		if err := sched.CheckSpec(info.Name, params, "", nil); err != nil {
			t.Errorf("%s with its listed defaults %v: %v", info.Name, params, err)
		}
	}
}

// typed turns a listed default back into what YAML would decode.
func typed(s string) any {
	var v any
	if err := yamlScalar(s, &v); err != nil {
		return s
	}
	return v
}

func yamlScalar(s string, v *any) error { return yaml.Unmarshal([]byte(s), v) }

// Idle time is free: a 4 GB transfer over a 1 bps NIC lasts 3.2e10 s, and
// every scheduler, with its monitor samples, ticks and heartbeats, finishes
// it in a few steps (taken one per second, they would take hours): the
// map's output moves at 1 bps, then the reducer computes for 1 s; the
// heartbeat-driven schedulers wait up to a heartbeat for each task.
func TestSlowLinkFinishesAtOnce(t *testing.T) {
	const doc = `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 2, nic: 1bps}
network: {topology: two-tier, rack_uplink: 1bps, rack_downlink: 1bps}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 0s, output: 4GB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{share: 1, compute: 1s, pin: 0}]}
`
	for _, info := range sched.Schedulers() {
		t.Run(info.Name, func(t *testing.T) {
			sc, err := scenario.Parse("slow.yaml", []byte(doc+"scheduler: "+info.Name+"\n"), ".")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var res *metrics.Result
			go func() {
				defer close(done)
				res, err = sim.Run(sc)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("still running after 2 minutes of wall time: idle time is not free")
			}
			if err != nil {
				t.Fatal(err)
			}
			want := 4e9*8 + 1
			if len(res.Jobs) != 1 || res.Jobs[0].JCT < want*(1-1e-12) || res.Jobs[0].JCT > want+3 {
				t.Fatalf("jobs %+v, want one with JCT %g s (+ up to 3 s of heartbeats)", res.Jobs, want)
			}
		})
	}
}

// Every entry of the reproduction catalog loads: its schedulers, parameters
// and grid keys are checked when a sweep file is read.
func TestCatalogEntriesLoad(t *testing.T) {
	names := experiment.Catalog()
	for _, name := range names {
		if _, err := experiment.LoadFS(experiment.CatalogFS, name+".yaml"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(names) == 0 {
		t.Fatal("the catalog is empty")
	}
}

// Heartbeats alone for a transfer that would take 3.2e10 s: a waiting task
// pinned to the machine the transfer's reducer holds keeps heartbeat-driven
// schedulers offering the other machine every second. The run is refused
// at once with the diagnosis; with a 400 KB transfer (3.2e6 heartbeats,
// under the budget) it runs to the end.
func TestIdleHeartbeatsRefused(t *testing.T) {
	const doc = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1bps}
network: {topology: nonblocking}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 0s, output: SIZE, pin: 1}]}
        - {id: reduce, after: map, tasks: [{share: 1, compute: 1s, pin: 0}]}
    - id: B
      arrival: 1s
      stages:
        - {id: map, tasks: [{compute: 1s, pin: 0}]}
`
	for _, name := range []string{"delay", "nas", "pushbox", "sw-delay", "dawn"} {
		t.Run(name, func(t *testing.T) {
			sc, err := scenario.Parse("slow.yaml", []byte(strings.Replace(doc, "SIZE", "4GB", 1)+"scheduler: "+name+"\n"), ".")
			if err != nil {
				t.Fatal(err)
			}
			_, err = sim.Run(sc)
			if err == nil || !strings.Contains(err.Error(), "nothing but heartbeats") || !strings.Contains(err.Error(), "far slower than intended") {
				t.Fatalf("got %v, want the idle-heartbeat diagnosis", err)
			}
		})
	}
	if testing.Short() {
		return
	}
	sc, err := scenario.Parse("slow.yaml", []byte(strings.Replace(doc, "SIZE", "400KB", 1)+"scheduler: delay\n"), ".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(sc)
	if err != nil || len(res.Jobs) != 2 {
		t.Fatalf("400 KB: %v, %d jobs", err, len(res.Jobs))
	}
}
