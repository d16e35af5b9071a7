package dawn

// The decision index: Algorithm 1's choice among the live
// units (planned, tasks waiting) without visiting each of them. Per rack
// and network state, the units eligible there are kept sorted by what
// Select compares before the machine is known: their key (the traffic of
// the rack Alg. 1 selects for them), their cross-node bytes on a machine
// holding none of their data (Node = total), arrival and join order. Only
// the units with data on the offered machine (byMachine) have another
// Node there, and they are few; they are compared one by one.

// maxLevel bounds the skip lists' height (4^12 entries before it matters).
const maxLevel = 12

// slNode is a unit in one sorted set. a and b are the key and the Node
// off its data, negated for the unsaturated order so that smaller always
// goes first.
type slNode struct {
	slKey
	u    *unit
	next []*slNode
}

type slKey struct {
	a, b     float64
	seq, ord int
}

// precedes is Select's order (before) on the transformed keys, ending with
// the join order where Select keeps the earlier of two equal candidates.
func (x *slKey) precedes(y *slKey) bool {
	if x.a != y.a {
		return x.a < y.a
	}
	if x.b != y.b {
		return x.b < y.b
	}
	if x.seq != y.seq {
		return x.seq < y.seq
	}
	return x.ord < y.ord
}

// skiplist is a sorted set of units. Its random levels only shape the
// lists, never the order, so a fixed seed is fine.
type skiplist struct {
	head  slNode
	level int
	rnd   uint64
}

func newSkiplist() *skiplist {
	return &skiplist{head: slNode{next: make([]*slNode, maxLevel)}, level: 1, rnd: 0x9e3779b97f4a7c15}
}

func (l *skiplist) randomLevel() int {
	lv := 1
	for lv < maxLevel {
		l.rnd ^= l.rnd << 13
		l.rnd ^= l.rnd >> 7
		l.rnd ^= l.rnd << 17
		if l.rnd&3 != 0 {
			break
		}
		lv++
	}
	return lv
}

func (l *skiplist) insert(key slKey, u *unit) {
	var update [maxLevel]*slNode
	x := &l.head
	for i := l.level - 1; i >= 0; i-- {
		for x.next[i] != nil && x.next[i].precedes(&key) {
			x = x.next[i]
		}
		update[i] = x
	}
	lv := l.randomLevel()
	for i := l.level; i < lv; i++ {
		update[i] = &l.head
	}
	l.level = max(l.level, lv)
	n := &slNode{slKey: key, u: u, next: make([]*slNode, lv)}
	for i := range lv {
		n.next[i] = update[i].next[i]
		update[i].next[i] = n
	}
}

// remove takes u, inserted with key, out.
func (l *skiplist) remove(key slKey, u *unit) {
	var update [maxLevel]*slNode
	x := &l.head
	for i := l.level - 1; i >= 0; i-- {
		for x.next[i] != nil && x.next[i].precedes(&key) {
			x = x.next[i]
		}
		update[i] = x
	}
	n := x.next[0]
	if n == nil || n.u != u {
		panic("dawn: decision index lost a unit")
	}
	for i := range n.next {
		update[i].next[i] = n.next[i]
	}
	for l.level > 1 && l.head.next[l.level-1] == nil {
		l.level--
	}
}

// index is the sorted sets of one owner: every live unit without fair
// users, one user's with them. sets[r][d] holds the units eligible for
// rack r in direction d (0 saturated, 1 not); sets[racks][d] those
// eligible for every rack (a unit with nothing to read prefers them all),
// kept once instead of once per rack.
type index struct {
	sets [][2]*skiplist
}

func newIndex(racks int) *index {
	ix := &index{sets: make([][2]*skiplist, racks+1)}
	for r := range ix.sets {
		ix.sets[r] = [2]*skiplist{newSkiplist(), newSkiplist()}
	}
	return ix
}

// member is one set holding a unit, and the unit's key there.
type member struct {
	l   *skiplist
	key slKey
}

