package lp

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// bruteForce solves a problem whose variables all have finite bounds by
// enumerating vertices: every choice of n linearly independent
// hyperplanes among the rows (taken as equalities) and the bounds, solved
// by Gaussian elimination and kept if it satisfies everything. A bounded
// non-empty polyhedron attains its minimum at a vertex, so the best kept
// point is the optimum; none kept means infeasible.
func bruteForce(p *Problem) (best float64, feasible bool) {
	n := len(p.Obj)
	type plane struct {
		a []float64
		b float64
	}
	var planes []plane
	for _, r := range p.Rows {
		a := make([]float64, n)
		for k, j := range r.Ind {
			a[j] = r.Val[k]
		}
		planes = append(planes, plane{a, r.RHS})
	}
	for j := 0; j < n; j++ {
		for _, b := range []float64{p.Lower[j], p.Upper[j]} {
			a := make([]float64, n)
			a[j] = 1
			planes = append(planes, plane{a, b})
		}
	}
	best = math.Inf(1)
	pick := make([]int, n)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == n {
			A := make([][]float64, n)
			for r := range A {
				A[r] = append(append([]float64(nil), planes[pick[r]].a...), planes[pick[r]].b)
			}
			x, ok := gauss(A)
			if !ok || !inside(p, x) {
				return
			}
			v := 0.0
			for j := range x {
				v += p.Obj[j] * x[j]
			}
			best = min(best, v)
			feasible = true
			return
		}
		for i := start; i < len(planes); i++ {
			pick[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	return best, feasible
}

// gauss solves the n×(n+1) augmented system A, reporting false when it is
// singular.
func gauss(A [][]float64) ([]float64, bool) {
	n := len(A)
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		if math.Abs(A[p][c]) < 1e-9 {
			return nil, false
		}
		A[c], A[p] = A[p], A[c]
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := A[r][c] / A[c][c]
			for k := c; k <= n; k++ {
				A[r][k] -= f * A[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := range x {
		x[r] = A[r][n] / A[r][r]
	}
	return x, true
}

func inside(p *Problem, x []float64) bool {
	const tol = 1e-9
	for j, v := range x {
		if v < p.Lower[j]-tol || v > p.Upper[j]+tol {
			return false
		}
	}
	for _, r := range p.Rows {
		act := 0.0
		for k, j := range r.Ind {
			act += r.Val[k] * x[j]
		}
		switch r.Sense {
		case LE:
			if act > r.RHS+tol {
				return false
			}
		case GE:
			if act < r.RHS-tol {
				return false
			}
		case EQ:
			if math.Abs(act-r.RHS) > tol {
				return false
			}
		}
	}
	return true
}

// genBoxed draws a small LP with integer data (which makes ties and
// degenerate vertices common) and finite bounds on every variable.
func genBoxed(t *rapid.T) *Problem {
	n := rapid.IntRange(2, 4).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	p := &Problem{Obj: make([]float64, n), Lower: make([]float64, n), Upper: make([]float64, n)}
	for j := 0; j < n; j++ {
		p.Obj[j] = float64(rapid.IntRange(-5, 5).Draw(t, "c"))
		p.Lower[j] = float64(rapid.IntRange(-4, 2).Draw(t, "lo"))
		p.Upper[j] = p.Lower[j] + float64(rapid.IntRange(0, 6).Draw(t, "width"))
	}
	for i := 0; i < m; i++ {
		coef := make([]float64, n)
		for j := range coef {
			coef[j] = float64(rapid.IntRange(-4, 4).Draw(t, "a"))
		}
		sense := Sense(rapid.IntRange(0, 2).Draw(t, "sense"))
		rhs := float64(rapid.IntRange(-8, 8).Draw(t, "b"))
		p.Rows = append(p.Rows, DenseRow(coef, sense, rhs))
	}
	return p
}

func TestPropertyVersusVertexEnumeration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genBoxed(t)
		bland := rapid.Bool().Draw(t, "bland")
		want, feasible := bruteForce(p)
		s, err := NewSolver(p, &Options{Bland: bland})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve()
		if !feasible {
			if sol.Status != Infeasible {
				t.Fatalf("brute force: infeasible; solver: %v (%v) x=%v", sol.Status, err, sol.X)
			}
			return
		}
		if err != nil || sol.Status != Optimal {
			t.Fatalf("brute force optimum %v; solver: %v (%v)", want, sol.Status, err)
		}
		if math.Abs(sol.Objective-want) > 1e-7*(1+math.Abs(want)) {
			t.Fatalf("objective %v, brute force %v (x=%v)", sol.Objective, want, sol.X)
		}
		if !inside(p, sol.X) {
			t.Fatalf("solution %v violates the problem", sol.X)
		}
	})
}

func TestPropertyWarmStartMatchesCold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genBoxed(t)
		s, err := NewSolver(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Solve()
		for range rapid.IntRange(1, 4).Draw(t, "changes") {
			if len(p.Rows) > 0 && rapid.Bool().Draw(t, "rowChange") {
				i := rapid.IntRange(0, len(p.Rows)-1).Draw(t, "row")
				p.Rows[i].RHS = float64(rapid.IntRange(-8, 8).Draw(t, "b"))
				if err := s.SetRHS(i, p.Rows[i].RHS); err != nil {
					t.Fatal(err)
				}
			} else {
				j := rapid.IntRange(0, len(p.Obj)-1).Draw(t, "var")
				p.Lower[j] = float64(rapid.IntRange(-4, 2).Draw(t, "lo"))
				p.Upper[j] = p.Lower[j] + float64(rapid.IntRange(0, 6).Draw(t, "width"))
				if err := s.SetBounds(j, p.Lower[j], p.Upper[j]); err != nil {
					t.Fatal(err)
				}
			}
			if rapid.Bool().Draw(t, "objChange") {
				j := rapid.IntRange(0, len(p.Obj)-1).Draw(t, "var")
				p.Obj[j] = float64(rapid.IntRange(-5, 5).Draw(t, "c"))
				if err := s.SetObj(j, p.Obj[j]); err != nil {
					t.Fatal(err)
				}
			}
			warm, _ := s.Solve()
			want, feasible := bruteForce(p)
			if !feasible {
				if warm.Status != Infeasible {
					t.Fatalf("warm: %v, want infeasible", warm.Status)
				}
				continue
			}
			if warm.Status != Optimal || math.Abs(warm.Objective-want) > 1e-7*(1+math.Abs(want)) {
				t.Fatalf("warm: %v objective %v, brute force %v", warm.Status, warm.Objective, want)
			}
		}
	})
}

