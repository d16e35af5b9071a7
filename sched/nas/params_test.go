package nas_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/nas"
)

func TestRegisteredWithParams(t *testing.T) {
	info, ok := sched.Lookup("nas")
	if !ok {
		t.Fatal("nas is not registered")
	}
	var names []string
	for _, p := range info.Params {
		names = append(names, p.Name)
	}
	for _, want := range []string{"map_skips", "reduce_skips", "congestion_threshold", "light_shuffle", "heavy_shuffle", "small_input", "traffic_threshold", "ca_rts", "cr_rts"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("parameter %s missing from %v", want, names)
		}
	}
	if _, err := sched.NewScheduler("nas", map[string]any{"light_shuffle": "2MB", "map_skips": 10, "cr_rts": false}); err != nil {
		t.Fatalf("valid parameters rejected: %v", err)
	}
}

func TestBadParams(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"congestion_threshold": 1.5}, "congestion_threshold"},
		{map[string]any{"map_skips": -1}, "map_skips"},
		{map[string]any{"map_skips": 2.5}, "map_skips"},
		{map[string]any{"light_shuffle": "a lot"}, "light_shuffle"},
		{map[string]any{"light_shuffle": "200MB"}, "heavy_shuffle"},
		{map[string]any{"shuffle_size": "guessed"}, "shuffle_size"},
		{map[string]any{"threshold_interval": 0}, "threshold_interval"},
		{map[string]any{"ca_rts": "yes"}, "ca_rts"},
		{map[string]any{"d_map": 3}, "d_map"},
	} {
		_, err := sched.NewScheduler("nas", c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("params %v: error %v, want one naming %s", c.params, err, c.want)
		}
	}
}
