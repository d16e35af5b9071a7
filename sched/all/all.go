// Package all registers every scheduler shipped with netsched; import it
// for its side effect. Adding a scheduler is one line here.
package all

import (
	_ "github.com/netsched/netsched/sched/queue"
)
