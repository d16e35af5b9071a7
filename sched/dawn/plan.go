package dawn

import "github.com/netsched/netsched/sched"

// The online plan (§3.2, Algorithm 2): for each stage that can place
// tasks, its preferred racks and the cross-rack bytes each would cost.

// argmax is the rack holding the most of data; ties go to the first in the
// rotation starting at rack `from`, so that stages with evenly spread data
// (or none) do not all pick rack 0.
func argmax(data []float64, from int) int {
	n := len(data)
	best := from % n
	for k := 1; k < n; k++ {
		if r := (from + k) % n; data[r] > data[best] {
			best = r
		}
	}
	return best
}

// NextInput is what the greedy dep_reduce (eqs. 5-7) knows of one job y in
// Next_x: the outputs of the jobs of Prev_{x,y} that have finished, per
// rack.
type NextInput struct {
	Known []float64 // bytes per rack
}

// DepCost is eq. 6 for every rack r: the sum over the jobs y of Next_x of
// R_Cost_min^y(In) (eq. 3) when x's output, out bytes, is written in rack
// r next to the finished outputs y also reads (eq. 5).
func DepCost(out float64, next []NextInput, racks int) []float64 {
	cost := make([]float64, racks)
	for _, y := range next {
		total := out
		first, second, top := 0.0, 0.0, -1 // the two largest known racks
		for r, b := range y.Known {
			total += b
			switch {
			case top < 0 || b > first:
				first, second, top = b, first, r
			case b > second:
				second = b
			}
		}
		for r := range cost {
			other := first // the largest rack other than r
			if r == top {
				other = second
			}
			have := out
			if r < len(y.Known) {
				have += y.Known[r]
			}
			cost[r] += total - max(have, other)
		}
	}
	return cost
}

// DepRack is dep_reduce: the rack of least eq. 6 cost; a tie keeps
// max_reduce when it is among the cheapest (no reason to give up
// intermediate locality), else the first in rotation from `from`.
func DepRack(cost []float64, maxReduce, from int) int {
	best := maxReduce
	n := len(cost)
	for k := range n {
		if r := (from + k) % n; cost[r] < cost[best] {
			best = r
		}
	}
	return best
}

// plan chooses u's preferred racks from where its data is now (Algorithm 2
// lines 3-12, and 13-16 when called again for an output stage).
func (s *Scheduler) plan(v sched.View, u *unit) {
	s.uncount(u)
	s.unindex(u)
	defer s.index(u)
	defer s.recount(u)
	old := u.node
	u.locate(v)
	s.register(u, old)
	u.maxRack = argmax(u.data, u.j.seq)
	u.depRack = u.maxRack
	if u.total == 0 {
		// Nothing to read: no rack is better than another, so every rack
		// is preferred at no traffic.
		u.prefs = u.prefs[:0]
		for r := range v.Racks() {
			u.prefs = append(u.prefs, Preferred{Rack: r})
		}
		u.planned = true
		return
	}
	if u.role == output && s.cfg.Dependency {
		u.depRack = DepRack(DepCost(u.out, s.nextInputs(v, u.j), v.Racks()), u.maxRack, u.j.seq)
	}
	u.prefs = append(u.prefs[:0], Preferred{Rack: u.maxRack, Traffic: u.traffic(u.maxRack)})
	if u.depRack != u.maxRack {
		u.prefs = append(u.prefs, Preferred{Rack: u.depRack, Traffic: u.traffic(u.depRack)})
		s.stats.DepPlans++
	}
	u.planned = true
}

// nextInputs is eq. 5's known part for each job y of Next_x: the outputs
// of the finished jobs of Prev_{x,y} (the greedy step: only finished jobs'
// outputs are known).
func (s *Scheduler) nextInputs(v sched.View, j *job) []NextInput {
	var next []NextInput
	for _, y := range s.deps.Next(j.sj.ID()) {
		in := NextInput{Known: make([]float64, v.Racks())}
		for _, z := range s.deps.Prev(j.sj.ID(), y) {
			if out, ok := v.Output(z); ok && out.Done {
				for r, b := range out.ByRack {
					in.Known[r] += b
				}
			}
		}
		next = append(next, in)
	}
	return next
}