// TestPropertyUnboundedDetected: with one variable left without an upper
// bound and a cost pushing it up, the problem is unbounded exactly when
// the vertex enumeration on a large box finds the optimum on the box.
func TestPropertyUnboundedDetected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genBoxed(t)
		j := rapid.IntRange(0, len(p.Obj)-1).Draw(t, "free")
		const big = 1e5
		boxed := &Problem{Obj: p.Obj, Lower: append([]float64(nil), p.Lower...), Upper: append([]float64(nil), p.Upper...), Rows: p.Rows}
		boxed.Upper[j] = big
		p.Upper[j] = math.Inf(1)
		want, feasible := bruteForce(boxed)
		sol, _ := p.Solve()
		switch {
		case !feasible:
			// The big box may cut off all of a feasible set only if every
			// feasible point has x_j > 1e5, impossible with this data.
			if sol.Status != Infeasible {
				t.Fatalf("status %v, want infeasible", sol.Status)
			}
		case want < -big/2:
			if sol.Status != Unbounded {
				t.Fatalf("status %v (obj %v), want unbounded (box optimum %v)", sol.Status, sol.Objective, want)
			}
		default:
			if sol.Status != Optimal || math.Abs(sol.Objective-want) > 1e-7*(1+math.Abs(want)) {
				t.Fatalf("status %v objective %v, want %v", sol.Status, sol.Objective, want)
			}
		}
	})
}

// TestPropertyKnapsack: the fractional knapsack (max v·x, w·x <= cap,
// 0 <= x <= 1) has a closed-form optimum: take items by value density.
// With one row and hundreds of columns it exercises partial pricing and
// bound flips.
func TestPropertyKnapsack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(t, "n")
		v := make([]float64, n)
		w := make([]float64, n)
		p := &Problem{Obj: make([]float64, n), Lower: make([]float64, n), Upper: make([]float64, n)}
		total := 0.0
		for j := range v {
			v[j] = float64(rapid.IntRange(0, 20).Draw(t, "v"))
			w[j] = float64(rapid.IntRange(1, 20).Draw(t, "w"))
			p.Obj[j] = -v[j]
			p.Upper[j] = 1
			total += w[j]
		}
		capacity := rapid.Float64Range(0, total).Draw(t, "cap")
		p.Rows = []Row{DenseRow(w, LE, capacity)}
		order := make([]int, n)
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(v[b]/w[b], v[a]/w[a]) })
		want, left := 0.0, capacity
		for _, j := range order {
			take := min(1, left/w[j])
			want += v[j] * take
			left -= w[j] * take
		}
		sol, err := p.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(-sol.Objective-want) > 1e-7*(1+want) {
			t.Fatalf("objective %v, greedy optimum %v", -sol.Objective, want)
		}
		if !inside(p, sol.X) {
			t.Fatal("solution infeasible")
		}
	})
}

// TestPropertyManyColumns compares partial pricing with full Bland
// pricing on random LPs with several times more columns than rows.
func TestPropertyManyColumns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 6).Draw(t, "m")
		n := rapid.IntRange(8*m, 40*m).Draw(t, "n")
		p := &Problem{Obj: make([]float64, n), Lower: make([]float64, n), Upper: make([]float64, n)}
		for j := range p.Obj {
			p.Obj[j] = float64(rapid.IntRange(-9, 3).Draw(t, "c"))
			p.Upper[j] = float64(rapid.IntRange(1, 4).Draw(t, "u"))
		}
		for i := 0; i < m; i++ {
			coef := make([]float64, n)
			for j := range coef {
				if rapid.IntRange(0, 2).Draw(t, "nz") == 0 {
					coef[j] = float64(rapid.IntRange(-3, 6).Draw(t, "a"))
				}
			}
			sense := []Sense{LE, LE, GE, EQ}[rapid.IntRange(0, 3).Draw(t, "sense")]
			p.Rows = append(p.Rows, DenseRow(coef, sense, float64(rapid.IntRange(-5, 30).Draw(t, "b"))))
		}
		a, errA := p.Solve()
		s, _ := NewSolver(p, &Options{Bland: true})
		b, errB := s.Solve()
		if a.Status != b.Status || (errA == nil) != (errB == nil) {
			t.Fatalf("partial pricing %v (%v), Bland %v (%v)", a.Status, errA, b.Status, errB)
		}
		if a.Status == Optimal {
			if math.Abs(a.Objective-b.Objective) > 1e-7*(1+math.Abs(b.Objective)) {
				t.Fatalf("objective %v, Bland %v", a.Objective, b.Objective)
			}
			if !inside(p, a.X) || !inside(p, b.X) {
				t.Fatal("solution infeasible")
			}
		}
	})
}
