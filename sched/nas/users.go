package nas

import (
	"github.com/netsched/netsched/sched/internal/fairlist"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// user is one tenant: its active jobs in arrival order, the tasks it runs
// (Running: its share, for the fairness order), its waiting tasks and its
// skip counters.
type user struct {
	fairlist.Key // Seq: order of first appearance, breaks ties between equal shares
	name         string
	tasks        mapreduce.Tasks

	// Active jobs by arrival number (nil: finished), and the indexes of
	// index.go: jobs with waiting maps (and their output bounds, and how
	// many are unpredicted) and jobs with waiting reducers.
	bySeq              []*job
	active             int
	waitMaps, waitReds seqSet
	outs, lows         jobHeap
	unpredicted        int
	// Jobs that may have a data-local map on a machine (local.go).
	local    map[int]*seqSet
	anyLocal seqSet

	mapSkip, reduceSkip int // D_i^m, D_i^r
}

// userList keeps users in fairness order, "users with less resource have
// higher priority" (§III-C): fewest running tasks first, then first seen.
// NAS is fair between users, not jobs (sw-delay orders jobs in the same
// kind of list).
type userList struct {
	order  fairlist.List[*user]
	byName map[string]*user
}

func (l *userList) get(name string) *user {
	if u := l.byName[name]; u != nil {
		return u
	}
	if l.byName == nil {
		l.byName = map[string]*user{}
	}
	u := &user{name: name, lows: jobHeap{low: true}}
	u.Seq = l.order.Len()
	l.byName[name] = u
	l.order.Add(u)
	return u
}
