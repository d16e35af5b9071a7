package cotask

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/lp"
)

// Options tune MinCCT. The zero value (or nil) asks for the exact bound.
type Options struct {
	// Tol, in seconds, lets the search stop early: once the bracket
	// around t* is narrower than Tol, MinCCT returns the feasible upper
	// end T of the bracket, so T − Tol < t* ≤ T, with a fractional
	// placement feasible at T (Theorem 1 then holds against T). 0 (the
	// default) gives t* exactly; that costs only a few more warm-started
	// LP solves, because the search is over breakpoints and ends with an
	// exact LP, not over a continuum.
	Tol float64
}

// Fractional is the solution of CCT-LP at its lower bound.
type Fractional struct {
	// T is the CCT lower bound t* (seconds).
	T float64
	// X[j][k] is the fraction of task j on host k: non-negative, each row
	// sums to 1, X[j][k] > 0 only if w_k + t_jk <= T, and
	// w_k + Σ_j t_jk X[j][k] <= T for every host used. X is a vertex
	// solution, so its support is a pseudo-forest (Lemma 1, Corollary 1).
	X [][]float64
	// LPSolves and LPIterations count the LPs solved and their simplex
	// iterations, for diagnostics and benchmarks.
	LPSolves, LPIterations int
}

// MinCCT computes t*, the smallest t for which CCT-LP is feasible, and a
// fractional placement feasible at t*.
//
// CCT-LP at a fixed t has variables x_jk >= 0 for the pairs with
// w_k + t_jk <= t only, rows Σ_k x_jk = 1 per task and
// w_k + Σ_j t_jk x_jk <= t per host that has such a pair (see the package
// comment for why hosts without one are left out). Feasibility is
// monotone in t. The paper bisects on t with a feasibility LP per step; we
// use the structure to get t* exactly with fewer and cheaper LPs:
//
//   - The pair set changes only at the breakpoints b = w_k + t_jk; on
//     [b_i, b_{i+1}) it is A(b_i). So feasibility is tested at breakpoints
//     only, and once b_h, the first feasible one, is known, t* is the
//     optimum of one more LP, "minimise t >= b_{h−1} over x on A(b_{h−1})",
//     if that is below b_h, and b_h otherwise. No bisection tolerance is
//     involved. (That LP's host rows imply t >= w_k, harmless because
//     every host with a pair in A(b_{h−1}) has w_k <= b_{h−1}.)
//   - The greedy placement (longest task first, each to the host where it
//     finishes first) gives ub >= t*; only pairs with w_k + t_jk <= ub
//     enter the LP and only breakpoints in [max_j min_k (w_k+t_jk), ub]
//     are candidates. If the greedy CCT equals that lower bound, it is
//     optimal and no LP is solved.
//   - The search walks down from ub with doubling steps while the probes
//     are feasible, then bisects. On these instances t* is usually close
//     to ub, and a feasible probe costs a few pivots where proving
//     infeasibility far below t* costs hundreds. A feasible probe's
//     placement may also prove a lower breakpoint feasible at no cost
//     (probe.shrink).
//   - Probes fix t at the breakpoint, which makes them pure phase-1
//     feasibility problems and keeps t's dense column (−1 in every host
//     row) out of the basis, so pivots stay sparse.
//
// One lp.Solver holds the LP throughout; each probe changes only bounds
// and right-hand sides and re-solves warm from the previous basis, and
// the first starts from the greedy placement (lp.Solver.SetStart).
//
// Times are scaled by a power of two before they reach the LP, which
// changes no bits of the result and keeps the LP's numbers near 1.
func MinCCT(in Instance, opt *Options) (Fractional, error) {
	T, M, err := in.dims()
	if err != nil {
		return Fractional{}, err
	}
	tol := 0.0
	if opt != nil {
		if math.IsNaN(opt.Tol) || opt.Tol < 0 {
			return Fractional{}, invalid("Options.Tol is %v, want >= 0", opt.Tol)
		}
		tol = opt.Tol
	}
	taskLB, err := in.taskBounds()
	if err != nil {
		return Fractional{}, err
	}
	lb := slices.Max(taskLB)
	gr := greedy(in)
	ub := in.cct(gr)
	if ub == lb {
		// The greedy placement meets the lower bound: it is optimal for
		// the ILP, hence t* = lb, and an integral x is a vertex.
		f := Fractional{T: ub, X: make([][]float64, T)}
		for j, k := range gr {
			f.X[j] = make([]float64, M)
			f.X[j][k] = 1
		}
		return f, nil
	}
	_, e := math.Frexp(ub)
	scale := math.Ldexp(1, e) // power of two > ub: exact to divide by
	p := newProbe(in, ub, scale)
	lbS, ubS, tolS := lb/scale, ub/scale, tol/scale
	np := len(p.pairB)

	B := p.breaks
	first, _ := slices.BinarySearch(B, lbS)
	B = B[first:] // candidates: breakpoints in [lb, ub]
	n := len(B)

	// Feasible end of the bracket: index n stands for ub itself, feasible
	// with the greedy placement.
	hi, hiX := n, make([]float64, np)
	for q := range hiX {
		if gr[p.pairJ[q]] == p.pairK[q] {
			hiX[q] = 1
		}
	}
	if B[n-1] == ubS {
		hi = n - 1
	}
	val := func(i int) float64 {
		if i == n {
			return ubS
		}
		return B[i]
	}

	// Walk down from ub with doubling steps while feasible, then bisect.
	if err := p.s.SetStart(append(slices.Clone(hiX), 0)); err != nil {
		return Fractional{}, err
	}
	lo, step := -1, 1
	for hi-lo > 1 {
		if tolS > 0 && val(hi)-max(lbS, bAt(B, lo)) <= tolS {
			return p.result(hiX, val(hi), scale), nil
		}
		mid := lo + (hi-lo)/2
		if step > 0 {
			mid = max(hi-step, mid)
		}
		ok, xm, err := p.feasible(B[mid])
		if err != nil {
			return Fractional{}, err
		}
		if !ok {
			lo, step = mid, 0
			continue
		}
		// xm may prove a smaller t feasible: the largest breakpoint it uses
		// and the latest host it loads.
		hi, hiX = max(p.shrink(B, mid, xm), lo+1), xm
		if step > 0 {
			step *= 2
		}
	}
	if lo < 0 {
		return p.result(hiX, B[0], scale), nil // t* >= lb = B[0]
	}
	// t* lies in (B[lo], val(hi)], where the pair set is A(B[lo]); the
	// probe solver's basis is feasible or nearly so there.
	g, x, err := p.minT(B[lo])
	if err != nil {
		return Fractional{}, err
	}
	if g < val(hi) {
		return p.result(x, g, scale), nil
	}
	return p.result(hiX, val(hi), scale), nil
}

