package lp

import (
	"fmt"
	"math"
	"slices"
)

// Tolerances. Values in the problems we solve are O(1)..O(1e4) after the
// caller's scaling; the feasibility tolerance is relative to the bound.
const (
	feasTol = 1e-9  // primal: a basic variable this far past a bound is infeasible
	dualTol = 1e-9  // dual: a reduced cost must beat this to enter
	pivTol  = 1e-9  // |alpha_i| below this cannot block in the ratio test
	singTol = 1e-11 // pivot below this when inverting: basis is singular
	zeroTol = 1e-12 // a step below this counts as degenerate

	// refactorEvery bounds the number of product-form updates between two
	// fresh inversions of the basis.
	refactorEvery = 128
	// confirmRefactor: an apparent optimum reached after at least this
	// many updates is re-checked on a fresh inverse.
	confirmRefactor = 64
	// degenerateRun is how many degenerate pivots in a row switch pricing
	// to Bland's rule.
	degenerateRun = 50
)

// Nonbasic (and basic) states of a variable.
const (
	atLower int8 = iota
	atUpper
	atZero // free nonbasic variable, held at zero
	basic
)

// Solver holds a problem in computational form together with the current
// basis, so that the problem can be re-solved after bounds, right-hand
// sides or costs change, starting from the last basis (a warm start).
// A re-solve after a small change usually needs a few pivots where a cold
// solve needs hundreds; the CSS binary search relies on that.
//
// Internally every row i gets a logical variable s_i = -a_i·x with bounds
// from the row's sense, so the constraints read [A I](x;s) = 0 and the
// initial basis is all logicals.
type Solver struct {
	n, m    int
	maxIter int
	bland   bool

	// Structural columns, compressed sparse column form.
	colPtr []int
	rowInd []int
	colVal []float64

	cost   []float64 // n+m; logicals cost 0
	lo, hi []float64 // n+m
	sense  []Sense
	rhs    []float64

	x     []float64 // n+m current values
	stat  []int8    // n+m
	head  []int     // m: basic variable of each basis position
	binv  []float64 // m×m row-major inverse of the basis matrix
	dirty bool      // nonbasic values or bounds changed since x_B was computed

	sinceRefactor  int
	nseg, priceSeg int // partial pricing: segment count, next segment

	// scratch
	cB, y, alpha, work []float64
	cY                 []float64 // the costs y was computed for
	yValid             bool
	pivRow             []int
	nz, nz2            []int
	used               []bool
	order              []int
}