// dirOf is the index direction of a network state.
func dirOf(saturated bool) int {
	if saturated {
		return 0
	}
	return 1
}

// extreme is the unit's key in direction d: the traffic of its
// least-traffic preferred rack (saturated) or most-traffic one, negated
// for the latter.
func (u *unit) extreme(d int) float64 {
	k := u.prefs[0].Traffic
	for _, p := range u.prefs[1:] {
		if d == 0 && p.Traffic < k || d == 1 && p.Traffic > k {
			k = p.Traffic
		}
	}
	if d == 1 {
		return -k
	}
	return k
}

// sign turns a Node into its direction's ascending order.
func sign(x float64, d int) float64 {
	if d == 1 {
		return -x
	}
	return x
}

// eligible reports whether Select would consider u for rack r in
// direction d: r is preferred (rack_choice any) or is the rack Alg. 1
// selects for u (selected).
func (s *Scheduler) eligible(u *unit, r, d int) bool {
	if u.every[d] {
		return true
	}
	for _, p := range u.prefs {
		if p.Rack == r {
			return s.anyRack || sign(p.Traffic, d) == u.ka[d]
		}
	}
	return false
}

// ownerIndex is the index u belongs to.
func (s *Scheduler) ownerIndex(u *unit) *index {
	if !s.cfg.FairUsers {
		if s.idx == nil {
			s.idx = newIndex(len(s.count))
		}
		return s.idx
	}
	if u.j.u.idx == nil {
		u.j.u.idx = newIndex(len(s.count))
	}
	return u.j.u.idx
}

// index adds u to the decision index if it is live: planned, with tasks
// waiting, not finished.
func (s *Scheduler) index(u *unit) {
	if u.inIdx || !u.planned || u.left || u.st.WaitingCount() == 0 {
		return
	}
	ix := s.ownerIndex(u)
	racks := len(s.count)
	u.mem = u.mem[:0]
	for _, d := range s.dirs {
		u.ka[d] = u.extreme(d)
		u.kb[d] = sign(max(0, u.total), d)
		n := 0
		for _, p := range u.prefs {
			if s.anyRack || sign(p.Traffic, d) == u.ka[d] {
				n++
			}
		}
		u.every[d] = n == racks
		key := slKey{a: u.ka[d], b: u.kb[d], seq: u.j.seq, ord: u.ord}
		if u.every[d] {
			u.enter(ix.sets[racks][d], key)
			continue
		}
		for _, p := range u.prefs {
			if s.anyRack || sign(p.Traffic, d) == u.ka[d] {
				u.enter(ix.sets[p.Rack][d], key)
			}
		}
	}
	u.inIdx = true
	s.nlive++
	s.indexStarve(u)
}

func (u *unit) enter(l *skiplist, key slKey) {
	l.insert(key, u)
	u.mem = append(u.mem, member{l, key})
}

// indexStarve adds live u to the starvation guard's sets: per preferred
// rack (or every rack), in the guard's order, longest unserved first,
// then earlier.
func (s *Scheduler) indexStarve(u *unit) {
	if s.cfg.StarveAfter <= 0 {
		return
	}
	racks := len(s.count)
	if s.starve == nil {
		s.starve = make([]*skiplist, racks+1)
		for r := range s.starve {
			s.starve[r] = newSkiplist()
		}
	}
	// (lastServed, seq, stage index) is earlier's order, ord only tells
	// the one entry apart
	key := slKey{a: u.lastServed, b: float64(u.j.seq), seq: u.st.Index(), ord: u.ord}
	u.smem = u.smem[:0]
	if len(u.prefs) == racks {
		u.smem = append(u.smem, member{s.starve[racks], key})
	} else {
		for _, p := range u.prefs {
			u.smem = append(u.smem, member{s.starve[p.Rack], key})
		}
	}
	for _, m := range u.smem {
		m.l.insert(m.key, u)
	}
}

func (s *Scheduler) unindexStarve(u *unit) {
	for _, m := range u.smem {
		m.l.remove(m.key, u)
	}
	u.smem = u.smem[:0]
}

