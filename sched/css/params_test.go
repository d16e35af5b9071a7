package css_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/css"
)

func TestRegisteredWithParams(t *testing.T) {
	for name, want := range map[string][]string{
		"css": {"starvation", "dtpa", "order", "placement", "improve", "transfer", "lp_tolerance"},
		"stf": {"transfer"},
	} {
		info, ok := sched.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		var names []string
		for _, p := range info.Params {
			names = append(names, p.Name)
		}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("%s parameters %v, want %v", name, names, want)
		}
	}
	if _, err := sched.NewScheduler("css", map[string]any{"starvation": "2h", "dtpa": false, "order": "arrival",
		"placement": "random", "improve": false, "transfer": false, "lp_tolerance": "0.5s"}); err != nil {
		t.Fatalf("valid parameters rejected: %v", err)
	}
}

func TestBadParams(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"starvation": -1}, "starvation"},
		{map[string]any{"starvation": "soon"}, "starvation"},
		{map[string]any{"order": "sjf"}, "order"},
		{map[string]any{"placement": "greedy"}, "placement"},
		{map[string]any{"dtpa": "yes"}, "dtpa"},
		{map[string]any{"lp_tolerance": -0.1}, "lp_tolerance"},
		{map[string]any{"delta": 3}, "delta"},
	} {
		_, err := sched.NewScheduler("css", c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("params %v: error %v, want one naming %s", c.params, err, c.want)
		}
	}
}