// NewSolver validates p and prepares it for solving. The problem is
// copied; later changes go through the Set methods. opt may be nil.
func NewSolver(p *Problem, opt *Options) (*Solver, error) {
	if p == nil {
		return nil, invalid("nil problem")
	}
	n, m := len(p.Obj), len(p.Rows)
	if p.Lower != nil && len(p.Lower) != n {
		return nil, invalid("Lower has %d entries, want %d (one per objective coefficient)", len(p.Lower), n)
	}
	if p.Upper != nil && len(p.Upper) != n {
		return nil, invalid("Upper has %d entries, want %d (one per objective coefficient)", len(p.Upper), n)
	}
	s := &Solver{n: n, m: m}
	N := n + m
	s.cost = make([]float64, N)
	s.lo = make([]float64, N)
	s.hi = make([]float64, N)
	for j := 0; j < n; j++ {
		if err := checkObj(j, p.Obj[j]); err != nil {
			return nil, err
		}
		s.cost[j] = p.Obj[j]
		lo, hi := 0.0, math.Inf(1)
		if p.Lower != nil {
			lo = p.Lower[j]
		}
		if p.Upper != nil {
			hi = p.Upper[j]
		}
		if err := checkBounds(j, lo, hi); err != nil {
			return nil, err
		}
		s.lo[j], s.hi[j] = lo, hi
	}
	// Rows to columns: count, then fill in row order so that each column's
	// entries are sorted by row.
	count := make([]int, n+1)
	seen := make([]int, n) // seen[j] = row+1 that last used j
	s.sense = make([]Sense, m)
	s.rhs = make([]float64, m)
	for i, r := range p.Rows {
		if len(r.Ind) != len(r.Val) {
			return nil, invalid("row %d: %d indices but %d values", i, len(r.Ind), len(r.Val))
		}
		if err := checkRHS(i, r.Sense, r.RHS); err != nil {
			return nil, err
		}
		for t, j := range r.Ind {
			if j < 0 || j >= n {
				return nil, invalid("row %d: variable index %d out of range [0,%d)", i, j, n)
			}
			if seen[j] == i+1 {
				return nil, invalid("row %d: variable %d appears twice", i, j)
			}
			seen[j] = i + 1
			v := r.Val[t]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, invalid("row %d: coefficient of variable %d is %v", i, j, v)
			}
			if v != 0 {
				count[j+1]++
			}
		}
		s.sense[i], s.rhs[i] = r.Sense, r.RHS
		s.lo[n+i], s.hi[n+i] = rowBounds(r.Sense, r.RHS)
	}
	for j := 0; j < n; j++ {
		count[j+1] += count[j]
	}
	s.colPtr = count
	nnz := count[n]
	s.rowInd = make([]int, nnz)
	s.colVal = make([]float64, nnz)
	next := make([]int, n)
	copy(next, count[:n])
	for i, r := range p.Rows {
		for t, j := range r.Ind {
			if v := r.Val[t]; v != 0 {
				s.rowInd[next[j]] = i
				s.colVal[next[j]] = v
				next[j]++
			}
		}
	}

	if opt != nil {
		s.maxIter = opt.MaxIter
		s.bland = opt.Bland
	}
	if s.maxIter <= 0 {
		s.maxIter = max(10000, 20*N)
	}

	s.x = make([]float64, N)
	s.stat = make([]int8, N)
	s.head = make([]int, m)
	s.binv = make([]float64, m*m)
	s.cB = make([]float64, m)
	s.cY = make([]float64, m)
	s.y = make([]float64, m)
	s.alpha = make([]float64, m)
	s.work = make([]float64, m*m)
	s.pivRow = make([]int, m)
	s.nz = make([]int, 0, m)
	s.nz2 = make([]int, 0, m)
	s.used = make([]bool, m)
	s.order = make([]int, m)
	s.nseg = max(1, min(64, N/(2*max(m, 1))))
	s.slackBasis()
	return s, nil
}

// slackBasis makes every logical basic and puts every structural at a
// bound (or at zero when free), keeping it as close to its current value as
// the bounds allow.
func (s *Solver) slackBasis() {
	for j := 0; j < s.n; j++ {
		s.place(j, s.x[j])
	}
	for i := 0; i < s.m; i++ {
		s.head[i] = s.n + i
		s.stat[s.n+i] = basic
	}
	s.identity(s.binv)
	s.sinceRefactor = 0
	s.dirty = true
}

func (s *Solver) identity(a []float64) {
	clear(a)
	for i := 0; i < s.m; i++ {
		a[i*s.m+i] = 1
	}
}

// place puts nonbasic variable j on the bound nearest to v (zero if free).
func (s *Solver) place(j int, v float64) {
	lo, hi := s.lo[j], s.hi[j]
	loF, hiF := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case loF && hiF:
		if s.stat[j] == atUpper || (s.stat[j] == basic && v-lo > hi-v) {
			s.stat[j], s.x[j] = atUpper, hi
		} else {
			s.stat[j], s.x[j] = atLower, lo
		}
	case loF:
		s.stat[j], s.x[j] = atLower, lo
	case hiF:
		s.stat[j], s.x[j] = atUpper, hi
	default:
		s.stat[j], s.x[j] = atZero, 0
	}
}

// NumVars is the number of structural variables.
func (s *Solver) NumVars() int { return s.n }

// NumRows is the number of rows.
func (s *Solver) NumRows() int { return s.m }

// SetBounds changes the bounds of variable j. The basis is kept.
func (s *Solver) SetBounds(j int, lo, hi float64) error {
	if j < 0 || j >= s.n {
		return invalid("variable index %d out of range [0,%d)", j, s.n)
	}
	if err := checkBounds(j, lo, hi); err != nil {
		return err
	}
	if s.lo[j] == lo && s.hi[j] == hi {
		return nil
	}
	s.lo[j], s.hi[j] = lo, hi
	if s.stat[j] != basic {
		s.place(j, s.x[j])
		s.dirty = true
	}
	return nil
}

