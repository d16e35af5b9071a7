package pushbox

import (
	"github.com/netsched/netsched/sched"

	_ "github.com/netsched/netsched/sched/queue" // registers delay, which the baselines wrap
)

// The baselines of PushBox's simulation study (§7.3) are package queue's
// delay scheduler with the paper's settings, built through the registry:
//
//	hadoop       Fair queue + delay scheduling + max-min fair network
//	hadoop-fifo  FIFO queue + delay scheduling + network priority by job
//	             order, so a later job never slows an earlier one (Fig. 9b)
//
// Both accept `queues` (passed to delay as is, for multi-queue settings
// whose jobs name their queue) and `skips` (delay's D).
func init() {
	for _, b := range []struct {
		name, desc, policy, network string
	}{
		{"hadoop", "PushBox §7 baseline: Hadoop Fair queue + delay scheduling + max-min fair network (queue's delay)", Fair, "fair"},
		{"hadoop-fifo", "PushBox §7 baseline Hadoop(FIFO): FIFO queue + delay scheduling + network priority by job arrival (queue's delay)", FIFO, "fifo"},
	} {
		sched.Register(sched.Info{
			Name:        b.name,
			Description: b.desc,
			Params: []sched.ParamInfo{
				{Name: "policy", Default: b.policy, Help: "policy of the single queue: fair or fifo (ignored when queues is given)"},
				{Name: "queues", Default: "one queue", Help: "queue tree passed to delay as is (see `delay`)"},
				{Name: "skips", Default: "-1", Help: "delay scheduling's D (see `delay`)"},
			},
			New: func(p *sched.Params) (sched.Scheduler, error) {
				policy := p.String("policy", b.policy, Fair, FIFO)
				params := map[string]any{
					"network": b.network,
					"skips":   p.Int("skips", -1),
					"queues":  []any{map[string]any{"name": "default", "policy": policy}},
				}
				if q, ok := p.Raw("queues"); ok {
					params["queues"] = q
				}
				return sched.NewScheduler("delay", params)
			},
		})
	}
}
