package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseText parses a sweep held in a string; its scenario paths are
// relative to testdata.
func parseText(text string) (*Sweep, error) {
	return Parse("sweep.yaml", []byte(text), "testdata")
}

func TestParseSweep(t *testing.T) {
	sw, err := parseText(`name: s
description: a test
scenario: tiny.yaml
schedulers: [fifo, {name: delay, params: {skips: 3}, label: delay3}]
seeds: [4, 2]
grid:
  scheduler.params.network: [fair, fifo]
  cluster.racks: [1, 2]
metrics: [jct.mean, jct_by_bin.<10MB.count]
record: {tasks: never, timeline: false}
report: {baseline: delay3, at: {cluster.racks: 2}}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := &Sweep{
		Name: "s", Description: "a test", Path: "sweep.yaml",
		BaseName: "testdata/tiny.yaml", BaseDir: "testdata",
		Schedulers: []SchedulerChoice{{Label: "fifo", Name: "fifo"}, {Label: "delay3", Name: "delay", Params: map[string]any{"skips": uint64(3)}}},
		Seeds:      []uint64{4, 2},
		Grid: []Axis{ // sorted by key
			{Key: "cluster.racks", Values: []any{uint64(1), uint64(2)}},
			{Key: "scheduler.params.network", Values: []any{"fair", "fifo"}},
		},
		Metrics: []string{"jct.mean", "jct_by_bin.<10MB.count"},
		Record:  Record{Tasks: "never", Timeline: false},
		Report:  ReportHints{Baseline: "delay3", At: map[string]string{"cluster.racks": "2"}},
	}
	if diff := cmp.Diff(want, sw, cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Base" }, cmp.Ignore())); diff != "" {
		t.Errorf("sweep (-want +got):\n%s", diff)
	}
	if sw.Base["name"] != "tiny" || sw.baseSeed() != 7 {
		t.Errorf("base: name %v, seed %d", sw.Base["name"], sw.baseSeed())
	}
}

func TestParseSweepDefaults(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\nseeds: 3\n")
	if err != nil {
		t.Fatal(err)
	}
	// seeds: N counts up from the scenario's seed (7 in tiny.yaml).
	if !slices.Equal(sw.Seeds, []uint64{7, 8, 9}) {
		t.Errorf("seeds %v", sw.Seeds)
	}
	if sw.Name != "sweep" || !slices.Equal(sw.Metrics, DefaultMetrics) || sw.Record != (Record{Tasks: "auto", Timeline: true}) {
		t.Errorf("defaults: name %q, metrics %v, record %+v", sw.Name, sw.Metrics, sw.Record)
	}
	if got := sw.Labels(); !slices.Equal(got, []string{"fifo"}) {
		t.Errorf("labels %v: the base scenario's scheduler", got)
	}
	d, err := parseText("scenario: '@default'\n")
	if err != nil {
		t.Fatal(err)
	}
	if d.BaseName != "default.yaml" || d.baseSeed() != 42 {
		t.Errorf("@default: %s seed %d", d.BaseName, d.baseSeed())
	}
}

func TestParseSweepErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "sweep.yaml:1:1: the file is empty; expected a mapping with scenario (or base), schedulers, seeds and grid"},
		{"unknown key", "scenario: tiny.yaml\nschedulerz: [fifo]\n", `sweep.yaml:2:1: schedulerz: unknown key "schedulerz" (expected one of: name, description, scenario, base, schedulers, seeds, grid, metrics, record, report)`},
		{"no scenario", "seeds: 2\n", "sweep.yaml:1:1: missing scenario: expected `scenario: path/to/scenario.yaml` (or @default) or an inline `base:` scenario"},
		{"both", "scenario: tiny.yaml\nbase: {}\n", "sweep.yaml:2:1: base: give either scenario (a file) or base (an inline scenario), not both"},
		{"missing file", "scenario: nope.yaml\n", "sweep.yaml:1:11: scenario: cannot read the scenario: open testdata/nope.yaml: no such file or directory"},
		{"base not a mapping", "base: [1]\n", `sweep.yaml:1:7: base: expected a scenario mapping, got a list`},
		{"unknown scheduler", "scenario: tiny.yaml\nschedulers: [fifo, fare]\n", `sweep.yaml:2:20: schedulers[1]: unknown scheduler "fare" (registered: …`},
		{"bad param", "scenario: tiny.yaml\nschedulers:\n  - {name: fifo, params: {netwrk: fifo}}\n", "sweep.yaml:3:5: schedulers[0]: scheduler fifo: unknown parameter(s) netwrk (known: …"},
		{"duplicate label", "scenario: tiny.yaml\nschedulers: [fifo, {name: fifo, params: {network: fifo}}]\n", `sweep.yaml:2:20: schedulers[1]: label "fifo" is used twice; give each entry its own ` + "`label:`"},
		{"scheduler key", "scenario: tiny.yaml\nschedulers: [{nam: fifo}]\n", `sweep.yaml:2:15: schedulers[0].nam: unknown key "nam" (expected one of: name, params, label, network, network_params)`},
		{"unknown network policy", "scenario: tiny.yaml\nschedulers: [{name: fair, network: varis}]\n", `sweep.yaml:2:14: schedulers[0]: unknown network policy "varis" (registered: aalo, fair, fifo, scf, varys)`},
		{"zero seeds", "scenario: tiny.yaml\nseeds: 0\n", "sweep.yaml:2:8: seeds: expected a number of seeds (1 or more) or a list of seeds, got 0"},
		{"too many seeds", "scenario: tiny.yaml\nschedulers: [fifo, fair]\nseeds: 60000\n",
			"sweep.yaml:3:8: seeds: the sweep would have more than 100000 cells (grid values x schedulers x seeds), the limit"},
		{"huge seed count", "scenario: tiny.yaml\nseeds: 100000000000\n",
			"sweep.yaml:2:8: seeds: the sweep would have more than 100000 cells (grid values x schedulers x seeds), the limit"},
		{"grid of 4e9 cells", "scenario: tiny.yaml\ngrid:\n" + gridOf85(5),
			"sweep.yaml:5:3: grid.cluster.slots_per_machine: the sweep would have more than 100000 cells (grid values x schedulers x seeds), the limit"},
		{"seed 0", "scenario: tiny.yaml\nseeds: [1, 0]\n", "sweep.yaml:2:12: seeds[1]: expected a seed >= 1 (as a scenario's seed)"},
		{"seed twice", "scenario: tiny.yaml\nseeds: [1, 2, 1]\n", "sweep.yaml:2:15: seeds[2]: seed 1 is listed twice"},
		{"negative seed", "scenario: tiny.yaml\nseeds: [-1]\n", "sweep.yaml:2:9: seeds[0]: expected an integer >= 0, got -1"},
		{"seed axis", "scenario: tiny.yaml\ngrid:\n  seed: [1, 2]\n", "sweep.yaml:3:3: grid.seed: seed cannot be a grid key; list the values under `seeds:` instead"},
		{"not a scenario key", "scenario: tiny.yaml\ngrid:\n  clusters.racks: [1, 2]\n", `sweep.yaml:3:3: grid.clusters.racks: "clusters.racks" does not start with a scenario key (one of: name, seed, cluster, network, dfs, engine, knowledge, workload, scheduler, output)`},
		{"misspelled field", "scenario: tiny.yaml\ngrid:\n  cluster.machine_per_rack: [1, 2]\n", `sweep.yaml:3:3: grid.cluster.machine_per_rack: setting it to 1 makes the scenario invalid: cluster.machine_per_rack: unknown key "machine_per_rack"; did you mean "machines_per_rack"? (expected one of: racks, machines_per_rack, slots_per_machine, nic, speed, machines)`},
		{"bad path", "scenario: tiny.yaml\ngrid:\n  workload.jobs[5].arrival: [1s]\n", `sweep.yaml:3:3: grid.workload.jobs[5].arrival: path "workload.jobs[5].arrival": index 5 is out of range (workload.jobs has 2 items)`},
		{"no such param", "scenario: tiny.yaml\nschedulers: [fifo]\ngrid:\n  scheduler.params.skips: [1, 2]\n", `sweep.yaml:4:3: grid.scheduler.params.skips: no scheduler of this sweep has a parameter "skips"`},
		{"empty values", "scenario: tiny.yaml\ngrid:\n  cluster.racks: []\n", "sweep.yaml:3:18: grid.cluster.racks: the list is empty; give at least one value"},
		{"value twice", "scenario: tiny.yaml\ngrid:\n  cluster.racks: [1, 2, 1]\n", "sweep.yaml:3:25: grid.cluster.racks[2]: value 1 is listed twice"},
		{"unknown metric", "scenario: tiny.yaml\nmetrics: [jct.mean, jct.p90]\n", `sweep.yaml:2:21: metrics[1]: unknown metric "jct.p90" (known: bytes.dependent.cross_rack, …`},
		{"metric suggestion", "scenario: tiny.yaml\nmetrics: [cross_rack]\n", `sweep.yaml:2:11: metrics[0]: unknown metric "cross_rack" (did you mean bytes.dependent.cross_rack, bytes.input.cross_rack, bytes.shuffle.cross_rack, bytes.total.cross_rack?)`},
		{"record tasks", "scenario: tiny.yaml\nrecord: {tasks: sometimes}\n", `sweep.yaml:2:17: record.tasks: expected auto, always or never, got "sometimes"`},
		{"baseline", "scenario: tiny.yaml\nreport: {baseline: fair}\n", `sweep.yaml:2:20: report.baseline: "fair" is not one of this sweep's schedulers (fifo)`},
		{"at value", "scenario: tiny.yaml\ngrid: {cluster.racks: [1, 2]}\nreport: {at: {cluster.racks: 3}}\n", "sweep.yaml:3:30: report.at.cluster.racks: 3 is not among the grid's values for cluster.racks"},
		{"bad base scenario", "scenario: bad.yaml\n", `testdata/bad.yaml:3:10: cluster.racks: expected an integer, got "two"`},
		{"syntax", "scenario: [tiny.yaml\n", "sweep.yaml:1:11: sequence end token ']' not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseText(tc.text)
			// "…" ends expectations whose tail lists what is registered today.
			if prefix, open := strings.CutSuffix(tc.want, "…"); open && err != nil && strings.HasPrefix(err.Error(), prefix) {
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// gridOf85 is a grid of n keys of 85 values each (85^5 is 4.4e9 cells).
func gridOf85(n int) string {
	keys := []string{"cluster.racks", "cluster.machines_per_rack", "cluster.slots_per_machine", "dfs.replicas", "engine.parallel_fetches"}
	values := make([]string, 85)
	for i := range values {
		values[i] = fmt.Sprint(i + 1)
	}
	var b strings.Builder
	for _, k := range keys[:n] {
		fmt.Fprintf(&b, "  %s: [%s]\n", k, strings.Join(values, ", "))
	}
	return b.String()
}

// N seeds from the largest seed would wrap around to 0 and 1.
func TestSeedRangeDoesNotWrap(t *testing.T) {
	sw := &Sweep{Base: map[string]any{"seed": uint64(math.MaxUint64)}}
	if got, err := sw.SeedRange(3); err == nil || !strings.Contains(err.Error(), "3 seeds from seed 18446744073709551615 pass the largest seed") {
		t.Errorf("got %v, %v", got, err)
	}
	if got, err := sw.SeedRange(1); err != nil || len(got) != 1 || got[0] != math.MaxUint64 {
		t.Errorf("one seed: %v, %v", got, err)
	}
	sw.Base["seed"] = uint64(math.MaxUint64 - 2)
	if got, err := sw.SeedRange(3); err != nil || got[2] != math.MaxUint64 {
		t.Errorf("up to the largest: %v, %v", got, err)
	}
}