// SetRHS changes the right-hand side of row i, keeping its sense. For a
// <= row, +Inf deactivates it (and -Inf for a >= row). The basis is kept.
func (s *Solver) SetRHS(i int, rhs float64) error {
	if i < 0 || i >= s.m {
		return invalid("row index %d out of range [0,%d)", i, s.m)
	}
	if err := checkRHS(i, s.sense[i], rhs); err != nil {
		return err
	}
	if s.rhs[i] == rhs {
		return nil
	}
	s.rhs[i] = rhs
	j := s.n + i
	s.lo[j], s.hi[j] = rowBounds(s.sense[i], rhs)
	if s.stat[j] != basic {
		s.place(j, s.x[j])
		s.dirty = true
	}
	return nil
}

// SetObj changes the objective coefficient of variable j.
func (s *Solver) SetObj(j int, c float64) error {
	if j < 0 || j >= s.n {
		return invalid("variable index %d out of range [0,%d)", j, s.n)
	}
	if err := checkObj(j, c); err != nil {
		return err
	}
	s.cost[j] = c
	return nil
}

// SetStart replaces the current basis by one built around the point x
// (len(x) = NumVars()), for when the caller knows a good solution, e.g. a
// heuristic one, but no basis. The basis is crashed from the all-logical
// basis: each variable strictly inside its bounds in x is pivoted in, in
// index order, in place of a basic logical (a fixed one, i.e. of an
// equality row, when that gives a usable pivot, else the largest pivot);
// every other variable goes to the bound nearest to x. If x is a vertex,
// the next Solve starts at x. Values outside the bounds are clamped.
func (s *Solver) SetStart(x []float64) error {
	if len(x) != s.n {
		return invalid("start point has %d entries, want %d", len(x), s.n)
	}
	for j, v := range x {
		if math.IsNaN(v) {
			return invalid("start point: x[%d] is NaN", j)
		}
	}
	for j := 0; j < s.n; j++ {
		s.stat[j] = atLower
		s.x[j] = x[j]
	}
	for i := 0; i < s.m; i++ {
		s.head[i] = s.n + i
		s.stat[s.n+i] = basic
	}
	s.identity(s.binv)
	s.sinceRefactor = 0
	for j := 0; j < s.n; j++ {
		v := x[j]
		if v > s.lo[j] && v < s.hi[j] && s.colPtr[j] < s.colPtr[j+1] {
			s.ftran(j)
			p, best, fixed := -1, 0.0, false
			for i, h := range s.head {
				a := math.Abs(s.alpha[i])
				if h < s.n || a < 1e-3 {
					continue
				}
				f := s.lo[h] == s.hi[h]
				if p < 0 || (f && !fixed) || (f == fixed && a > best) {
					p, best, fixed = i, a, f
				}
			}
			if p >= 0 {
				leave := s.head[p]
				s.stat[leave] = basic // so that place picks the nearest bound
				s.place(leave, s.x[leave])
				s.pivot(p, j, 0, 0)
				continue
			}
		}
		s.stat[j] = basic // nearest bound
		s.place(j, min(max(v, s.lo[j]), s.hi[j]))
	}
	s.fresh()
	return nil
}

// Solve runs the simplex method from the current basis and returns the
// result. Status Infeasible, Unbounded and IterationLimit come with a
// non-nil error wrapping ErrInfeasible, ErrUnbounded or ErrIterationLimit.
func (s *Solver) Solve() (Solution, error) {
	st, iters, err := s.run()
	sol := Solution{Status: st, Iterations: iters, X: make([]float64, s.n)}
	for j := 0; j < s.n; j++ {
		v := s.x[j]
		// Basic values are only accurate to the tolerance; snap them into
		// the box so that callers see x within its bounds.
		if st == Optimal {
			v = min(max(v, s.lo[j]), s.hi[j])
		}
		sol.X[j] = v
	}
	for j := 0; j < s.n; j++ {
		if c := s.cost[j]; c != 0 {
			sol.Objective += c * sol.X[j]
		}
	}
	return sol, err
}

