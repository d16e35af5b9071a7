package experiment

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
)

// panicky is a broken scheduler: its first decision panics.
type panicky struct{}

func (panicky) Offer(sched.View, int, *sched.Plan) { panic("broken scheduler") }

func init() {
	sched.Register(sched.Define("test-panicky", "panics (experiment tests only)", sched.NoConfig{},
		func(sched.NoConfig) (sched.Scheduler, error) { return panicky{}, nil }))
}

func TestPanickingCellFailsAlone(t *testing.T) {
	sw, err := parseText("scenario: tiny.yaml\nschedulers: [fifo, test-panicky]\nmetrics: [jobs]\n")
	if err != nil {
		t.Fatal(err)
	}
	o := runSweep(t, sw, Options{})
	c := o.Manifest.Cells
	if len(c) != 2 || c[0].Status != "ok" || c[1].Status != "failed" {
		t.Fatalf("cells %+v", c)
	}
	want := "the simulation panicked: broken scheduler (a bug; `netsched run cells/" + c[1].ID + "/scenario.yaml` shows where)"
	if c[1].Error != want {
		t.Errorf("error %q\nwant  %q", c[1].Error, want)
	}
	if o.Table.Rows[0].Value != 2 || !strings.HasPrefix(o.Table.Rows[1].Error, "the simulation panicked") {
		t.Errorf("rows %+v", o.Table.Rows)
	}
}
