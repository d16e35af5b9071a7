package lp

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var inf = math.Inf(1)

func solveOK(t *testing.T, p *Problem) Solution {
	t.Helper()
	sol, err := p.Solve()
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if sol.Status != Optimal {
		t.Fatalf("status %v, want optimal", sol.Status)
	}
	checkFeasible(t, p, sol.X, 1e-9)
	return sol
}

// checkFeasible verifies x against every row and bound of p.
func checkFeasible(t *testing.T, p *Problem, x []float64, tol float64) {
	t.Helper()
	for j, v := range x {
		lo, hi := 0.0, inf
		if p.Lower != nil {
			lo = p.Lower[j]
		}
		if p.Upper != nil {
			hi = p.Upper[j]
		}
		if v < lo-tol*(1+math.Abs(lo)) || v > hi+tol*(1+math.Abs(hi)) {
			t.Fatalf("x[%d] = %v outside [%v, %v]", j, v, lo, hi)
		}
	}
	for i, r := range p.Rows {
		act := 0.0
		for k, j := range r.Ind {
			act += r.Val[k] * x[j]
		}
		slack := tol * (1 + math.Abs(r.RHS))
		ok := true
		switch r.Sense {
		case LE:
			ok = act <= r.RHS+slack
		case GE:
			ok = act >= r.RHS-slack
		case EQ:
			ok = math.Abs(act-r.RHS) <= slack
		}
		if !ok {
			t.Fatalf("row %d: activity %v %v %v violated", i, act, r.Sense, r.RHS)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-7*(1+math.Abs(b)) }

func TestTextbookMax(t *testing.T) {
	// max 3x + 5y s.t. x <= 4, 2y <= 12, 3x + 2y <= 18: optimum (2, 6), 36.
	p := &Problem{
		Obj: []float64{-3, -5},
		Rows: []Row{
			DenseRow([]float64{1, 0}, LE, 4),
			DenseRow([]float64{0, 2}, LE, 12),
			DenseRow([]float64{3, 2}, LE, 18),
		},
	}
	sol := solveOK(t, p)
	if !near(sol.Objective, -36) || !near(sol.X[0], 2) || !near(sol.X[1], 6) {
		t.Fatalf("got x=%v obj=%v, want (2,6) -36", sol.X, sol.Objective)
	}
}

func TestDietStyleGE(t *testing.T) {
	// min 2x + 3y s.t. x + y >= 4, x + 3y >= 6, x <= 10: optimum (3, 1), 9.
	p := &Problem{
		Obj:   []float64{2, 3},
		Upper: []float64{10, inf},
		Rows: []Row{
			DenseRow([]float64{1, 1}, GE, 4),
			DenseRow([]float64{1, 3}, GE, 6),
		},
	}
	sol := solveOK(t, p)
	if !near(sol.Objective, 9) || !near(sol.X[0], 3) || !near(sol.X[1], 1) {
		t.Fatalf("got x=%v obj=%v, want (3,1) 9", sol.X, sol.Objective)
	}
}

func TestEqualityRows(t *testing.T) {
	// Transportation: 2 sources (supply 20, 30), 3 sinks (demand 10, 25,
	// 15), costs [[8 6 10] [9 12 13]]. Optimum 465 (checked by hand: x =
	// [[0 20 0] [10 5 15]]: 120 + 90 + 60 + 195 = 465).
	c := []float64{8, 6, 10, 9, 12, 13}
	p := &Problem{Obj: c}
	p.Rows = append(p.Rows,
		DenseRow([]float64{1, 1, 1, 0, 0, 0}, EQ, 20),
		DenseRow([]float64{0, 0, 0, 1, 1, 1}, EQ, 30),
		DenseRow([]float64{1, 0, 0, 1, 0, 0}, EQ, 10),
		DenseRow([]float64{0, 1, 0, 0, 1, 0}, EQ, 25),
		DenseRow([]float64{0, 0, 1, 0, 0, 1}, EQ, 15),
	)
	sol := solveOK(t, p)
	if !near(sol.Objective, 465) {
		t.Fatalf("objective %v, want 465 (x=%v)", sol.Objective, sol.X)
	}
}

func TestFreeAndNegativeBounds(t *testing.T) {
	// min x + y with x free, -5 <= y <= 3, x - y >= -2, x + y >= -10:
	// x + y is pushed to -10 along x - y >= -2, e.g. y = -4, x = -6.
	p := &Problem{
		Obj:   []float64{1, 1},
		Lower: []float64{math.Inf(-1), -5},
		Upper: []float64{inf, 3},
		Rows: []Row{
			DenseRow([]float64{1, -1}, GE, -2),
			DenseRow([]float64{1, 1}, GE, -10),
		},
	}
	sol := solveOK(t, p)
	if !near(sol.Objective, -10) {
		t.Fatalf("objective %v, want -10 (x=%v)", sol.Objective, sol.X)
	}
	// Maximise a free variable bounded only through a row.
	p = &Problem{
		Obj:   []float64{-1, 0},
		Lower: []float64{math.Inf(-1), -1},
		Upper: []float64{inf, 1},
		Rows:  []Row{DenseRow([]float64{1, -2}, LE, 3)},
	}
	sol = solveOK(t, p)
	if !near(sol.X[0], 5) {
		t.Fatalf("x=%v, want x0 = 5", sol.X)
	}
}

func TestBoundsOnlyAndFixed(t *testing.T) {
	p := &Problem{
		Obj:   []float64{1, -1, 2},
		Lower: []float64{-2, -1, 4},
		Upper: []float64{3, 7, 4},
	}
	sol := solveOK(t, p)
	want := []float64{-2, 7, 4}
	for j := range want {
		if sol.X[j] != want[j] {
			t.Fatalf("x=%v, want %v", sol.X, want)
		}
	}
}

func TestInfeasible(t *testing.T) {
	p := &Problem{
		Obj: []float64{1, 1},
		Rows: []Row{
			DenseRow([]float64{1, 1}, LE, 1),
			DenseRow([]float64{1, 1}, GE, 2),
		},
	}
	sol, err := p.Solve()
	if !errors.Is(err, ErrInfeasible) || sol.Status != Infeasible {
		t.Fatalf("got %v, %v; want infeasible", sol.Status, err)
	}
	// Infeasible through bounds and an equality.
	p = &Problem{
		Obj:   []float64{0, 0},
		Upper: []float64{1, 1},
		Rows:  []Row{DenseRow([]float64{1, 1}, EQ, 3)},
	}
	if sol, err := p.Solve(); !errors.Is(err, ErrInfeasible) || sol.Status != Infeasible {
		t.Fatalf("got %v, %v; want infeasible", sol.Status, err)
	}
}

func TestUnbounded(t *testing.T) {
	p := &Problem{
		Obj:  []float64{-1, 0},
		Rows: []Row{DenseRow([]float64{1, -1}, LE, 1)},
	}
	sol, err := p.Solve()
	if !errors.Is(err, ErrUnbounded) || sol.Status != Unbounded {
		t.Fatalf("got %v, %v; want unbounded", sol.Status, err)
	}
	// A free variable with a cost and no rows.
	p = &Problem{Obj: []float64{1}, Lower: []float64{math.Inf(-1)}}
	if sol, err := p.Solve(); !errors.Is(err, ErrUnbounded) || sol.Status != Unbounded {
		t.Fatalf("got %v, %v; want unbounded", sol.Status, err)
	}
}

// beale is Beale's (1955) example, on which Dantzig's rule with
// lowest-index tie-breaking cycles forever from the slack basis.
func beale() *Problem {
	return &Problem{
		Obj: []float64{-0.75, 20, -0.5, 6},
		Rows: []Row{
			DenseRow([]float64{0.25, -8, -1, 9}, LE, 0),
			DenseRow([]float64{0.5, -12, -0.5, 3}, LE, 0),
			DenseRow([]float64{0, 0, 1, 0}, LE, 1),
		},
	}
}

func TestBealeCycling(t *testing.T) {
	for _, bland := range []bool{false, true} {
		s, err := NewSolver(beale(), &Options{Bland: bland})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve()
		if err != nil {
			t.Fatalf("bland=%v: %v", bland, err)
		}
		if !near(sol.Objective, -1.25) {
			t.Fatalf("bland=%v: objective %v, want -1.25 (x=%v)", bland, sol.Objective, sol.X)
		}
		checkFeasible(t, beale(), sol.X, 1e-9)
	}
}

func TestDegenerateKleeMintyAndAssignment(t *testing.T) {
	// Klee-Minty cube, n = 6: max sum 2^(n-j) x_j s.t.
	// 2 sum_{k<j} 2^(j-k) x_k + x_j <= 5^j. Optimum 5^n.
	const n = 6
	p := &Problem{Obj: make([]float64, n)}
	for j := 0; j < n; j++ {
		p.Obj[j] = -math.Pow(2, float64(n-1-j))
		coef := make([]float64, n)
		for k := 0; k < j; k++ {
			coef[k] = math.Pow(2, float64(j-k+1))
		}
		coef[j] = 1
		p.Rows = append(p.Rows, DenseRow(coef, LE, math.Pow(5, float64(j+1))))
	}
	sol := solveOK(t, p)
	if !near(sol.Objective, -math.Pow(5, n)) {
		t.Fatalf("Klee-Minty objective %v, want %v", sol.Objective, -math.Pow(5, n))
	}
	// A highly degenerate assignment problem: 6x6, all costs equal.
	const k = 6
	q := &Problem{Obj: make([]float64, k*k)}
	for i := range q.Obj {
		q.Obj[i] = 1
	}
	for i := 0; i < k; i++ {
		r, c := Row{Sense: EQ, RHS: 1}, Row{Sense: EQ, RHS: 1}
		for j := 0; j < k; j++ {
			r.Ind, r.Val = append(r.Ind, i*k+j), append(r.Val, 1)
			c.Ind, c.Val = append(c.Ind, j*k+i), append(c.Val, 1)
		}
		q.Rows = append(q.Rows, r, c)
	}
	sol = solveOK(t, q)
	if !near(sol.Objective, k) {
		t.Fatalf("assignment objective %v, want %d", sol.Objective, k)
	}
}

func TestInactiveRowAndEmpty(t *testing.T) {
	p := &Problem{
		Obj:  []float64{-1},
		Rows: []Row{DenseRow([]float64{1}, LE, inf), DenseRow([]float64{1}, LE, 2)},
	}
	if sol := solveOK(t, p); sol.X[0] != 2 {
		t.Fatalf("x=%v, want 2", sol.X)
	}
	// No variables: rows are constants.
	p = &Problem{Rows: []Row{{Sense: LE, RHS: 1}}}
	solveOK(t, p)
	p = &Problem{Rows: []Row{{Sense: GE, RHS: 1}}}
	if _, err := p.Solve(); !errors.Is(err, ErrInfeasible) {
		t.Fatalf("0 >= 1: got %v, want infeasible", err)
	}
}

func TestBadInput(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		p    *Problem
		want string
	}{
		{"nil", nil, "nil problem"},
		{"nan objective", &Problem{Obj: []float64{1, nan}}, "objective coefficient 1"},
		{"inf objective", &Problem{Obj: []float64{inf}}, "objective coefficient 0"},
		{"lower length", &Problem{Obj: []float64{1, 1}, Lower: []float64{0}}, "Lower has 1 entries, want 2"},
		{"upper length", &Problem{Obj: []float64{1}, Upper: []float64{0, 1}}, "Upper has 2 entries, want 1"},
		{"lo > hi", &Problem{Obj: []float64{1, 1}, Lower: []float64{0, 3}, Upper: []float64{1, 2}}, "variable 1: lower bound 3 > upper bound 2"},
		{"nan bound", &Problem{Obj: []float64{1}, Lower: []float64{nan}}, "variable 0: bound is NaN"},
		{"lo +inf", &Problem{Obj: []float64{1}, Lower: []float64{inf}}, "lower bound is +Inf"},
		{"hi -inf", &Problem{Obj: []float64{1}, Upper: []float64{math.Inf(-1)}}, "upper bound is -Inf"},
		{"ind/val", &Problem{Obj: []float64{1}, Rows: []Row{{Ind: []int{0}, Val: nil}}}, "row 0: 1 indices but 0 values"},
		{"index range", &Problem{Obj: []float64{1}, Rows: []Row{{Ind: []int{1}, Val: []float64{1}}}}, "row 0: variable index 1 out of range"},
		{"negative index", &Problem{Obj: []float64{1}, Rows: []Row{{}, {Ind: []int{-1}, Val: []float64{1}}}}, "row 1: variable index -1"},
		{"duplicate", &Problem{Obj: []float64{1, 1}, Rows: []Row{{Ind: []int{1, 1}, Val: []float64{1, 2}}}}, "row 0: variable 1 appears twice"},
		{"nan coef", &Problem{Obj: []float64{1}, Rows: []Row{{Ind: []int{0}, Val: []float64{nan}}}}, "row 0: coefficient of variable 0 is NaN"},
		{"nan rhs", &Problem{Obj: []float64{1}, Rows: []Row{{Sense: GE, RHS: nan}}}, "row 0: right-hand side is NaN"},
		{"eq inf", &Problem{Obj: []float64{1}, Rows: []Row{{Sense: EQ, RHS: inf}}}, "row 0: equality with infinite"},
		{"le -inf", &Problem{Obj: []float64{1}, Rows: []Row{{Sense: LE, RHS: math.Inf(-1)}}}, "row 0: a·x <= -Inf"},
		{"sense", &Problem{Obj: []float64{1}, Rows: []Row{{Sense: 7}}}, "row 0: unknown sense 7"},
	}
	for _, c := range cases {
		_, err := c.p.Solve()
		if c.p == nil {
			_, err = NewSolver(nil, nil)
		}
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrInvalid mentioning %q", c.name, err, c.want)
		}
	}
	s, err := NewSolver(&Problem{Obj: []float64{1}, Rows: []Row{{Sense: LE, RHS: 1}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"SetBounds range": s.SetBounds(1, 0, 1),
		"SetBounds lo>hi": s.SetBounds(0, 2, 1),
		"SetRHS range":    s.SetRHS(-1, 0),
		"SetRHS nan":      s.SetRHS(0, nan),
		"SetObj nan":      s.SetObj(0, nan),
		"SetObj range":    s.SetObj(3, 1),
	} {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

func TestIterationLimit(t *testing.T) {
	s, err := NewSolver(beale(), &Options{MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := s.Solve()
	if !errors.Is(err, ErrIterationLimit) || sol.Status != IterationLimit {
		t.Fatalf("got %v, %v; want iteration limit", sol.Status, err)
	}
	if !strings.Contains(err.Error(), "MaxIter") {
		t.Fatalf("error %q should say how to raise the limit", err)
	}
}

func TestWarmStartSequence(t *testing.T) {
	// Tighten and loosen a bound and a right-hand side in turn; each warm
	// solve must match a cold solve of the same problem.
	base := func() *Problem {
		return &Problem{
			Obj:   []float64{-3, -5, -4},
			Upper: []float64{inf, inf, inf},
			Rows: []Row{
				DenseRow([]float64{1, 0, 1}, LE, 4),
				DenseRow([]float64{0, 2, 1}, LE, 12),
				DenseRow([]float64{3, 2, 2}, LE, 18),
				DenseRow([]float64{1, 1, 1}, GE, 1),
			},
		}
	}
	p := base()
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := []func(){
		func() { p.Upper[1] = 2 },
		func() { p.Rows[2].RHS = 10 },
		func() { p.Upper[1] = inf },
		func() { p.Rows[3].RHS = 9 }, // makes the start infeasible
		func() { p.Rows[0].RHS = 1; p.Rows[1].RHS = 1 },
		func() { p.Upper[0], p.Upper[1], p.Upper[2] = 0, 0, 0 }, // infeasible
		func() { p.Upper[0], p.Upper[1], p.Upper[2] = inf, inf, inf; p.Rows[3].RHS = 1 },
	}
	for k, step := range steps {
		step()
		for j := range p.Obj {
			if err := s.SetBounds(j, 0, p.Upper[j]); err != nil {
				t.Fatal(err)
			}
		}
		for i, r := range p.Rows {
			if err := s.SetRHS(i, r.RHS); err != nil {
				t.Fatal(err)
			}
		}
		warm, werr := s.Solve()
		cold, cerr := p.Solve()
		if warm.Status != cold.Status || (werr == nil) != (cerr == nil) {
			t.Fatalf("step %d: warm %v (%v), cold %v (%v)", k, warm.Status, werr, cold.Status, cerr)
		}
		if cold.Status == Optimal {
			if !near(warm.Objective, cold.Objective) {
				t.Fatalf("step %d: warm objective %v, cold %v", k, warm.Objective, cold.Objective)
			}
			checkFeasible(t, p, warm.X, 1e-9)
		}
	}
}

func TestDeterministic(t *testing.T) {
	p := &Problem{Obj: make([]float64, 40)}
	// A fixed pseudo-random LP (linear congruential numbers).
	seed := uint64(12345)
	rnd := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	}
	for j := range p.Obj {
		p.Obj[j] = -rnd()
	}
	for i := 0; i < 25; i++ {
		coef := make([]float64, 40)
		for j := range coef {
			if rnd() < 0.3 {
				coef[j] = rnd()
			}
		}
		p.Rows = append(p.Rows, DenseRow(coef, LE, 1+rnd()))
	}
	a := solveOK(t, p)
	for range 3 {
		b := solveOK(t, p)
		if math.Float64bits(a.Objective) != math.Float64bits(b.Objective) || a.Iterations != b.Iterations {
			t.Fatalf("objective %v vs %v", a.Objective, b.Objective)
		}
		for j := range a.X {
			if math.Float64bits(a.X[j]) != math.Float64bits(b.X[j]) {
				t.Fatalf("x[%d] %v vs %v", j, a.X[j], b.X[j])
			}
		}
	}
}

func TestSetStart(t *testing.T) {
	p := &Problem{
		Obj: []float64{-3, -5},
		Rows: []Row{
			DenseRow([]float64{1, 0}, LE, 4),
			DenseRow([]float64{0, 2}, LE, 12),
			DenseRow([]float64{3, 2}, LE, 18),
		},
	}
	s, err := NewSolver(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Starting at the optimum needs no pivot.
	if err := s.SetStart([]float64{2, 6}); err != nil {
		t.Fatal(err)
	}
	sol, err := s.Solve()
	if err != nil || !near(sol.Objective, -36) || sol.Iterations != 0 {
		t.Fatalf("from the optimum: %v, objective %v, %d iterations", err, sol.Objective, sol.Iterations)
	}
	// A poor, infeasible start still ends at the optimum.
	if err := s.SetStart([]float64{100, -3}); err != nil {
		t.Fatal(err)
	}
	if sol, err = s.Solve(); err != nil || !near(sol.Objective, -36) {
		t.Fatalf("from a poor start: %v, objective %v", err, sol.Objective)
	}
	if err := s.SetStart([]float64{1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("short start: got %v", err)
	}
	if err := s.SetStart([]float64{1, math.NaN()}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NaN start: got %v", err)
	}
}