// computeXB sets the basic values from the nonbasic ones:
// x_B = -B⁻¹ (N x_N).
func (s *Solver) computeXB() {
	n, m := s.n, s.m
	r := s.alpha
	clear(r)
	for j := 0; j < n; j++ {
		if s.stat[j] == basic {
			continue
		}
		v := s.x[j]
		if v == 0 {
			continue
		}
		for p := s.colPtr[j]; p < s.colPtr[j+1]; p++ {
			r[s.rowInd[p]] -= s.colVal[p] * v
		}
	}
	for i := 0; i < m; i++ {
		if s.stat[n+i] != basic {
			r[i] -= s.x[n+i]
		}
	}
	for i := 0; i < m; i++ {
		row := s.binv[i*m : (i+1)*m]
		sum := 0.0
		for k, v := range r {
			sum += row[k] * v
		}
		s.x[s.head[i]] = sum
	}
	s.dirty = false
}

func tolFor(b float64) float64 {
	return feasTol * max(1, math.Abs(b))
}

// phaseCosts fills cB with the costs of the basic variables: the phase 1
// costs (-1 below the lower bound, +1 above the upper bound, 0 inside)
// when some basic variable is infeasible, the true costs otherwise.
func (s *Solver) phaseCosts() (phase1 bool) {
	for i, j := range s.head {
		v, c := s.x[j], 0.0
		if v < s.lo[j]-tolFor(s.lo[j]) {
			c = -1
		} else if v > s.hi[j]+tolFor(s.hi[j]) {
			c = 1
		}
		if c != 0 {
			phase1 = true
		}
		s.cB[i] = c
	}
	if !phase1 {
		for i, j := range s.head {
			s.cB[i] = s.cost[j]
		}
	}
	return phase1
}

// syncY brings y = cB B⁻¹ up to date with the current costs cB: from
// scratch after a refactorisation (or at the start of a solve), otherwise
// by adding the rows of B⁻¹ whose cost changed since y was last valid
// (pivots update y themselves). In phase 1 only a few basic variables
// change feasibility per iteration, so this is O(m) per change instead of
// O(m²).
func (s *Solver) syncY() {
	if !s.yValid {
		s.computeY()
		copy(s.cY, s.cB)
		s.yValid = true
		return
	}
	m := s.m
	for i, c := range s.cB {
		dc := c - s.cY[i]
		if dc == 0 {
			continue
		}
		s.cY[i] = c
		row := s.binv[i*m : (i+1)*m]
		for k, v := range row {
			if v != 0 {
				s.y[k] += dc * v
			}
		}
	}
}

// computeY sets the simplex multipliers y = cB B⁻¹.
func (s *Solver) computeY() {
	m := s.m
	clear(s.y)
	for i, c := range s.cB {
		if c == 0 {
			continue
		}
		row := s.binv[i*m : (i+1)*m]
		for k, v := range row {
			s.y[k] += c * v
		}
	}
}

// price chooses the entering variable. Under Bland's rule it is the
// smallest eligible index. Otherwise pricing is partial: the columns are
// split into a few segments, scanned round-robin from where the last scan
// ended, and the largest |d_j| (Dantzig) of the first segment with an
// eligible column wins. With many more columns than rows (the CSS LP has
// ~50 columns per row) this cuts the dominant pricing cost several-fold for
// a modest increase in iterations. It returns -1 only after a full scan
// found nothing eligible, i.e. the basis is optimal for the phase.
func (s *Solver) price(phase1, bland bool) (q int, dq float64) {
	N := s.n + s.m
	if bland {
		return s.priceRange(0, N, phase1, true)
	}
	nseg := s.nseg
	segLen := (N + nseg - 1) / nseg
	for t := 0; t < nseg; t++ {
		seg := (s.priceSeg + t) % nseg
		lo := seg * segLen
		q, dq = s.priceRange(lo, min(N, lo+segLen), phase1, false)
		if q >= 0 {
			s.priceSeg = (seg + 1) % nseg
			return q, dq
		}
	}
	return -1, 0
}

