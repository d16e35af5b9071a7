package all_test

import (
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/all"
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
