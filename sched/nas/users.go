package nas

// user is one tenant: its active jobs in arrival order, the tasks it runs
// (its share, for the fairness order) and its skip counters.
type user struct {
	name    string
	seq     int // order of first appearance: breaks ties between equal shares
	pos     int // index in userList.order
	jobs    []*job
	running int

	waitingMaps, waitingReduces int
	mapSkip, reduceSkip         int // D_i^m, D_i^r
}

// userList keeps users in fairness order, "users with less resource have
// higher priority" (§III-C): fewest running tasks first, then first seen.
// Running counts move by one at a time, so a change re-sorts by moving one
// user a few places instead of sorting every offer.
type userList struct {
	order  []*user
	byName map[string]*user
}

func (l *userList) get(name string) *user {
	if u := l.byName[name]; u != nil {
		return u
	}
	if l.byName == nil {
		l.byName = map[string]*user{}
	}
	u := &user{name: name, seq: len(l.order), pos: len(l.order)}
	l.byName[name] = u
	l.order = append(l.order, u)
	l.moved(u)
	return u
}

func before(a, b *user) bool {
	if a.running != b.running {
		return a.running < b.running
	}
	return a.seq < b.seq
}

// moved restores the order after u's running count changed.
func (l *userList) moved(u *user) {
	o := l.order
	i := u.pos
	for i > 0 && before(u, o[i-1]) {
		o[i] = o[i-1]
		o[i].pos = i
		i--
	}
	for i+1 < len(o) && before(o[i+1], u) {
		o[i] = o[i+1]
		o[i].pos = i
		i++
	}
	o[i] = u
	u.pos = i
}
