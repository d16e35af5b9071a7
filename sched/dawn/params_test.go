package dawn_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/dawn"
)

func TestRegisteredWithTypedParams(t *testing.T) {
	info, ok := sched.Lookup("dawn")
	if !ok {
		t.Fatal("dawn is not registered")
	}
	defaults := map[string]string{}
	for _, p := range info.Params {
		defaults[p.Name] = p.Default
	}
	for name, want := range map[string]string{"balance": "0", "balancing": "true", "dependency": "true", "order": "adaptive", "rack_choice": "any", "starve_after": "0s"} {
		if got, ok := defaults[name]; !ok || got != want {
			t.Errorf("parameter %s: default %q (declared %v), want %q", name, got, ok, want)
		}
	}
	if _, err := sched.NewScheduler("dawn", map[string]any{"balance": 0.4, "order": "most-traffic", "starve_after": "2m"}); err != nil {
		t.Errorf("valid parameters rejected: %v", err)
	}
	for _, bad := range []map[string]any{{"balance": 1.5}, {"balance": -0.1}, {"order": "fifo"}, {"rack_choice": "best"},
		{"starve_after": -1}, {"b": 0.2}, {"dependency": "yes"}} {
		if _, err := sched.NewScheduler("dawn", bad); err == nil || !strings.Contains(err.Error(), "scheduler dawn") {
			t.Errorf("params %v: error %v, want one naming scheduler dawn", bad, err)
		}
	}
}
