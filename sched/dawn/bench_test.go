package dawn_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/dawn"
	"github.com/netsched/netsched/sim"
)

// timed measures Dawn's own cost, as Table 5 splits it: the online plan
// (Algorithm 2, run from Observe) and the adaptive scheduler (Algorithms
// 1 and 3, run at each rack heartbeat). The monitor is the engine's and
// costs Dawn nothing here.
type timed struct {
	*dawn.Scheduler
	plan, decide time.Duration
}

func (t *timed) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	start := time.Now()
	t.Scheduler.Observe(v, e, p)
	t.plan += time.Since(start)
}

func (t *timed) RackHeartbeat(v sched.View, rack int, p *sched.Plan) {
	start := time.Now()
	t.Scheduler.RackHeartbeat(v, rack, p)
	t.decide += time.Since(start)
}

// benchScenario is the physical cluster of the catalog (ml-physical.yaml
// and query-physical.yaml) with the first hour of their submissions.
func benchScenario(b *testing.B, workload string) *scenario.Scenario {
	doc := `
cluster: {racks: 6, machines_per_rack: 4, slots_per_machine: 6, nic: 10Gbps}
network: {topology: two-tier, rack_uplink: 500MB/s, rack_downlink: 500MB/s}
engine: {offers: heartbeat}
workload: {generate: workflow, options: {` + workload + `, block: 1GB, bytes_per_reducer: 1GB}}
scheduler: dawn
`
	sc, err := scenario.Parse(b.Name()+".yaml", []byte(doc), ".")
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkDecision is Table 5's overhead in netsched: Dawn's wall-clock
// cost per container given (Algorithms 1 and 3, "µs/decision"), per
// lifecycle event it plans from (Algorithm 2, "µs/event") and in all per
// workflow ("ms/workflow"), over an hour of the catalog's ML and query
// submissions on the physical cluster; and Algorithm 1 alone over n
// candidate jobs (select-n).
//
//	go test ./sched/dawn -run '^$' -bench Decision -benchtime 3x
func BenchmarkDecision(b *testing.B) {
	for _, c := range []struct{ name, workload string }{
		{"ml", "arrival: bursty, span_start: 8h, span_length: 1h"},
		{"query", "count: 132, mix: {tpch: 1}, arrival: uniform, window: 1h"},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := benchScenario(b, c.workload)
			var t *timed
			var events, workflows int
			for b.Loop() {
				t = &timed{Scheduler: dawn.New(dawn.DefaultConfig())}
				r, err := sim.RunWith(sc, t)
				if err != nil {
					b.Fatal(err)
				}
				events, workflows = r.Summary.Events, r.Summary.Workflows.Count
			}
			st := t.Stats()
			b.ReportMetric(float64(t.decide.Microseconds())/float64(st.Decisions), "µs/decision")
			b.ReportMetric(float64(t.plan.Microseconds())/float64(events), "µs/event")
			b.ReportMetric(float64((t.plan+t.decide).Microseconds())/1e3/float64(workflows), "ms/workflow")
		})
	}
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("select-%d", n), func(b *testing.B) {
			cands := make([]dawn.Candidate, n)
			for k := range cands {
				cands[k] = dawn.Candidate{Prefs: []dawn.Preferred{{Rack: k % 6, Traffic: float64(k % 7)}, {Rack: (k + 1) % 6, Traffic: float64(k % 5)}}, Seq: k}
			}
			count := make([]int, 6)
			for b.Loop() {
				clear(count)
				for k := range cands {
					for _, p := range cands[k].Prefs {
						count[p.Rack]++
					}
				}
				dawn.Balance(count, 3, 0)
				dawn.Select(cands, 3, true, true)
			}
		})
	}
}

// BenchmarkFig15Balancing reruns the Dawn cells of the catalog's Fig. 15
// entry and reports how often Algorithm 3 balanced: balancings per
// container given, which sweeps do not record. One run per cell:
//
//	go test ./sched/dawn -run '^$' -bench Fig15Balancing -benchtime 1x
func BenchmarkFig15Balancing(b *testing.B) {
	sw, err := experiment.LoadCatalog("dawn/fig15")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range experiment.Expand(sw) {
		if !strings.HasPrefix(c.Scheduler, "dawn") {
			continue
		}
		b.Run(c.Scheduler+"/"+strings.Join(c.Params, ","), func(b *testing.B) {
			text, err := yaml.Marshal(c.Doc)
			if err != nil {
				b.Fatal(err)
			}
			sc, err := scenario.Parse(c.ID+".yaml", text, ".")
			if err != nil {
				b.Fatal(err)
			}
			var st dawn.Stats
			for b.Loop() {
				s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := sim.RunWith(sc, s); err != nil {
					b.Fatal(err)
				}
				st = s.(*dawn.Scheduler).Stats()
			}
			b.ReportMetric(float64(st.Balances)/float64(st.Decisions), "balancings/decision")
			b.ReportMetric(float64(st.Balances), "balancings")
		})
	}
}
