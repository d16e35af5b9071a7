package cotask

import (
	"math"
	"slices"
)

// Improve lowers the CCT of a placement by local search and returns the
// new placement (host[j] per task; the input is not modified). It is not
// one of the paper's steps: Algorithm 2 only guarantees Theorem 1's bound
// 2t* − min_k w_k, and its "arbitrary" choices can stack two long tasks on
// one host where the LP spread them, which a cotask of a few long tasks
// (a reduce stage) pays in full. Improve repairs that between rounding
// and aggregation (Algorithm 3 then gathers tasks without raising the CCT
// again).
//
// Each step takes the host that finishes last (the lowest index among
// ties) and moves one of its tasks, longest first, to the host where it
// finishes earliest, if that is strictly before the last host's current
// completion; it stops when no task of the last host can move so. Every
// step lowers the sorted vector of host completions lexicographically, so
// the search ends; the CCT never rises, so Theorem 1 still holds.
func Improve(in Instance, host []int) ([]int, error) {
	_, M, err := in.dims()
	if err != nil {
		return nil, err
	}
	if err := in.checkPlacement(host); err != nil {
		return nil, err
	}
	h := slices.Clone(host)
	done, count := in.completions(h)
	var tasks []int
	for range len(h) * M { // a bound the search never reaches in practice
		last := -1
		for k, n := range count {
			if n > 0 && (last < 0 || done[k] > done[last]) {
				last = k
			}
		}
		tasks = tasks[:0]
		for j, k := range h {
			if k == last {
				tasks = append(tasks, j)
			}
		}
		moved := false
		for _, j := range in.longestFirst(last, tasks) {
			best, bestDone := -1, done[last]
			for k := range M {
				if k == last || math.IsInf(in.Times[j][k], 1) {
					continue
				}
				if d := done[k] + in.Times[j][k]; d < bestDone {
					best, bestDone = k, d
				}
			}
			if best < 0 {
				continue
			}
			done[last] -= in.Times[j][last]
			count[last]--
			if count[last] == 0 {
				done[last] = in.Backlog[last] // exact, no summation residue
			}
			done[best] = bestDone
			count[best]++
			h[j] = best
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	return h, nil
}
