// Package all registers every scheduler and network policy shipped with
// netsched, and has scenario loading check a scenario's scheduler choice
// against them; import it for its side effect. Adding a scheduler or a
// network policy package is one line here.
package all

import (
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"

	_ "github.com/netsched/netsched/sched/corral"
	_ "github.com/netsched/netsched/sched/css"
	_ "github.com/netsched/netsched/sched/dawn"
	_ "github.com/netsched/netsched/sched/jobpacker"
	_ "github.com/netsched/netsched/sched/nas"
	_ "github.com/netsched/netsched/sched/neat"
	_ "github.com/netsched/netsched/sched/netpolicy"
	_ "github.com/netsched/netsched/sched/pushbox"
	_ "github.com/netsched/netsched/sched/queue"
	_ "github.com/netsched/netsched/sched/shufflewatcher"
)

func init() {
	scenario.SetSchedulerCheck(func(s scenario.SchedulerSpec) error {
		return sched.CheckSpec(s.Name, s.Params, s.Network, s.NetworkParams)
	})
}
