package pushbox

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/queue"
)

// The baselines of PushBox's simulation study (§7.3) are package queue's
// delay scheduler with the paper's settings:
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
		sched.Register(sched.Define(b.name, b.desc, HadoopConfig{Policy: b.policy, Skips: -1},
			func(c HadoopConfig) (sched.Scheduler, error) {
				d := queue.DefaultDelayConfig()
				d.Network = b.network
				d.Skips = c.Skips
				d.Queues = c.Queues
				if !c.Queues.Given() {
					if err := d.Queues.SetParam([]any{map[string]any{"name": "default", "policy": c.Policy}}); err != nil {
						return nil, err
					}
				}
				return queue.NewDelay(d)
			}))
	}
}

// HadoopConfig is the baselines' parameters.
type HadoopConfig struct {
	Policy string           `param:"policy" choices:"fair|fifo" help:"policy of the single queue: fair or fifo (ignored when queues is given)"`
	Queues queue.FairQueues `param:"queues" help:"queue tree, as delay's"`
	Skips  int              `param:"skips" min:"-1" help:"delay scheduling's D (see delay)"`
}