// priceRange prices columns lo..hi-1: the best by |d_j|, or the first
// eligible one when first is set.
func (s *Solver) priceRange(lo, hi int, phase1, first bool) (q int, dq float64) {
	q = -1
	best := dualTol
	n := s.n
	y := s.y
	for j := lo; j < hi; j++ {
		st := s.stat[j]
		if st == basic || s.lo[j] == s.hi[j] {
			continue
		}
		d := 0.0
		if !phase1 {
			d = s.cost[j]
		}
		if j < n {
			for p := s.colPtr[j]; p < s.colPtr[j+1]; p++ {
				d -= y[s.rowInd[p]] * s.colVal[p]
			}
		} else {
			d -= y[j-n]
		}
		var a float64
		switch st {
		case atLower:
			a = -d
		case atUpper:
			a = d
		default:
			a = math.Abs(d)
		}
		if a > best {
			best, q, dq = a, j, d
			if first {
				return q, dq
			}
		}
	}
	return q, dq
}

// ftran sets alpha = B⁻¹ a_q.
func (s *Solver) ftran(q int) {
	m := s.m
	clear(s.alpha)
	if q >= s.n {
		c := q - s.n
		for i := 0; i < m; i++ {
			s.alpha[i] = s.binv[i*m+c]
		}
		return
	}
	for p := s.colPtr[q]; p < s.colPtr[q+1]; p++ {
		r, v := s.rowInd[p], s.colVal[p]
		for i := 0; i < m; i++ {
			s.alpha[i] += v * s.binv[i*m+r]
		}
	}
}

// target is the bound basic variable j runs into when it moves at rate r
// (per unit step), or ok=false when it does not block. In phase 1 an
// infeasible variable blocks at the bound it is moving back to, which is
// where the phase 1 objective changes slope.
func (s *Solver) target(j int, r float64, phase1 bool) (b float64, up, ok bool) {
	v, lo, hi := s.x[j], s.lo[j], s.hi[j]
	if r < 0 {
		if phase1 && v > hi+tolFor(hi) {
			return hi, true, true
		}
		if phase1 && v < lo-tolFor(lo) {
			return 0, false, false
		}
		if math.IsInf(lo, -1) {
			return 0, false, false
		}
		return lo, false, true
	}
	if phase1 && v < lo-tolFor(lo) {
		return lo, false, true
	}
	if phase1 && v > hi+tolFor(hi) {
		return 0, false, false
	}
	if math.IsInf(hi, 1) {
		return 0, false, false
	}
	return hi, true, true
}

// ratio is the ratio test for entering q moving in direction dir (+1 up,
// -1 down). It returns the leaving basis position p (or -1), the step
// length theta, whether the leaving variable goes to its upper bound, and
// flip=true when q just moves to its opposite bound instead.
//
// The default is Harris's two-pass test: pass 1 finds the largest step
// allowed with every bound relaxed by the tolerance, pass 2 picks, among
// the variables blocking within that step, the one with the largest
// |alpha|, which keeps pivots well away from zero. Under Bland's rule the
// exact minimum ratio is taken, ties going to the smallest variable index.
func (s *Solver) ratio(q int, dir float64, phase1, bland bool) (p int, theta float64, up, flip bool) {
	p = -1
	rangeQ := s.hi[q] - s.lo[q] // +Inf unless both bounds finite
	if bland {
		theta = math.Inf(1)
		for i, j := range s.head {
			a := s.alpha[i]
			if math.Abs(a) <= pivTol {
				continue
			}
			r := -dir * a
			b, u, ok := s.target(j, r, phase1)
			if !ok {
				continue
			}
			t := max(0, (b-s.x[j])/r)
			if p < 0 || t < theta-zeroTol || (t <= theta+zeroTol && j < s.head[p]) {
				p, theta, up = i, t, u
			}
		}
		if !math.IsInf(rangeQ, 1) && rangeQ <= theta {
			return -1, rangeQ, false, true
		}
		return p, theta, up, false
	}
	// Pass 1: relaxed bound.
	limit := math.Inf(1)
	for i, j := range s.head {
		a := s.alpha[i]
		if math.Abs(a) <= pivTol {
			continue
		}
		r := -dir * a
		b, _, ok := s.target(j, r, phase1)
		if !ok {
			continue
		}
		t := (b - s.x[j] + math.Copysign(tolFor(b), r)) / r
		if t < limit {
			limit = t
		}
	}
	if !math.IsInf(rangeQ, 1) && rangeQ <= limit {
		return -1, rangeQ, false, true
	}
	if math.IsInf(limit, 1) {
		return -1, 0, false, false
	}
	// Pass 2: largest pivot among those blocking within the relaxed step.
	best := 0.0
	for i, j := range s.head {
		a := s.alpha[i]
		if math.Abs(a) <= pivTol {
			continue
		}
		r := -dir * a
		b, u, ok := s.target(j, r, phase1)
		if !ok {
			continue
		}
		t := (b - s.x[j]) / r
		if t <= limit && math.Abs(a) > best {
			best, p, up = math.Abs(a), i, u
			theta = max(0, t)
		}
	}
	return p, theta, up, false
}

