package jobpacker_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/corral"
)

// Parameters are typed and checked when a scenario is read: units parse,
// bad values name the parameter.
func TestParams(t *testing.T) {
	if err := sched.CheckSpec("jobpacker", map[string]any{"elephant": "112.5MB", "ocs_bandwidth": "10Gbps", "eps_bandwidth": "3Gbps", "overprovision": 0, "mode": "online"}, "", nil); err != nil {
		t.Errorf("valid parameters rejected: %v", err)
	}
	for params, want := range map[string]map[string]any{
		"reduce_rampup": {"reduce_rampup": 0},
		"slowstart":     {"slowstart": 1.5},
		"sub_batches":   {"sub_batches": 0},
		"mode":          {"mode": "daily"},
		"elephant":      {"elephant": 0},
	} {
		err := sched.CheckSpec("jobpacker", want, "", nil)
		if err == nil || !strings.Contains(err.Error(), params) {
			t.Errorf("%v: error %v, want one naming %s", want, err, params)
		}
	}
	if err := sched.CheckSpec("corral", map[string]any{"eps_bandwidth": 0}, "", nil); err == nil {
		t.Error("corral accepted eps_bandwidth 0")
	}
}
