package experiment

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const expandSweep = `scenario: tiny.yaml
schedulers: [fifo, delay]
seeds: [5, 6]
grid:
  scheduler.params.skips: [0, 3]
  cluster.racks: [1, 2]
`

func TestExpandOrderAndNotApplicable(t *testing.T) {
	sw, err := parseText(expandSweep)
	if err != nil {
		t.Fatal(err)
	}
	cells := Expand(sw)
	// Keys sorted (cluster.racks before scheduler.params.skips), values in
	// file order, then schedulers, then seeds. skips does not apply to fifo,
	// so fifo's cells at skips 3 repeat those at skips 0 and are dropped.
	want := []string{
		"racks=1 skips= fifo 5", "racks=1 skips= fifo 6",
		"racks=1 skips=0 delay 5", "racks=1 skips=0 delay 6",
		"racks=1 skips=3 delay 5", "racks=1 skips=3 delay 6",
		"racks=2 skips= fifo 5", "racks=2 skips= fifo 6",
		"racks=2 skips=0 delay 5", "racks=2 skips=0 delay 6",
		"racks=2 skips=3 delay 5", "racks=2 skips=3 delay 6",
	}
	var got []string
	ids := map[string]bool{}
	for i, c := range cells {
		got = append(got, fmt.Sprintf("racks=%s skips=%s %s %d", c.Params[0], c.Params[1], c.Scheduler, c.Seed))
		if c.Index != i || c.Err != "" {
			t.Errorf("cell %d: index %d, err %q", i, c.Index, c.Err)
		}
		if ids[c.ID] || len(c.ID) != 12 {
			t.Errorf("cell %d: id %q repeated or not 12 hex digits", i, c.ID)
		}
		ids[c.ID] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("cells (-want +got):\n%s", diff)
	}
	// The resolved document of "racks=2 skips=3 delay 5".
	d := cells[10].Doc
	if diff := cmp.Diff(map[string]any{"name": "delay", "params": map[string]any{"skips": uint64(3)}}, d["scheduler"]); diff != "" {
		t.Errorf("scheduler (-want +got):\n%s", diff)
	}
	if d["seed"] != uint64(5) || d["cluster"].(map[string]any)["racks"] != uint64(2) {
		t.Errorf("seed %v, racks %v", d["seed"], d["cluster"].(map[string]any)["racks"])
	}
	// fifo keeps the base's scheduler parameters (none) and gets no skips.
	if diff := cmp.Diff(map[string]any{"name": "fifo"}, cells[0].Doc["scheduler"]); diff != "" {
		t.Errorf("fifo scheduler (-want +got):\n%s", diff)
	}
	if sw.Base["seed"] != uint64(7) {
		t.Error("expansion changed the base document")
	}
}

// A network policy in the base scenario applies to every scheduler of the
// sweep, with its parameters; a scheduler's own parameters stay its own.
func TestExpandKeepsBaseNetworkPolicy(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\nschedulers: [fifo, delay]\n")
	if err != nil {
		t.Fatal(err)
	}
	sw.Base["scheduler"] = map[string]any{"name": "delay", "params": map[string]any{"skips": uint64(2)},
		"network": "scf", "network_params": map[string]any{"first": "1MB"}}
	cells := Expand(sw)
	want := []map[string]any{
		{"name": "fifo", "network": "scf", "network_params": map[string]any{"first": "1MB"}},
		{"name": "delay", "params": map[string]any{"skips": uint64(2)}, "network": "scf", "network_params": map[string]any{"first": "1MB"}},
	}
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(cells), len(want))
	}
	for i, c := range cells {
		if diff := cmp.Diff(want[i], c.Doc["scheduler"]); diff != "" || c.Err != "" {
			t.Errorf("cell %d (%s): err %q, scheduler (-want +got):\n%s", i, c.Scheduler, c.Err, diff)
		}
	}
	cells[0].Doc["scheduler"].(map[string]any)["network_params"].(map[string]any)["first"] = "2MB"
	if sw.Base["scheduler"].(map[string]any)["network_params"].(map[string]any)["first"] != "1MB" {
		t.Error("a cell shares the base's network parameters")
	}
}

