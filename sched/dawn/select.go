package dawn

// Candidate is a job (one of its stages) as Algorithm 1 sees it when a
// machine of some rack has a free container.
type Candidate struct {
	Prefs []Preferred
	// Node is the cross-node bytes the stage would move if it ran on the
	// offered machine: Alg. 1 line 31's node-level tie-break.
	Node float64
	Seq  int // arrival order: the last tie-break
}

// selects reports whether rack is the preferred rack Alg. 1 selects for
// the job, and its traffic: the one of least traffic while the network is
// saturated (line 7), of most traffic otherwise (line 15). Ties are all
// selected.
func (c *Candidate) selects(rack int, saturated bool) (float64, bool) {
	t, in := 0.0, false
	for _, p := range c.Prefs {
		if p.Rack == rack {
			t, in = p.Traffic, true
		}
	}
	if !in {
		return 0, false
	}
	for _, p := range c.Prefs {
		if saturated && p.Traffic < t || !saturated && p.Traffic > t {
			return t, false
		}
	}
	return t, true
}

// key is what Alg. 1 sorts the job by: its selected rack's traffic.
func (c *Candidate) key(saturated bool) float64 {
	k := c.Prefs[0].Traffic
	for _, p := range c.Prefs[1:] {
		if saturated && p.Traffic < k || !saturated && p.Traffic > k {
			k = p.Traffic
		}
	}
	return k
}

// Select is Algorithm 1's job selection for a container in rack `rack`:
// while the network is saturated, jobs in increasing order of the traffic
// of their least-traffic preferred rack, otherwise in decreasing order of
// their most-traffic one; the first job whose selected rack is `rack` wins
// (lines 5-20). With anyRack, the first whose preferred racks contain
// `rack` wins (§3.3.3's wording). Jobs with the same traffic are told apart
// by the node-level data (line 31: least cross-node traffic when
// saturated, most otherwise), then by arrival. It returns the index of the
// chosen candidate, or -1 when no job prefers the rack.
func Select(cands []Candidate, rack int, saturated, anyRack bool) int {
	best, bestKey := -1, 0.0
	for k := range cands {
		c := &cands[k]
		var key float64
		if anyRack {
			if !c.prefersRack(rack) {
				continue
			}
			key = c.key(saturated)
		} else {
			var ok bool
			if key, ok = c.selects(rack, saturated); !ok {
				continue
			}
		}
		if best < 0 || before(key, c, bestKey, &cands[best], saturated) {
			best, bestKey = k, key
		}
	}
	return best
}

func (c *Candidate) prefersRack(rack int) bool {
	for _, p := range c.Prefs {
		if p.Rack == rack {
			return true
		}
	}
	return false
}

// before orders two eligible jobs: by traffic, then node-level traffic, in
// the direction the network state asks for, then by arrival.
func before(ka float64, a *Candidate, kb float64, b *Candidate, saturated bool) bool {
	if ka != kb {
		return saturated == (ka < kb)
	}
	if a.Node != b.Node {
		return saturated == (a.Node < b.Node)
	}
	return a.Seq < b.Seq
}
