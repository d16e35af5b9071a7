package experiment

import (
	"reflect"
	"strings"
	"testing"
)

func TestBaseScenario(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\n")
	if err != nil {
		t.Fatal(err)
	}
	before := deepCopy(sw.Base)
	sc, err := sw.BaseScenario("delay", 7, []string{"scheduler.params.skips=3", "cluster.machines_per_rack=3"})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Scheduler.Name != "delay" || sc.Seed != 7 || sc.Scheduler.Params["skips"] != uint64(3) {
		t.Errorf("scheduler %+v, seed %d", sc.Scheduler, sc.Seed)
	}
	if n := len(sc.Machines); n%3 != 0 {
		t.Errorf("%d machines: machines_per_rack=3 not applied", n)
	}
	sc, err = sw.BaseScenario("delay", 1, []string{"scheduler.name=fair"})
	if err != nil || sc.Scheduler.Name != "fair" {
		t.Errorf("scheduler.name=fair: %v, %v", err, sc)
	}
	for _, bad := range []string{"cluster.racks", "cluster.racks=[", "workload.jobs[99].arrival=1s"} {
		if _, err := sw.BaseScenario("delay", 1, []string{bad}); err == nil || !strings.Contains(err.Error(), "change") {
			t.Errorf("%q: error %v, want one naming the change", bad, err)
		}
	}
	if !reflect.DeepEqual(before, sw.Base) {
		t.Error("BaseScenario changed the sweep's base")
	}
}
