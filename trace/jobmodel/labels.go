package jobmodel

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/workload"
)

// Labels assigns users, queues and the recurring flag to jobs, none of
// which the traces record. NAS §IV-A assigns FB-2010 jobs to 200 users at
// random; JobPacker §5.3 marks a random half of the jobs recurring.
type Labels struct {
	Users      int    // 0 leaves User empty ("default")
	UserAssign string // "random" (default) or "round-robin"
	Queues     int    // 0 leaves Queue empty ("default")
	Recurring  float64

	rng *rand.Rand
	n   int
}

// LabelKeys are the option keys ParseLabels reads.
var LabelKeys = []string{"users", "user_assign", "queues", "recurring"}

// ParseLabels reads users, user_assign, queues and recurring; recurring
// defaults to defRecurring (0 for traces, 0.5 for generators).
func ParseLabels(o *Options, defRecurring float64) Labels {
	return Labels{
		Users:      o.Int("users", 0),
		UserAssign: o.Choice("user_assign", "random", "random", "round-robin"),
		Queues:     o.Int("queues", 0),
		Recurring:  o.Fraction("recurring", defRecurring),
	}
}

// Start resets the assignment for a fresh pass; the stream is private to
// labelling so that changing a label option does not change job sizes.
func (l *Labels) Start(seed, stream uint64) {
	l.rng = rand.New(rand.NewPCG(seed, stream))
	l.n = 0
}

// Apply labels the next job. Draws happen in a fixed order (user, queue,
// recurring) and only for the features that are switched on.
func (l *Labels) Apply(j *workload.Job) {
	if l.Users > 0 {
		u := l.n % l.Users
		if l.UserAssign != "round-robin" {
			u = l.rng.IntN(l.Users)
		}
		j.User = fmt.Sprintf("user%d", u)
	}
	if l.Queues > 0 {
		j.Queue = fmt.Sprintf("queue%d", l.rng.IntN(l.Queues))
	}
	if l.Recurring > 0 {
		j.Recurring = l.rng.Float64() < l.Recurring
	}
	l.n++
}