func TestCellIDsAreStable(t *testing.T) {
	sw, err := parseText(expandSweep)
	if err != nil {
		t.Fatal(err)
	}
	a, b := Expand(sw), Expand(sw)
	for i := range a {
		if a[i].ID != b[i].ID {
			t.Fatalf("cell %d: ids %s and %s", i, a[i].ID, b[i].ID)
		}
	}
	// Pinned: an id names the same configuration in every version, so that
	// --resume and merge work across machines and releases.
	if a[0].ID != "1d4cb5a9c998" {
		t.Errorf("id of cell 0 = %s; it changed, which breaks resuming older sweeps", a[0].ID)
	}
}

func TestExpandRecordsPathErrorsPerCell(t *testing.T) {
	// The first value is fine (checked at load); the second goes through a
	// scalar, which only the cell can report.
	sw, err := parseText("scenario: tiny.yaml\ngrid:\n  network.monitor: [{interval: 2s}, 5]\n  network.monitor.window: [10s]\n")
	if err != nil {
		t.Fatal(err)
	}
	cells := Expand(sw)
	if len(cells) != 2 || cells[0].Err != "" {
		t.Fatalf("cells %+v", cells)
	}
	if want := `path "network.monitor.window": network.monitor is a value (5), not a mapping or list`; cells[1].Err != want {
		t.Errorf("cell 1 error %q, want %q", cells[1].Err, want)
	}
}

func TestGridCombos(t *testing.T) {
	got := gridCombos([]Axis{{Values: []any{1, 2}}, {Values: []any{"a", "b", "c"}}})
	want := [][]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("combos %v", got)
	}
	if got := gridCombos(nil); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("no grid: %v, want one empty combination", got)
	}
}

func TestValueText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{uint64(3), "3"}, {int64(-2), "-2"}, {0.25, "0.25"}, {"1Gbps", "1Gbps"}, {true, "true"}, {nil, "null"},
		{map[string]any{"b": 1, "a": "x"}, `{"a":"x","b":1}`}, {[]any{1, "y"}, `[1,"y"]`},
	} {
		if got := valueText(tc.v); got != tc.want {
			t.Errorf("valueText(%v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestNonFiniteValuesAreRecordedNotFatal(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\ngrid:\n  network.oversubscription: [2, .inf]\nmetrics: [jobs]\n")
	if err != nil {
		t.Fatal(err)
	}
	o := runSweep(t, sw, Options{})
	if c := o.Manifest.Cells; len(c) != 2 || c[0].Status != "ok" || c[1].Status != "failed" || !strings.Contains(c[1].Error, "network.oversubscription") {
		t.Errorf("cells %+v", c)
	}
	if p := o.Table.Rows[1].Params[0]; p != "+Inf" {
		t.Errorf("parameter column %q, want +Inf", p)
	}
}

func TestExpandEntryNetworkPolicy(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\nschedulers: [fifo, {name: fifo, label: fifo+varys, network: varys, network_params: {order: fifo}}]\n")
	if err != nil {
		t.Fatal(err)
	}
	sw.Base["scheduler"] = map[string]any{"name": "fifo", "network": "scf"}
	want := []map[string]any{
		{"name": "fifo", "network": "scf"},
		{"name": "fifo", "network": "varys", "network_params": map[string]any{"order": "fifo"}},
	}
	cells := Expand(sw)
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(cells), len(want))
	}
	for i, c := range cells {
		if diff := cmp.Diff(want[i], c.Doc["scheduler"]); diff != "" || c.Err != "" {
			t.Errorf("cell %d (%s): err %q, scheduler (-want +got):\n%s", i, c.Scheduler, c.Err, diff)
		}
	}
}
