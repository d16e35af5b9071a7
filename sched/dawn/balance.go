package dawn

// Balance is Algorithm 3 for a container in rack `rack`: prefCount[r]
// counts the jobs that prefer rack r (P_r). When no job prefers the rack, or fewer
// than b x P_max do, the rack with the most preferences is a hotspot and
// one of its jobs should also prefer `rack`. It returns the hotspot, or -1
// when the plan is balanced enough.
//
// With b = 0 the paper balances "only when P_i = 0" (§3.3.2), although
// line 6 read literally (return when P_max x b <= P_i) would then never
// balance; the condition here is that sentence's: balance when P_i = 0 or
// P_i < b x P_max.
func Balance(prefCount []int, rack int, b float64) int {
	hot := 0
	for r, n := range prefCount {
		if n > prefCount[hot] {
			hot = r
		}
	}
	pi, pmax := prefCount[rack], prefCount[hot]
	if pmax == 0 || hot == rack || pi > 0 && float64(pi) >= b*float64(pmax) {
		return -1
	}
	return hot
}

// mover is the job of the hotspot that takes the extra rack: among those
// preferring hot, the one whose traffic in `rack` is least (it costs the
// network least to move), then the earliest.
func mover(units []*unit, hot, rack int) int {
	best := -1
	for k, u := range units {
		if u.prefers(rack) || !u.prefers(hot) {
			continue
		}
		if best < 0 || u.traffic(rack) < units[best].traffic(rack) ||
			u.traffic(rack) == units[best].traffic(rack) && earlier(u, units[best]) {
			best = k
		}
	}
	return best
}

// earlier orders stages by their job's arrival, then stage index.
func earlier(a, b *unit) bool {
	if a.j.seq != b.j.seq {
		return a.j.seq < b.j.seq
	}
	return a.st.Index() < b.st.Index()
}
