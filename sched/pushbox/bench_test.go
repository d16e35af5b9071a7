package pushbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// benchWorkload is jobs x (maps + reducers): 128 MB maps with 3 replicas
// and reducers behind a 5% slow-start, perSecond jobs arriving per second
// from 0, faster than the cluster drains them, so that over a thousand
// tasks wait.
func benchWorkload(machines, jobs, perSecond, maps, reducers int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: 10, slots_per_machine: 20, nic: 10Gbps}\n", machines/10)
	b.WriteString("network: {topology: two-tier}\nworkload:\n  jobs:\n")
	for j := range jobs {
		fmt.Fprintf(&b, "    - id: j%d\n      arrival: %ds\n      stages:\n", j, j/perSecond)
		fmt.Fprintf(&b, "        - {id: map, count: %d, input: 128MB, compute: {dist: uniform, min: 2s, max: 6s}, output_ratio: %g}\n", maps, 0.2+0.1*float64(j%7))
		fmt.Fprintf(&b, "        - {id: reduce, after: [{stage: map, slowstart: 0.05}], count: %d, share: {dist: zipf, exponent: 1}, compute: 2s}\n", reducers)
	}
	b.WriteString("scheduler: pushbox\n")
	return b.String()
}

// probe runs PushBox until a slot-change opportunity finds at least
// minWaiting waiting tasks and a free slot, then hands the live View to
// bench, and stops the run.
type probe struct {
	*Scheduler
	minWaiting int
	bench      func(v sched.View, m int)
	done       bool
}

func (p *probe) Schedule(v sched.View, o sched.Opportunity, plan *sched.Plan) {
	if !p.done && !o.TaskArrival && v.WaitingTasks() >= p.minWaiting {
		for _, m := range o.SlotChanged {
			if v.Machine(m).Free() > 0 {
				p.done = true
				p.Scheduler.sampleRates(v)
				p.bench(v, m)
				_ = plan.Place(sched.Task{}, m) // an invalid placement ends the run
				return
			}
		}
	}
	p.Scheduler.Schedule(v, o, plan)
}

// BenchmarkDecision times one slot-change decision (Algorithm 2 for one
// free slot: job order, selectTask per job, canBePlaced / notHinderTask)
// with over a thousand waiting tasks, at 20 and 100 machines of 20 slots.
// The paper reports 35-50 us per decision (§7.4).
func BenchmarkDecision(b *testing.B) {
	for _, c := range []struct{ machines, jobs, perSecond int }{{20, 60, 4}, {100, 200, 16}} {
		b.Run(fmt.Sprintf("machines=%d", c.machines), func(b *testing.B) {
			sc, err := scenario.Parse("bench.yaml", []byte(benchWorkload(c.machines, c.jobs, c.perSecond, 40, 8)), ".")
			if err != nil {
				b.Fatal(err)
			}
			ran := false
			p := &probe{Scheduler: New(DefaultConfig()), minWaiting: 1000}
			p.bench = func(v sched.View, m int) {
				ran = true
				var jobs []*jobState
				var skips []int
				for _, j := range v.Jobs() {
					jobs = append(jobs, p.Scheduler.jobs[j])
					skips = append(skips, p.Scheduler.jobs[j].skips)
				}
				var got sched.Task
				for b.Loop() {
					p.Scheduler.begin()
					got = p.Scheduler.slotChange(v, m)
					for i, js := range jobs { // keep delay scheduling's state fixed
						js.skips = skips[i]
					}
				}
				b.ReportMetric(float64(v.WaitingTasks()), "waiting")
				b.ReportMetric(float64(v.NumJobs()), "jobs")
				if got.IsZero() {
					b.ReportMetric(0, "placed")
				} else {
					b.ReportMetric(1, "placed")
				}
			}
			_, _ = sim.RunWith(sc, p) // ends with the probe's invalid placement
			if !ran {
				b.Fatal("the run never reached 1000 waiting tasks with a free slot")
			}
		})
	}
}