// bAt is B[i], or 0 for i = -1 (nothing known below).
func bAt(B []float64, i int) float64 {
	if i < 0 {
		return 0
	}
	return B[i]
}

// greedy places tasks longest first (by their fastest time), each on the
// host where it would complete earliest. Its CCT bounds t* from above.
func greedy(in Instance) []int {
	T, M := len(in.Times), len(in.Backlog)
	fast := make([]float64, T)
	order := make([]int, T)
	for j, row := range in.Times {
		fast[j] = slices.Min(row)
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case fast[a] > fast[b]:
			return -1
		case fast[a] < fast[b]:
			return 1
		}
		return 0
	})
	done := slices.Clone(in.Backlog)
	host := make([]int, T)
	for _, j := range order {
		best := -1
		for k := 0; k < M; k++ {
			if c := done[k] + in.Times[j][k]; !math.IsInf(c, 1) && (best < 0 || c < done[best]+in.Times[j][best]) {
				best = k
			}
		}
		host[j] = best
		done[best] += in.Times[j][best]
	}
	return host
}

// probe is the CCT-LP of one cotask over the candidate pairs (variables:
// one per pair, then t; rows: one per task, then one per host), held in
// one lp.Solver that keeps its basis across the search.
type probe struct {
	T, M    int
	pairJ   []int     // task of pair p
	pairK   []int     // host of pair p
	pairB   []float64 // scaled breakpoint w_k + t_jk of pair p
	pairT   []float64 // scaled time t_jk of pair p
	hostMin []float64 // smallest breakpoint of host k (+Inf if none)
	w       []float64 // scaled backlog
	breaks  []float64 // sorted distinct breakpoints
	s       *lp.Solver
	load    []float64 // scratch for shrink
	solves  int
	iters   int
}

