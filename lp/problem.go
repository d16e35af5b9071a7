// Package lp is a small, dependency-free linear programming solver: a
// bounded-variable revised primal simplex method.
//
// It minimises c·x subject to rows a_i·x {<=, =, >=} b_i and bounds
// lo <= x <= hi, where lo may be -Inf and hi may be +Inf. It exists because
// the CSS cotask placement (package sched/css/cotask) re-solves one LP of a
// few hundred rows and thousands of columns a dozen times per placement
// decision, and a general dense solver is orders of magnitude too slow for
// that. The design choices follow from that use:
//
//   - Columns are stored sparse; the basis inverse is kept explicitly
//     (dense, m×m) and updated in product form after each pivot, touching
//     only the non-zeros of the pivot row, so a pivot is cheap when B⁻¹
//     is sparse (as for assignment-like LPs) and pricing costs O(nnz(A)).
//     The inverse is recomputed from scratch periodically and before a
//     long solve reports its result, so rounding error does not build up.
//     The dense inverse suits problems of up to a few thousand rows; the
//     number of columns may be much larger.
//   - Phase 1 minimises the sum of bound violations of the basic variables
//     starting from whatever basis is at hand. That one mechanism handles
//     a cold start (all-logical basis), a crash start from a known point
//     (Solver.SetStart) and a warm start after bounds or right-hand sides
//     changed (Solver), with no big-M constant.
//   - Pricing is Dantzig's rule over one segment of the columns at a time
//     (partial pricing), with a Harris two-pass ratio test. After a run of
//     degenerate pivots the solver switches to Bland's rule until the
//     objective moves again, which rules out cycling (Beale's example is
//     among the tests).
//   - Everything is sequential with a fixed iteration order, so the same
//     input gives bit-identical output.
//
// Infeasible and unbounded problems are outcomes, not failures: Solve
// reports them in Solution.Status and also returns a non-nil error
// (ErrInfeasible, ErrUnbounded) so that an unchecked status cannot be
// mistaken for an optimum. Bad input gives an error wrapping ErrInvalid
// that names the offending row or variable; the solver never panics on
// input.
package lp

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned by Solve. Input errors wrap ErrInvalid; use errors.Is.
var (
	ErrInvalid        = errors.New("lp: invalid problem")
	ErrInfeasible     = errors.New("lp: problem is infeasible")
	ErrUnbounded      = errors.New("lp: problem is unbounded")
	ErrIterationLimit = errors.New("lp: iteration limit reached")
	ErrNumerical      = errors.New("lp: numerical difficulty")
)

// Sense is the relation of a row: a·x <= b, a·x >= b or a·x = b.
type Sense int8

// Row senses.
const (
	LE Sense = iota // a·x <= RHS; RHS = +Inf makes the row inactive
	GE              // a·x >= RHS; RHS = -Inf makes the row inactive
	EQ              // a·x == RHS
)

func (s Sense) String() string {
	switch s {
	case LE:
		return "<="
	case GE:
		return ">="
	case EQ:
		return "="
	}
	return fmt.Sprintf("Sense(%d)", int8(s))
}

// Row is one constraint, given sparse: the coefficient of variable Ind[i]
// is Val[i]. An index may appear once only; zero coefficients are allowed
// and ignored.
type Row struct {
	Ind   []int
	Val   []float64
	Sense Sense
	RHS   float64
}

// DenseRow builds a Row from a dense coefficient slice, skipping zeros.
func DenseRow(coef []float64, sense Sense, rhs float64) Row {
	r := Row{Sense: sense, RHS: rhs}
	for j, v := range coef {
		if v != 0 {
			r.Ind = append(r.Ind, j)
			r.Val = append(r.Val, v)
		}
	}
	return r
}

// Problem is: minimise Obj·x subject to Rows and Lower <= x <= Upper.
// The number of variables is len(Obj). A nil Lower means all zero; a nil
// Upper means all +Inf.
type Problem struct {
	Obj   []float64
	Lower []float64
	Upper []float64
	Rows  []Row
}

// Status is the outcome of a solve.
type Status int8

// Solve outcomes. The zero value means not solved.
const (
	NotSolved Status = iota
	Optimal
	Infeasible
	Unbounded
	IterationLimit
)

func (s Status) String() string {
	switch s {
	case NotSolved:
		return "not solved"
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	case IterationLimit:
		return "iteration limit"
	}
	return fmt.Sprintf("Status(%d)", int8(s))
}

// Solution is the result of a solve. X and Objective are meaningful only
// when Status is Optimal (for other statuses X holds the last iterate).
type Solution struct {
	Status     Status
	X          []float64
	Objective  float64
	Iterations int // simplex iterations of this solve (pivots and bound flips)
}

// Options tune a Solver. The zero value is the default.
type Options struct {
	// MaxIter caps the simplex iterations of one Solve call. 0 means
	// max(10000, 20·(rows+columns)).
	MaxIter int
	// Bland forces Bland's smallest-index rule for every pivot. It is slow
	// and only useful for testing the anti-cycling path; by default Bland's
	// rule is used only while the solver is stalling on degenerate pivots.
	Bland bool
}

// Solve solves p from scratch. See Solver for repeated solves.
func (p *Problem) Solve() (Solution, error) {
	s, err := NewSolver(p, nil)
	if err != nil {
		return Solution{}, err
	}
	return s.Solve()
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

func checkBounds(j int, lo, hi float64) error {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi):
		return invalid("variable %d: bound is NaN (lower %v, upper %v)", j, lo, hi)
	case math.IsInf(lo, 1):
		return invalid("variable %d: lower bound is +Inf", j)
	case math.IsInf(hi, -1):
		return invalid("variable %d: upper bound is -Inf", j)
	case lo > hi:
		return invalid("variable %d: lower bound %g > upper bound %g", j, lo, hi)
	}
	return nil
}

func checkRHS(i int, sense Sense, rhs float64) error {
	switch {
	case sense != LE && sense != GE && sense != EQ:
		return invalid("row %d: unknown sense %d", i, int8(sense))
	case math.IsNaN(rhs):
		return invalid("row %d: right-hand side is NaN", i)
	case sense == EQ && math.IsInf(rhs, 0):
		return invalid("row %d: equality with infinite right-hand side %v", i, rhs)
	case sense == LE && math.IsInf(rhs, -1):
		return invalid("row %d: a·x <= -Inf can never hold", i)
	case sense == GE && math.IsInf(rhs, 1):
		return invalid("row %d: a·x >= +Inf can never hold", i)
	}
	return nil
}

func checkObj(j int, c float64) error {
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return invalid("objective coefficient %d is %v", j, c)
	}
	return nil
}

// rowBounds turns a row's sense and right-hand side into bounds on its
// logical variable s = -a·x (the solver keeps a·x + s = 0).
func rowBounds(sense Sense, rhs float64) (lo, hi float64) {
	switch sense {
	case LE:
		return -rhs, math.Inf(1)
	case GE:
		return math.Inf(-1), -rhs
	default:
		return -rhs, -rhs
	}
}
