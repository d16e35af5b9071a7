package cotask

import (
	"math"
	"slices"
)

// Aggregate is Algorithm 3 (task aggregation): it tries to empty the
// hosts used by the cotask, fewest tasks first, and returns the new
// placement (host[j] per task; the input is not modified).
//
// Fewer hosts per cotask leaves more hosts free for the next cotasks. A
// host H is emptied only if every one of its tasks can move to another
// host still used by the cotask without that host finishing later than
// the current CCT; otherwise H keeps all its tasks (the paper's
// all-or-nothing rule, lines 4–9). The CCT therefore never increases. The
// paper leaves the move order and destination open; we move H's tasks
// longest first (the hardest to fit first) and each to the destination
// that it fills closest to the CCT (best fit), ties to the lower host
// index, which keeps room elsewhere for the tasks still to move. Hosts are
// ranked once, by their task count at the start, ties by index.
func Aggregate(in Instance, host []int) ([]int, error) {
	_, M, err := in.dims()
	if err != nil {
		return nil, err
	}
	if err := in.checkPlacement(host); err != nil {
		return nil, err
	}
	h := slices.Clone(host)
	done, count := in.completions(h)
	inUse := make([]bool, M)
	var order []int
	for k, n := range count {
		if n > 0 {
			inUse[k] = true
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return count[a] - count[b] })
	cct := 0.0
	for _, k := range order {
		cct = max(cct, done[k])
	}

	type move struct {
		j, k    int
		oldDone float64
	}
	var moves []move
	var tasks []int
	for _, H := range order {
		tasks = tasks[:0]
		for j, k := range h {
			if k == H {
				tasks = append(tasks, j)
			}
		}
		tasks = in.longestFirst(H, tasks)
		moves = moves[:0]
		ok := true
		for _, j := range tasks {
			best, bestDone := -1, math.Inf(-1)
			for k := 0; k < M; k++ {
				if !inUse[k] || k == H {
					continue
				}
				if d := done[k] + in.Times[j][k]; d <= cct && d > bestDone {
					best, bestDone = k, d
				}
			}
			if best < 0 {
				ok = false
				break
			}
			moves = append(moves, move{j, best, done[best]})
			done[best] = bestDone
		}
		if !ok {
			for i := len(moves) - 1; i >= 0; i-- {
				done[moves[i].k] = moves[i].oldDone
			}
			continue
		}
		for _, mv := range moves {
			h[mv.j] = mv.k
		}
		inUse[H] = false
		done[H] = in.Backlog[H]
		cct = 0
		for k, u := range inUse {
			if u {
				cct = max(cct, done[k])
			}
		}
	}
	return h, nil
}

// Placement is the result of Place.
type Placement struct {
	// Host[j] is the host of task j.
	Host []int
	// CCT is the cotask completion time of Host (seconds).
	CCT float64
	// LowerBound is t* from CCT-LP: no placement finishes before it.
	LowerBound float64
	// RoundedCCT is the CCT after rounding, before aggregation; by
	// Theorem 1 it is at most 2·LowerBound − min_k w_k.
	RoundedCCT float64
	// Queues[k] lists the tasks on host k in run order (longest first).
	Queues [][]int
	// LPSolves and LPIterations are MinCCT's counters.
	LPSolves, LPIterations int
}

// Place runs the whole STSP placement of one cotask: MinCCT, Round
// (Algorithm 2), Aggregate (Algorithm 3), and orders each host's tasks
// longest first (§IV-C). opt may be nil.
func Place(in Instance, opt *Options) (Placement, error) {
	f, err := MinCCT(in, opt)
	if err != nil {
		return Placement{}, err
	}
	rounded, err := Round(in, f)
	if err != nil {
		return Placement{}, err
	}
	host, err := Aggregate(in, rounded)
	if err != nil {
		return Placement{}, err
	}
	pl := Placement{
		Host:         host,
		CCT:          in.cct(host),
		LowerBound:   f.T,
		RoundedCCT:   in.cct(rounded),
		Queues:       make([][]int, len(in.Backlog)),
		LPSolves:     f.LPSolves,
		LPIterations: f.LPIterations,
	}
	for j, k := range host {
		pl.Queues[k] = append(pl.Queues[k], j)
	}
	for k, q := range pl.Queues {
		pl.Queues[k] = in.longestFirst(k, q)
	}
	return pl, nil
}
