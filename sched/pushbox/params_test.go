package pushbox_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/pushbox"
)

// Parameters reach the Config; bad ones are errors naming the parameter.
func TestParams(t *testing.T) {
	s, err := sched.NewScheduler("pushbox", map[string]any{
		"m": 5, "policy": "fifo", "small_fifo": "100MB", "locality_delay": 0.5,
		"rate_window": "2s", "rack_local": "on", "ablate": "GP+h", "check": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := s.(*pushbox.Scheduler).Config()
	want := pushbox.Config{M: 5, Policy: "fifo", SmallFIFO: 100e6, LocalityDelay: 0.5, RateWindow: 2,
		RackLocal: "on", Ablation: pushbox.Ablation{GP: true, H: true}, Check: true}
	if got != want {
		t.Fatalf("config %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"m": 0}, "parameter m"},
		{map[string]any{"m": 2.5}, "parameter m"},
		{map[string]any{"policy": "lifo"}, "parameter policy"},
		{map[string]any{"small_fifo": "lots"}, "parameter small_fifo"},
		{map[string]any{"small_fifo": -1}, "parameter small_fifo"},
		{map[string]any{"rate_window": 0}, "parameter rate_window"},
		{map[string]any{"locality_delay": -1}, "parameter locality_delay"},
		{map[string]any{"ablate": "GP+X"}, `unknown "X"`},
		{map[string]any{"rack_local": "maybe"}, "parameter rack_local"},
		{map[string]any{"concurrency": 3}, "unknown parameter(s) concurrency"},
	} {
		_, err := sched.NewScheduler("pushbox", c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error mentioning %q", c.params, err, c.want)
		}
	}
}

// The baselines build through the registry as delay with the paper's
// settings, and run a scenario.
func TestBaselines(t *testing.T) {
	for _, name := range []string{"hadoop", "hadoop-fifo"} {
		if _, err := sched.NewScheduler(name, map[string]any{"skips": 2, "policy": "fair"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := sched.NewScheduler(name, map[string]any{"policy": "lifo"}); err == nil || !strings.Contains(err.Error(), "parameter policy") {
			t.Fatalf("%s: bad policy accepted: %v", name, err)
		}
	}
	// Case 4's baseline again, through hadoop-fifo (delay over a FIFO
	// queue, network priority by job): reducers do no delay scheduling, so
	// the times are those of TestToyCase4's hadoop-fifo row.
	expect(t, "hadoop-fifo", runNamed(t, toyCase4, "hadoop-fifo", nil), map[string]float64{"A": 6, "B": 4.9})
}
