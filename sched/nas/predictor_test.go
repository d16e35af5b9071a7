package nas_test

import (
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/nas"
)

func TestPredictorArithmetic(t *testing.T) {
	var p nas.Predictor
	if p.Predicted() || p.Ratio() != 1 || p.Output(64) != 64 {
		t.Fatalf("unpredicted: predicted %v ratio %v output(64) %v, want false, 1, 64", p.Predicted(), p.Ratio(), p.Output(64))
	}
	p.Observe(100, 30)
	p.Observe(100, 50) // mean of ratios 0.3 and 0.5
	if !p.Predicted() || !schedtest.Near(p.Ratio(), 0.4) || !schedtest.Near(p.Output(50), 20) {
		t.Fatalf("after two maps: ratio %v output(50) %v, want 0.4 and 20", p.Ratio(), p.Output(50))
	}
	p.Observe(0, 70) // no input: counts for input-less maps only
	if !schedtest.Near(p.Ratio(), 0.4) || !schedtest.Near(p.Output(0), 50) {
		t.Fatalf("input-less map: ratio %v output(0) %v, want 0.4 and mean output 50", p.Ratio(), p.Output(0))
	}
	for _, c := range []struct {
		s    float64
		want nas.Class
	}{{0, nas.Light}, {999_999, nas.Light}, {1e6, nas.Medium}, {100e6, nas.Medium}, {100e6 + 1, nas.Heavy}} {
		if got := nas.Classify(c.s, 1e6, 100e6); got != c.want {
			t.Errorf("Classify(%g) = %v, want %v", c.s, got, c.want)
		}
	}
}

// ratioProbe records NAS's ratio for job A after each of its maps finishes.
type ratioProbe struct {
	*nas.Scheduler
	before float64
	pred   bool
	after  []float64
}

func (p *ratioProbe) Observe(v sched.View, e sched.Event, pl *sched.Plan) {
	if e.Kind == sched.StageReady && e.Stage.ID() == "map" {
		p.Scheduler.Observe(v, e, pl)
		p.before, p.pred, _, _, _ = p.Prediction(e.Job)
		return
	}
	p.Scheduler.Observe(v, e, pl)
	if e.Kind == sched.TaskFinished && e.Stage.ID() == "map" {
		r, _, _, _, _ := p.Prediction(e.Job)
		p.after = append(p.after, r)
	}
}

// The predictor converges to the true ratio (0.3) as maps complete. Maps
// run one at a time on one container, so the ratio is updated 40 times.
// With exact knowledge the first map gives 0.3; with a ±20% relative error
// on every estimate the mean of the estimated ratios approaches
// 0.3·E[1/(1+e)] ≈ 0.3·1.014, and its error shrinks as maps complete.
func TestPredictorConverges(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps}
dfs: {replicas: 1}
KNOWLEDGE
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 40, input: 10MB, compute: 1s, output_ratio: 0.3}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
scheduler: nas
`
	p := &ratioProbe{Scheduler: nas.New(nas.DefaultConfig())}
	schedtest.Run(t, strings.Replace(doc, "KNOWLEDGE", "", 1), p)
	if p.pred || p.before != 1 {
		t.Fatalf("before any map: ratio %v predicted %v, want 1 and false", p.before, p.pred)
	}
	for i, r := range p.after {
		if !schedtest.Near(r, 0.3) {
			t.Fatalf("exact knowledge: ratio %v after %d maps, want 0.3", r, i+1)
		}
	}
	p = &ratioProbe{Scheduler: nas.New(nas.DefaultConfig())}
	schedtest.Run(t, strings.Replace(doc, "KNOWLEDGE", "knowledge: {model: relative, rate: 0.2}", 1), p)
	if len(p.after) != 40 {
		t.Fatalf("%d ratio updates, want 40", len(p.after))
	}
	errAt := func(k int) float64 { return math.Abs(p.after[k-1] - 0.3) }
	maxErr := func(from, to int) float64 {
		m := 0.0
		for k := from; k <= to; k++ {
			m = math.Max(m, errAt(k))
		}
		return m
	}
	if e := errAt(40); e > 0.3*0.04 {
		t.Fatalf("after 40 maps the ratio is %v, more than 4%% from 0.3", p.after[39])
	}
	if early, late := maxErr(1, 5), maxErr(30, 40); late >= early {
		t.Fatalf("error after 30-40 maps (%v) not below error after 1-5 maps (%v): ratios %v", late, early, p.after)
	}
}
