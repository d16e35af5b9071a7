// Package all registers every scheduler and network policy shipped with
// netsched; import it for its side effect. Adding a scheduler or a network
// policy package is one line here.
package all

import (
	_ "github.com/netsched/netsched/sched/nas"
	_ "github.com/netsched/netsched/sched/netpolicy"
	_ "github.com/netsched/netsched/sched/pushbox"
	_ "github.com/netsched/netsched/sched/queue"
	_ "github.com/netsched/netsched/sched/shufflewatcher"
)
