package scenario

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/workload"
)

// boundaryBase is a scenario each case adds its keys to (a YAML flow
// mapping per line; a case's own top-level keys come last).
const boundaryBase = `cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps%s}
workload:
  jobs:
    - id: a
      stages:
        - {id: map, tasks: [{compute: 1s, output: 128MB}, {compute: 1s, output: 128MB}]}
        - {id: red, %s}
%s`

// boundary is one documented boundary value: the cluster keys, the reduce
// stage's keys (after and tasks) and the other top-level keys, and either
// the error it gets (a part of its message, which must also name
// file:line:col and the path) or a check of what it resolves to.
type boundary struct {
	name              string
	cluster, red, top string
	err, path         string
	check             func(t *testing.T, sc *Scenario)
}

const twoTasks = "after: map, tasks: [{compute: 1s}, {compute: 1s}]"

// TestBoundaryValues loads every documented boundary of the fields whose
// reading rules are "absent means the default, a value written is honoured
// or rejected with its place".
func TestBoundaryValues(t *testing.T) {
	var cases []boundary
	for _, group := range [][]boundary{networkBoundaries(), clusterBoundaries(), topLevelBoundaries(), dependencyBoundaries(), shareBoundaries()} {
		cases = append(cases, group...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			red := c.red
			if red == "" {
				red = twoTasks
			}
			text := strings.Replace(boundaryBase, "%s", c.cluster, 1)
			text = strings.Replace(text, "%s", red, 1)
			text = strings.Replace(text, "%s", c.top, 1)
			sc, err := Parse("b.yaml", []byte(text), ".")
			if c.err != "" {
				if err == nil {
					t.Fatalf("accepted; want an error containing %q", c.err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "b.yaml:") || !strings.Contains(msg, c.err) || !strings.Contains(msg, c.path) {
					t.Fatalf("got %q; want b.yaml:LINE:COL: %s: ...%s...", msg, c.path, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				c.check(t, sc)
			}
			if _, err := sc.OpenWorkload(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func want[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// built is the network sc's configuration builds: what the run gets.
func built(t *testing.T, sc *Scenario) network.Config {
	t.Helper()
	n, err := network.New(sc.Network)
	if err != nil {
		t.Fatal(err)
	}
	return n.Config()
}

func networkBoundaries() []boundary {
	hybrid := "network: {topology: hybrid, ocs: {%s}}"
	ocs := func(kv string) string { return strings.Replace(hybrid, "%s", kv, 1) }
	monitor := func(kv string) string { return "network: {monitor: {" + kv + "}}" }
	return []boundary{
		{name: "monitor absent", check: func(t *testing.T, sc *Scenario) {
			want(t, "monitor", sc.Network.Monitor.Interval+sc.Network.Monitor.Window+sc.Network.Monitor.Threshold, 1+5+0.8)
		}},
		{name: "monitor threshold 0", top: monitor("threshold: 0"), check: func(t *testing.T, sc *Scenario) { want(t, "threshold", built(t, sc).Monitor.Threshold, 0) }},
		{name: "monitor threshold 1", top: monitor("threshold: 1"), check: func(t *testing.T, sc *Scenario) { want(t, "threshold", sc.Network.Monitor.Threshold, 1) }},
		{name: "monitor threshold 1.01", top: monitor("threshold: 1.01"), err: "between 0 and 1, got 1.01", path: "network.monitor.threshold"},
		{name: "monitor threshold -0.1", top: monitor("threshold: -0.1"), err: "between 0 and 1", path: "network.monitor.threshold"},
		{name: "monitor threshold empty", top: monitor("threshold: "), err: "got nothing", path: "network.monitor.threshold"},
		{name: "monitor interval 0s", top: monitor("interval: 0s"), err: "expected a duration of at least 1ms", path: "network.monitor.interval"},
		{name: "monitor interval 999us", top: monitor("interval: 0.999ms"), err: "expected a duration of at least 1ms", path: "network.monitor.interval"},
		{name: "monitor interval 1ms", top: monitor("interval: 1ms"), check: func(t *testing.T, sc *Scenario) { want(t, "interval", sc.Network.Monitor.Interval, 0.001) }},
		{name: "monitor window 0s", top: monitor("window: 0s"), check: func(t *testing.T, sc *Scenario) { want(t, "window", built(t, sc).Monitor.Window, 0) }},
		{name: "ocs absent", top: "network: {topology: hybrid}", check: func(t *testing.T, sc *Scenario) {
			want(t, "ocs", sc.Network.OCS, network.DefaultOCS())
			want(t, "oversubscription", sc.Network.Oversubscription, 1)
		}},
		{name: "ocs delay 0s", top: ocs("delay: 0s"), check: func(t *testing.T, sc *Scenario) { want(t, "delay", built(t, sc).OCS.Delay, 0) }},
		{name: "ocs elephant 0B", top: ocs("elephant: 0B"), check: func(t *testing.T, sc *Scenario) { want(t, "elephant", built(t, sc).OCS.ElephantThreshold, 0) }},
		{name: "ocs interval 0s", top: ocs("interval: 0s"), err: "expected a duration of at least 1ms", path: "network.ocs.interval"},
		{name: "ocs interval 1ns", top: ocs("interval: 1ns"), err: "expected a duration of at least 1ms", path: "network.ocs.interval"},
		{name: "ocs port_speed 0", top: ocs("port_speed: 0"), err: "must be positive", path: "network.ocs.port_speed"},
		{name: "ocs port_speed 1bps", top: ocs("port_speed: 1bps"), check: func(t *testing.T, sc *Scenario) { want(t, "port", sc.Network.OCS.PortSpeed, 1.0/8) }},
		{name: "ocs delay absent", top: ocs("elephant: 1MB"), check: func(t *testing.T, sc *Scenario) { want(t, "delay", sc.Network.OCS.Delay, network.DefaultOCSDelay) }},
		{name: "oversubscription 1", top: "network: {topology: two-tier, oversubscription: 1}", check: func(t *testing.T, sc *Scenario) { want(t, "ratio", sc.Network.Oversubscription, 1) }},
		{name: "oversubscription 0.99", top: "network: {topology: two-tier, oversubscription: 0.99}", err: "expected a ratio >= 1", path: "network.oversubscription"},
		{name: "oversubscription 1e6", top: "network: {topology: two-tier, oversubscription: 1e6}", check: func(t *testing.T, sc *Scenario) { want(t, "ratio", sc.Network.Oversubscription, 1e6) }},
		{name: "oversubscription 1000001", top: "network: {topology: two-tier, oversubscription: 1000001}", err: "between 1 and 1e6", path: "network.oversubscription"},
		{name: "topology empty", top: `network: {topology: ""}`, err: "expected a non-empty string", path: "network.topology"},
		{name: "goodput 1", top: "network: {goodput: 1}", check: func(t *testing.T, sc *Scenario) { want(t, "nic", sc.Network.Machines[0].NICUp, 1.25e8) }},
		{name: "goodput 0", top: "network: {goodput: 0}", err: "in (0, 1], got 0", path: "network.goodput"},
		{name: "goodput 1e-300", top: "network: {goodput: 1e-300}", err: "too slow", path: "network.goodput"},
		{name: "goodput 1.0e-300", top: "network: {goodput: 1.0e-300}", err: "too slow", path: "network.goodput"},
		{name: "goodput 0.0000000001", top: "network: {goodput: 0.0000000001}", err: "too slow", path: "network.goodput"},
		{name: "goodput 1e-400", top: "network: {goodput: 1e-400}", err: "below the smallest number", path: "network.goodput"},
	}
}

func clusterBoundaries() []boundary {
	speed := func(t *testing.T, sc *Scenario, v float64) { want(t, "speed", sc.Machines[0].Speed, v) }
	return []boundary{
		{name: "speed absent", check: func(t *testing.T, sc *Scenario) { speed(t, sc, 1) }},
		{name: "speed 0.001", cluster: ", speed: 0.001", check: func(t *testing.T, sc *Scenario) { speed(t, sc, 0.001) }},
		{name: "speed 1e-3", cluster: ", speed: 1e-3", check: func(t *testing.T, sc *Scenario) { speed(t, sc, 0.001) }},
		{name: "speed 1000", cluster: ", speed: 1000", check: func(t *testing.T, sc *Scenario) { speed(t, sc, 1000) }},
		{name: "speed 1E3", cluster: ", speed: 1E3", check: func(t *testing.T, sc *Scenario) { speed(t, sc, 1000) }},
		{name: "speed 1000.5", cluster: ", speed: 1000.5", err: "between 0.001 and 1000", path: "cluster.speed"},
		{name: "speed 0.000000001", cluster: ", speed: 0.000000001", err: "between 0.001 and 1000", path: "cluster.speed"},
		{name: "speed 1e-9", cluster: ", speed: 1e-9", err: "between 0.001 and 1000", path: "cluster.speed"},
		{name: "speed 0", cluster: ", speed: 0", err: "between 0.001 and 1000", path: "cluster.speed"},
		{name: "speed quoted", cluster: `, speed: "2"`, err: "expected a number", path: "cluster.speed"},
		{name: "machine speed 1e-9", cluster: ", machines: [{index: 0, speed: 1e-9}]", err: "between 0.001 and 1000", path: "cluster.machines[0].speed"},
		{name: "compute 1e9s", red: "after: map, tasks: [{compute: 1e9s}]", check: func(t *testing.T, sc *Scenario) {}},
		{name: "compute 1000000001s", red: "after: map, tasks: [{compute: 1000000001s}]", err: "beyond the limit", path: "workload.jobs[0].stages[1].tasks[0].compute"},
	}
}

func topLevelBoundaries() []boundary {
	return []boundary{
		{name: "seed absent", check: func(t *testing.T, sc *Scenario) { want(t, "seed", sc.Seed, 1) }},
		{name: "seed 0", top: "seed: 0", err: "expected a seed >= 1", path: "seed"},
		{name: "seed 1", top: "seed: 1", check: func(t *testing.T, sc *Scenario) { want(t, "seed", sc.Seed, 1) }},
		{name: "seed 2^64-1", top: "seed: 18446744073709551615", check: func(t *testing.T, sc *Scenario) { want(t, "seed", sc.Seed, 1<<64-1) }},
		{name: "scheduler absent", check: func(t *testing.T, sc *Scenario) { want(t, "scheduler", sc.Scheduler.Name, DefaultScheduler) }},
		{name: "scheduler empty", top: `scheduler: ""`, err: "expected a scheduler name", path: "scheduler"},
		{name: "scheduler null", top: `scheduler:`, err: "expected a scheduler name", path: "scheduler"},
		{name: "scheduler name empty", top: `scheduler: {name: ""}`, err: "expected a scheduler name", path: "scheduler.name"},
		{name: "name empty", top: `name: ""`, err: "expected a non-empty string", path: "name"},
		{name: "output dir empty", top: `output: {dir: ""}`, err: "expected a non-empty string", path: "output.dir"},
		{name: "knowledge model empty", top: `knowledge: {model: ""}`, err: "expected a non-empty string", path: "knowledge.model"},
		{name: "knowledge rate 0 of another model", top: `knowledge: {model: gaussian, sigma: 0.1, rate: 0}`, err: "applies only to model relative", path: "knowledge.rate"},
		{name: "knowledge sigma 0", top: `knowledge: {model: gaussian, sigma: 0}`, check: func(t *testing.T, sc *Scenario) { want(t, "sigma", sc.Knowledge.Sigma, 0) }},
	}
}

func dependencyBoundaries() []boundary {
	const tasks = ", tasks: [{compute: 1s}]"
	return []boundary{
		{name: "after twice", red: "after: [map, map]" + tasks, err: `stage "map" is listed twice (also after[0])`, path: "workload.jobs[0].stages[1].after[1]"},
		{name: "after string and mapping", red: "after: [map, {stage: map, pattern: broadcast}]" + tasks, err: `stage "map" is listed twice`, path: "workload.jobs[0].stages[1].after[1]"},
		{name: "after two mappings", red: "after: [{stage: map, slowstart: 0.5}, {stage: map}]" + tasks, err: `stage "map" is listed twice`, path: "workload.jobs[0].stages[1].after[1]"},
		{name: "after once", red: "after: [map]" + tasks, check: func(t *testing.T, sc *Scenario) {
			j := firstJob(t, sc)
			want(t, "parents", len(j.Stages[1].After), 1)
		}},
	}
}

func shareBoundaries() []boundary {
	shares := func(t *testing.T, sc *Scenario, w ...float64) {
		t.Helper()
		j := firstJob(t, sc)
		for i, task := range j.Stages[1].Expand(rand.New(rand.NewPCG(1, 1))) {
			want(t, "share", task.Share, w[i])
		}
	}
	return []boundary{
		{name: "share absent", check: func(t *testing.T, sc *Scenario) { shares(t, sc, 1, 1) }},
		{name: "share 0 and 1", red: "after: map, tasks: [{share: 0}, {share: 1}]", check: func(t *testing.T, sc *Scenario) { shares(t, sc, 0, 1) }},
		{name: "share 1e18", red: "after: map, tasks: [{share: 1e18}, {share: 1}]", check: func(t *testing.T, sc *Scenario) { shares(t, sc, 1e18, 1) }},
		{name: "share above 1e18", red: "after: map, tasks: [{share: 1.1e18}]", err: "beyond the limit", path: "workload.jobs[0].stages[1].tasks[0].share"},
		{name: "every share 0", red: "after: map, tasks: [{share: 0}, {share: 0}]", err: `every task of stage "red" has share 0`, path: "workload.jobs[0].stages[1]"},
		{name: "stage share 0", red: "after: map, count: 2, share: 0", err: `every task of stage "red" has share 0`, path: "workload.jobs[0].stages[1]"},
		{name: "every share 0 without parents", red: "tasks: [{share: 0}]", check: func(t *testing.T, sc *Scenario) {}},
		{name: "share 0 broadcast", red: "after: {stage: map, pattern: broadcast}, tasks: [{share: 0}]", check: func(t *testing.T, sc *Scenario) {}},
	}
}

func firstJob(t *testing.T, sc *Scenario) workload.Job {
	t.Helper()
	jobs := readJobs(t, sc)
	if len(jobs) == 0 {
		t.Fatal("no jobs")
	}
	return jobs[0]
}

// A job that names a parent job twice would read its output twice.
func TestJobAfterTwice(t *testing.T) {
	text := `cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
workload:
  jobs:
    - {id: a, stages: [{id: m, tasks: [{output: 1MB}]}]}
    - {id: b, after: [a, a], stages: [{id: m, tasks: [{}]}]}
`
	_, err := Parse("j.yaml", []byte(text), ".")
	if err == nil || !strings.HasPrefix(err.Error(), "j.yaml:5:") || !strings.Contains(err.Error(), `workload.jobs[1].after[1]: job "a" is listed twice`) {
		t.Fatalf("got %v", err)
	}
}

// A JSONL record with a key twice (encoding/json keeps the last) or a
// number that rounds to 0 is an error at its line, as in YAML.
func TestJSONLRejectsRepeatedKeysAndTinyNumbers(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"id": "a", "id": "b", "stages": [{"id": "m", "tasks": [{}]}]}`, `t.jsonl:2:`},
		{`{"id": "a", "stages": [{"id": "m", "tasks": [{"share": 1, "share": 2}]}]}`, `t.jsonl:2:`},
		{`{"id": "a", "stages": [{"id": "m", "tasks": [{"output_ratio": 1e-400}]}]}`, `below the smallest number`},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "t.jsonl")
		first := `{"id": "z", "stages": [{"id": "m", "tasks": [{}]}]}`
		if err := os.WriteFile(path, []byte(first+"\n"+c.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		scen := "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}\nworkload: {trace: t.jsonl}\n"
		sc, err := Parse(filepath.Join(dir, "s.yaml"), []byte(scen), dir)
		if err != nil {
			t.Fatal(err)
		}
		src, err := sc.OpenWorkload()
		for err == nil {
			var ok bool
			_, ok, err = src.Next()
			if !ok && err == nil {
				t.Fatalf("%s: read without error", c.line)
			}
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.line, err, c.want)
		}
	}
}

// A byte order mark is rejected at 1:1 in a scenario and a JSONL trace (not
// read as part of the first key or id); a NUL in an id is an error at its
// line.
func TestByteOrderMarkAndControlCharacters(t *testing.T) {
	const scen = "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}\nworkload:\n  jobs:\n    - {id: a, stages: [{id: m, tasks: [{}]}]}\n"
	if _, err := Parse("bom.yaml", []byte("\ufeff"+scen), "."); err == nil || !strings.HasPrefix(err.Error(), "bom.yaml:1:1: the file starts with a UTF-8 byte order mark") {
		t.Errorf("scenario with a BOM: %v", err)
	}
	nul := strings.Replace(scen, "id: a,", `id: "a\0b",`, 1)
	if _, err := Parse("nul.yaml", []byte(nul), "."); err == nil || !strings.Contains(err.Error(), `nul.yaml:4:`) || !strings.Contains(err.Error(), "U+0000") {
		t.Errorf("NUL in an id: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.jsonl"), []byte("\ufeff"+`{"id": "a", "stages": [{"id": "m", "tasks": [{}]}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Parse(filepath.Join(dir, "s.yaml"), []byte("cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}\nworkload: {trace: t.jsonl}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := sc.OpenWorkload()
	if err == nil {
		_, _, err = src.Next()
	}
	if err == nil || !strings.Contains(err.Error(), "t.jsonl:1: the file starts with a UTF-8 byte order mark") {
		t.Errorf("JSONL with a BOM: %v", err)
	}
}