// pivot replaces the basic variable at position p by q, given alpha =
// B⁻¹a_q, updating the explicit inverse: row p is divided by alpha_p and
// eliminated from every other row where alpha is non-zero.
//
// It also updates y for the new basis under unchanged costs: with d_q the
// entering reduced cost, y' = y + d_q·(row p of the new B⁻¹), and the
// entering variable's cost cq takes position p.
func (s *Solver) pivot(p, q int, dq, cq float64) {
	m := s.m
	rowP := s.binv[p*m : (p+1)*m]
	inv := 1 / s.alpha[p]
	// Rows of B⁻¹ are sparse for the bases of assignment-like LPs (two
	// non-zeros per column), so the update runs over row p's non-zeros.
	nz := s.nz[:0]
	for k, v := range rowP {
		if v != 0 {
			rowP[k] = v * inv
			nz = append(nz, k)
		}
	}
	s.nz = nz
	for _, k := range nz {
		s.y[k] += dq * rowP[k]
	}
	s.cY[p] = cq
	for i, a := range s.alpha {
		if i == p || a == 0 {
			continue
		}
		row := s.binv[i*m : (i+1)*m]
		for _, k := range nz {
			row[k] -= a * rowP[k]
		}
	}
	s.head[p] = q
	s.stat[q] = basic
	s.sinceRefactor++
}

// refactor recomputes B⁻¹ from the basis columns by Gauss-Jordan
// elimination with partial pivoting. Columns are eliminated sparsest
// first (logicals, then structurals by non-zero count), which keeps
// fill-in low for the bases the CSS LP produces. It returns false when the
// basis is numerically singular.
func (s *Solver) refactor() bool {
	n, m := s.n, s.m
	M := s.work
	clear(M)
	nnz := func(j int) int {
		if j >= n {
			return 1
		}
		return s.colPtr[j+1] - s.colPtr[j]
	}
	for c, j := range s.head {
		if j >= n {
			M[(j-n)*m+c] = 1
			continue
		}
		for p := s.colPtr[j]; p < s.colPtr[j+1]; p++ {
			M[s.rowInd[p]*m+c] = s.colVal[p]
		}
	}
	// Column order: by non-zero count, stable in position.
	for c := range s.order {
		s.order[c] = c
	}
	slices.SortStableFunc(s.order, func(a, b int) int { return nnz(s.head[a]) - nnz(s.head[b]) })
	inv := s.binv
	s.identity(inv)
	clear(s.used)
	for _, c := range s.order {
		p, best := -1, 0.0
		for r := 0; r < m; r++ {
			if s.used[r] {
				continue
			}
			if a := math.Abs(M[r*m+c]); a > best {
				best, p = a, r
			}
		}
		if best < singTol {
			return false
		}
		s.used[p] = true
		s.pivRow[c] = p
		rowM := M[p*m : (p+1)*m]
		rowI := inv[p*m : (p+1)*m]
		f := 1 / rowM[c]
		// Both pivot rows are sparse; eliminate over their non-zeros.
		nzM, nzI := s.nz[:0], s.nz2[:0]
		for k, v := range rowM {
			if v != 0 && k != c {
				rowM[k] = v * f
				nzM = append(nzM, k)
			}
		}
		rowM[c] = 1
		for k, v := range rowI {
			if v != 0 {
				rowI[k] = v * f
				nzI = append(nzI, k)
			}
		}
		for r := 0; r < m; r++ {
			a := M[r*m+c]
			if r == p || a == 0 {
				continue
			}
			row := M[r*m : (r+1)*m]
			for _, k := range nzM {
				row[k] -= a * rowM[k]
			}
			row[c] = 0
			rowR := inv[r*m : (r+1)*m]
			for _, k := range nzI {
				rowR[k] -= a * rowI[k]
			}
		}
		s.nz, s.nz2 = nzM, nzI
	}
	// inv·B is now a permutation P with P[pivRow[c]][c] = 1, so row c of
	// B⁻¹ is row pivRow[c] of inv.
	copy(M, inv)
	for c := 0; c < m; c++ {
		copy(inv[c*m:(c+1)*m], M[s.pivRow[c]*m:(s.pivRow[c]+1)*m])
	}
	s.sinceRefactor = 0
	return true
}