// served records that u got a container at now.
func (s *Scheduler) served(u *unit, now float64) {
	if u.lastServed == now {
		return
	}
	u.lastServed = now
	if u.inIdx && s.cfg.StarveAfter > 0 {
		s.unindexStarve(u)
		s.indexStarve(u)
	}
}

// starveFirst is the unit the starvation guard would take in rack if
// any does: of those preferring it, the one served longest ago.
func (s *Scheduler) starveFirst(rack int) *unit {
	if s.starve == nil {
		return nil
	}
	a, e := s.starve[rack].head.next[0], s.starve[len(s.starve)-1].head.next[0]
	switch {
	case a == nil && e == nil:
		return nil
	case a == nil:
		return e.u
	case e == nil || a.precedes(&e.slKey):
		return a.u
	}
	return e.u
}

// unindex takes u out of the decision index.
func (s *Scheduler) unindex(u *unit) {
	if !u.inIdx {
		return
	}
	for _, m := range u.mem {
		m.l.remove(m.key, u)
	}
	u.mem = u.mem[:0]
	s.unindexStarve(u)
	u.inIdx = false
	s.nlive--
}

// register lists u under each machine holding its data that old (its
// previous plan's node map) did not hold; entries the new plan dropped
// are dropped when next read.
func (s *Scheduler) register(u *unit, old map[int]float64) {
	for m := range u.node {
		if _, ok := old[m]; ok && u.inMachines {
			continue
		}
		s.byMachine[m] = append(s.byMachine[m], u)
	}
	u.inMachines = true
}

// best is the candidate pick keeps: a live unit and its place in Select's
// order for the offered machine.
type best struct {
	u    *unit
	b    float64
	seq  int
	ord  int
	have bool
}

func (c *best) offer(u *unit, b float64) {
	if !c.have || b < c.b || b == c.b && (u.j.seq < c.seq || u.j.seq == c.seq && u.ord < c.ord) {
		*c = best{u: u, b: b, seq: u.j.seq, ord: u.ord, have: true}
	}
}

// pick is Select over ix's units for machine m of rack, skipping those
// this decision excluded (their waiting tasks are pinned elsewhere); usr
// restricts the machine's units to one user (fair_users).
func (s *Scheduler) pick(ix *index, usr *user, rack, m int, saturated bool) *unit {
	if ix == nil {
		return nil
	}
	d := dirOf(saturated)
	lists := [2]*skiplist{ix.sets[rack][d], ix.sets[len(ix.sets)-1][d]}
	// the best key among the eligible units
	var key float64
	found := false
	for _, l := range lists {
		for n := l.head.next[0]; n != nil; n = n.next[0] {
			if n.u.excluded == s.stamp {
				continue
			}
			if !found || n.a < key {
				key, found = n.a, true
			}
			break
		}
	}
	if !found {
		return nil
	}
	// the first of that key in each list with no data on m: Node = total
	var c best
	for _, l := range lists {
		for n := l.head.next[0]; n != nil && n.a <= key; n = n.next[0] {
			if n.a < key || n.u.excluded == s.stamp {
				continue // excluded, or before the key only when excluded
			}
			if _, ok := n.u.node[m]; ok {
				continue
			}
			c.offer(n.u, n.b)
			break
		}
	}
	// the units with data on m, at their Node there
	list := s.byMachine[m]
	keep := list[:0]
	for _, u := range list {
		nm, ok := u.node[m]
		if !ok || u.left || u.st.WaitingCount() == 0 {
			continue // re-planned elsewhere or placed in full: never live here again
		}
		keep = append(keep, u)
		if !u.inIdx || u.excluded == s.stamp || usr != nil && u.j.u != usr ||
			u.ka[d] != key || !s.eligible(u, rack, d) {
			continue
		}
		c.offer(u, sign(max(0, u.total-nm), d))
	}
	clear(list[len(keep):])
	s.byMachine[m] = keep
	return c.u
}