func newProbe(in Instance, ub, scale float64) *probe {
	T, M := len(in.Times), len(in.Backlog)
	p := &probe{T: T, M: M, w: make([]float64, M), hostMin: make([]float64, M)}
	for k := range p.w {
		p.w[k] = in.Backlog[k] / scale
		p.hostMin[k] = math.Inf(1)
	}
	ubS := ub / scale
	for j, row := range in.Times {
		for k, t := range row {
			b := p.w[k] + t/scale
			if b <= ubS {
				p.pairJ = append(p.pairJ, j)
				p.pairK = append(p.pairK, k)
				p.pairB = append(p.pairB, b)
				p.pairT = append(p.pairT, t/scale)
				p.hostMin[k] = min(p.hostMin[k], b)
			}
		}
	}
	p.breaks = slices.Clone(p.pairB)
	slices.Sort(p.breaks)
	p.breaks = slices.Compact(p.breaks)

	np := len(p.pairJ)
	prob := &lp.Problem{Obj: make([]float64, np+1)}
	prob.Obj[np] = 1 // minimise t
	task := make([]lp.Row, T)
	host := make([]lp.Row, M)
	for j := range task {
		task[j] = lp.Row{Sense: lp.EQ, RHS: 1}
	}
	for k := range host {
		host[k] = lp.Row{Sense: lp.LE, RHS: math.Inf(1)}
	}
	for q := 0; q < np; q++ {
		j, k := p.pairJ[q], p.pairK[q]
		task[j].Ind = append(task[j].Ind, q)
		task[j].Val = append(task[j].Val, 1)
		host[k].Ind = append(host[k].Ind, q)
		host[k].Val = append(host[k].Val, p.pairT[q])
	}
	for k := range host {
		host[k].Ind = append(host[k].Ind, np)
		host[k].Val = append(host[k].Val, -1)
	}
	prob.Rows = append(task, host...)
	// The problem is valid by construction (validated input, finite
	// scaled data), so NewSolver cannot fail.
	p.s, _ = lp.NewSolver(prob, nil)
	p.load = make([]float64, M)
	return p
}

// setPairs restricts the LP to the pair set A(b): pairs with a larger
// breakpoint are fixed at zero, and hosts without an allowed pair have
// their row switched off.
func (p *probe) setPairs(b float64) {
	inf := math.Inf(1)
	for q, pb := range p.pairB {
		hi := 0.0
		if pb <= b {
			hi = inf
		}
		p.s.SetBounds(q, 0, hi)
	}
	for k, hm := range p.hostMin {
		rhs := inf
		if hm <= b {
			rhs = -p.w[k]
		}
		p.s.SetRHS(p.T+k, rhs)
	}
}

// feasible tests CCT-LP at t = b. With t fixed the LP is a pure
// feasibility problem, decided by the solver's phase 1, and t's dense
// column (−1 in every host row) stays out of the basis, which keeps the
// basis at two non-zeros per column and the pivots sparse.
func (p *probe) feasible(b float64) (bool, []float64, error) {
	p.setPairs(b)
	np := len(p.pairB)
	p.s.SetBounds(np, b, b)
	sol, err := p.s.Solve()
	p.solves++
	p.iters += sol.Iterations
	switch {
	case sol.Status == lp.Infeasible:
		return false, nil, nil
	case err != nil:
		return false, nil, fmt.Errorf("cotask: CCT-LP at t=%g (scaled): %w", b, err)
	}
	return true, sol.X[:np], nil
}

// minT solves min t subject to t >= b over the pair set A(b): the least
// feasible t on [b, next breakpoint), if it lies there.
func (p *probe) minT(b float64) (float64, []float64, error) {
	p.setPairs(b)
	np := len(p.pairB)
	p.s.SetBounds(np, b, math.Inf(1))
	sol, err := p.s.Solve()
	p.solves++
	p.iters += sol.Iterations
	if err != nil {
		// Every task has an allowed pair and t is free above, so the LP is
		// feasible and bounded; reaching here is a solver failure.
		return 0, nil, fmt.Errorf("cotask: CCT-LP min t from %g (scaled): %w", b, err)
	}
	return sol.X[np], sol.X[:np], nil
}

// shrink returns the first breakpoint index, at most mid, at which x (a
// feasible placement at B[mid]) is still feasible: x uses only pairs up to
// its largest breakpoint and finishes every host by its largest
// completion time, so it is feasible at any t at or above both.
func (p *probe) shrink(B []float64, mid int, x []float64) int {
	copy(p.load, p.w)
	need := 0.0
	for q, v := range x {
		if v > 0 {
			need = max(need, p.pairB[q])
			p.load[p.pairK[q]] += p.pairT[q] * v
		}
	}
	for q, v := range x {
		if v > 0 {
			need = max(need, p.load[p.pairK[q]])
		}
	}
	i, _ := slices.BinarySearch(B, need)
	return min(i, mid)
}

// result assembles the fractional placement from a probe's LP solution.
func (p *probe) result(x []float64, t, scale float64) Fractional {
	f := Fractional{T: t * scale, X: make([][]float64, p.T), LPSolves: p.solves, LPIterations: p.iters}
	for j := range f.X {
		f.X[j] = make([]float64, p.M)
	}
	for q, v := range x {
		if v > 0 {
			f.X[p.pairJ[q]][p.pairK[q]] = v
		}
	}
	return f
}