// fresh recomputes B⁻¹ and x_B. A singular basis (possible only through
// accumulated rounding) is replaced by the all-logical basis; phase 1 then
// recovers feasibility from the current point.
func (s *Solver) fresh() {
	if !s.refactor() {
		s.slackBasis()
	}
	s.computeXB()
	s.yValid = false
}

func (s *Solver) run() (Status, int, error) {
	if s.dirty {
		s.computeXB()
	}
	iter := 0
	s.yValid = false
	isFresh := false // B⁻¹ and x_B recomputed since the last pivot
	degen := 0
	bland := s.bland
	for {
		if s.sinceRefactor >= refactorEvery {
			s.fresh()
			isFresh = true
		}
		phase1 := s.phaseCosts()
		s.syncY()
		q, dq := s.price(phase1, bland)
		if q < 0 {
			if !isFresh {
				// Confirm optimality (or infeasibility) on fresh numbers:
				// a new B⁻¹ after many updates, else just x_B recomputed
				// from the nonbasic values (a few product-form updates
				// lose nothing worth a refactorisation).
				if s.sinceRefactor >= confirmRefactor {
					s.fresh()
				} else {
					s.computeXB()
					s.yValid = false
				}
				isFresh = true
				continue
			}
			if phase1 {
				return Infeasible, iter, ErrInfeasible
			}
			return Optimal, iter, nil
		}
		if iter >= s.maxIter {
			return IterationLimit, iter, fmt.Errorf("%w: %d iterations without reaching an optimum (%d rows, %d variables); raise Options.MaxIter",
				ErrIterationLimit, iter, s.m, s.n)
		}
		s.ftran(q)
		dir := 1.0
		if dq > 0 {
			dir = -1
		}
		p, theta, up, flip := s.ratio(q, dir, phase1, bland)
		if p < 0 && !flip {
			if !isFresh {
				s.fresh()
				isFresh = true
				continue
			}
			if phase1 {
				// The phase 1 objective is bounded below by zero, so an
				// improving ray means the numbers have gone bad.
				return NotSolved, iter, fmt.Errorf("%w: no blocking variable in phase 1", ErrNumerical)
			}
			return Unbounded, iter, ErrUnbounded
		}
		iter++
		isFresh = false
		step := dir * theta
		for i, j := range s.head {
			if a := s.alpha[i]; a != 0 {
				s.x[j] -= step * a
			}
		}
		if flip {
			if s.stat[q] == atLower {
				s.stat[q], s.x[q] = atUpper, s.hi[q]
			} else {
				s.stat[q], s.x[q] = atLower, s.lo[q]
			}
		} else {
			s.x[q] += step
			leave := s.head[p]
			if up {
				s.stat[leave], s.x[leave] = atUpper, s.hi[leave]
			} else {
				s.stat[leave], s.x[leave] = atLower, s.lo[leave]
			}
			cq := s.cost[q]
			if phase1 {
				cq = 0
			}
			s.pivot(p, q, dq, cq)
		}
		// Anti-cycling: Bland's rule while stalled.
		if theta*math.Abs(dq) <= zeroTol {
			degen++
			if degen >= degenerateRun {
				bland = true
			}
		} else {
			degen = 0
			bland = s.bland
		}
	}
}
