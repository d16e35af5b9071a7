package cotask

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var inf = math.Inf(1)

// tb is what the checks need from *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// eps is the slack allowed in comparisons of times computed along
// different summation orders or through the LP.
func eps(v float64) float64 { return 1e-7 * (1 + math.Abs(v)) }

// checkFractional verifies that f is a CCT-LP solution at f.T.
func checkFractional(t tb, in Instance, f Fractional) {
	t.Helper()
	load := slices.Clone(in.Backlog)
	used := make([]bool, len(in.Backlog))
	for j, row := range f.X {
		sum := 0.0
		for k, v := range row {
			if v < 0 {
				t.Fatalf("x[%d][%d] = %v < 0", j, k, v)
			}
			if v > supportEps {
				if in.Backlog[k]+in.Times[j][k] > f.T+eps(f.T) {
					t.Fatalf("x[%d][%d] = %v on a pair finishing at %v > T = %v", j, k, v, in.Backlog[k]+in.Times[j][k], f.T)
				}
				load[k] += in.Times[j][k] * v
				used[k] = true
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-7 {
			t.Fatalf("task %d fractions sum to %v", j, sum)
		}
	}
	for k, l := range load {
		if used[k] && l > f.T+eps(f.T) {
			t.Fatalf("host %d finishes at %v > T = %v", k, l, f.T)
		}
	}
}

// checkTheorem1 asserts Theorem 1 for a rounded placement: every host k
// finishes by 2T − w_k, hence the CCT is at most 2T − min_k w_k.
func checkTheorem1(t tb, in Instance, T float64, host []int) {
	t.Helper()
	done, count := in.completions(host)
	for k, c := range count {
		if c > 0 && done[k] > 2*T-in.Backlog[k]+eps(T) {
			t.Fatalf("host %d finishes at %v > 2T − w_k = %v (T = %v)", k, done[k], 2*T-in.Backlog[k], T)
		}
	}
	if c := in.cct(host); c > 2*T-slices.Min(in.Backlog)+eps(T) {
		t.Fatalf("CCT %v > 2T − min w = %v", c, 2*T-slices.Min(in.Backlog))
	}
}

// checkExact asserts that T is the least t at which the reference
// feasibility LP (built from scratch, no warm start) is feasible.
func checkExact(t tb, in Instance, T float64) {
	t.Helper()
	if !feasibleAt(in, T+eps(T)*1e-2) {
		t.Fatalf("CCT-LP infeasible at t* = %v", T)
	}
	if below := T - eps(T); below >= 0 && feasibleAt(in, below) {
		t.Fatalf("CCT-LP feasible at %v, below t* = %v", below, T)
	}
}

// genInstance draws a small instance. Times come from a short list so that
// ties and degenerate LPs are common; +Inf appears now and then.
func genInstance(t *rapid.T, maxT, maxM int, allowNoHost bool) Instance {
	T := rapid.IntRange(1, maxT).Draw(t, "T")
	M := rapid.IntRange(1, maxM).Draw(t, "M")
	vals := []float64{0, 0.5, 1, 1, 2, 3, 3, 4.25, 7, inf}
	in := Instance{Times: make([][]float64, T), Backlog: make([]float64, M)}
	for k := range in.Backlog {
		in.Backlog[k] = []float64{0, 0, 0.5, 1, 2.5, 6}[rapid.IntRange(0, 5).Draw(t, "w")]
	}
	for j := range in.Times {
		in.Times[j] = make([]float64, M)
		for k := range in.Times[j] {
			in.Times[j][k] = vals[rapid.IntRange(0, len(vals)-1).Draw(t, "t")]
		}
		if !allowNoHost && !slices.ContainsFunc(in.Times[j], func(v float64) bool { return !math.IsInf(v, 1) }) {
			in.Times[j][rapid.IntRange(0, M-1).Draw(t, "fix")] = 1
		}
	}
	return in
}

// genRandomInstance draws a larger instance with continuous times: task
// sizes times host slowness times a per-pair factor, some pairs disabled.
func genRandomInstance(t *rapid.T) Instance {
	T := rapid.IntRange(1, 25).Draw(t, "T")
	M := rapid.IntRange(1, 8).Draw(t, "M")
	in := Instance{Times: make([][]float64, T), Backlog: make([]float64, M)}
	slow := make([]float64, M)
	for k := range in.Backlog {
		in.Backlog[k] = rapid.Float64Range(0, 30).Draw(t, "w")
		slow[k] = rapid.Float64Range(0.5, 2).Draw(t, "slow")
	}
	for j := range in.Times {
		size := rapid.Float64Range(0.1, 20).Draw(t, "size")
		in.Times[j] = make([]float64, M)
		for k := range in.Times[j] {
			in.Times[j][k] = size * slow[k] * rapid.Float64Range(0.8, 1.25).Draw(t, "f")
		}
		if M > 1 && rapid.IntRange(0, 4).Draw(t, "disable") == 0 {
			in.Times[j][rapid.IntRange(0, M-1).Draw(t, "k")] = inf
		}
	}
	return in
}

// TestPropertyBruteForce: on instances small enough to enumerate every
// placement, t* is exact and at most the ILP optimum, rounding stays
// within Theorem 1, and aggregation neither raises the CCT nor uses more
// hosts.
func TestPropertyBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, 6, 4, true)
		_, noHostErr := in.taskBounds()
		f, err := MinCCT(in, nil)
		if noHostErr != nil {
			if !errors.Is(err, ErrNoHost) {
				t.Fatalf("a task has no host: got %v, want ErrNoHost", err)
			}
			if _, err := Place(in, nil); !errors.Is(err, ErrNoHost) {
				t.Fatalf("Place: got %v, want ErrNoHost", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		opt := ilpOptimum(in)
		if f.T > opt+eps(opt) {
			t.Fatalf("t* = %v above the ILP optimum %v", f.T, opt)
		}
		checkFractional(t, in, f)
		checkExact(t, in, f.T)

		host, err := Round(in, f)
		if err != nil {
			t.Fatal(err)
		}
		checkTheorem1(t, in, f.T, host)

		pl, err := Place(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pl.LowerBound != f.T || pl.RoundedCCT != in.cct(host) {
			t.Fatalf("Place is not MinCCT then Round: %v/%v vs %v/%v", pl.LowerBound, pl.RoundedCCT, f.T, in.cct(host))
		}
		if pl.CCT > pl.RoundedCCT+eps(pl.RoundedCCT) || pl.CCT < opt-eps(opt) {
			t.Fatalf("placed CCT %v: rounded %v, ILP optimum %v", pl.CCT, pl.RoundedCCT, opt)
		}
		checkQueues(t, in, pl)
	})
}

func checkQueues(t tb, in Instance, pl Placement) {
	t.Helper()
	if err := in.checkPlacement(pl.Host); err != nil {
		t.Fatal(err)
	}
	if c := in.cct(pl.Host); c != pl.CCT {
		t.Fatalf("CCT %v, recomputed %v", pl.CCT, c)
	}
	seen := 0
	for k, q := range pl.Queues {
		for i, j := range q {
			if pl.Host[j] != k {
				t.Fatalf("task %d queued on host %d but placed on %d", j, k, pl.Host[j])
			}
			if i > 0 && in.Times[q[i-1]][k] < in.Times[j][k] {
				t.Fatalf("queue of host %d not longest first: %v", k, q)
			}
			seen++
		}
	}
	if seen != len(in.Times) {
		t.Fatalf("queues hold %d tasks, want %d", seen, len(in.Times))
	}
}

// TestPropertyRandomInstances: larger instances with continuous times,
// where brute force is out of reach: t* is exact against the reference
// LP and Theorem 1 holds.
func TestPropertyRandomInstances(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRandomInstance(t)
		f, err := MinCCT(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkFractional(t, in, f)
		checkExact(t, in, f.T)
		host, err := Round(in, f)
		if err != nil {
			t.Fatal(err)
		}
		checkTheorem1(t, in, f.T, host)
		agg, err := Aggregate(in, host)
		if err != nil {
			t.Fatal(err)
		}
		if in.cct(agg) > in.cct(host)+eps(in.cct(host)) {
			t.Fatalf("aggregation raised the CCT from %v to %v", in.cct(host), in.cct(agg))
		}
	})
}

func TestTolerance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRandomInstance(t)
		tol := rapid.Float64Range(0.01, 5).Draw(t, "tol")
		exact, err := MinCCT(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := MinCCT(in, &Options{Tol: tol})
		if err != nil {
			t.Fatal(err)
		}
		if f.T < exact.T-eps(exact.T) || f.T-tol >= exact.T {
			t.Fatalf("Tol %v: T = %v, exact t* = %v", tol, f.T, exact.T)
		}
		checkFractional(t, in, f)
		host, err := Round(in, f)
		if err != nil {
			t.Fatal(err)
		}
		checkTheorem1(t, in, f.T, host)
	})
}

// TestRoundNonVertex feeds Round a fractional placement that is not a
// vertex (every task split evenly over every host that can run it), which
// forces the vertex repair before rounding; Theorem 1 must still hold.
func TestRoundNonVertex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genRandomInstance(t)
		T, M := len(in.Times), len(in.Backlog)
		f := Fractional{X: make([][]float64, T)}
		load := slices.Clone(in.Backlog)
		for j, row := range in.Times {
			f.X[j] = make([]float64, M)
			n := 0
			for _, v := range row {
				if !math.IsInf(v, 1) {
					n++
				}
			}
			for k, v := range row {
				if !math.IsInf(v, 1) {
					f.X[j][k] = 1 / float64(n)
					load[k] += v / float64(n)
					f.T = max(f.T, in.Backlog[k]+v)
				}
			}
		}
		f.T = max(f.T, slices.Max(load))
		checkFractional(t, in, f)
		host, err := Round(in, f)
		if err != nil {
			t.Fatal(err)
		}
		checkTheorem1(t, in, f.T, host)
	})
}

func TestRoundCycle(t *testing.T) {
	// Two tasks split half and half over two hosts: one cycle of length 4.
	// Each host must get exactly one task.
	in := Instance{Times: [][]float64{{2, 2}, {2, 2}}, Backlog: []float64{0, 0}}
	f := Fractional{T: 2, X: [][]float64{{0.5, 0.5}, {0.5, 0.5}}}
	host, err := Round(in, f)
	if err != nil {
		t.Fatal(err)
	}
	if host[0] == host[1] {
		t.Fatalf("both tasks on host %d, want one per host", host[0])
	}
	// A tree: task 0 split over hosts 0 and 1, task 1 whole on host 1.
	in = Instance{Times: [][]float64{{2, 2}, {1, 1}}, Backlog: []float64{0, 0}}
	f = Fractional{T: 2, X: [][]float64{{0.5, 0.5}, {0, 1}}}
	if host, err = Round(in, f); err != nil {
		t.Fatal(err)
	}
	if host[1] != 1 || host[0] != 0 {
		t.Fatalf("got %v, want [0 1] (task 1 fixed on host 1, task 0 to the emptier host)", host)
	}
}

func TestRoundBadInput(t *testing.T) {
	in := Instance{Times: [][]float64{{1, inf}, {1, 1}}, Backlog: []float64{0, 0}}
	cases := []struct {
		name string
		x    [][]float64
		want string
	}{
		{"rows", [][]float64{{1, 0}}, "has 1 rows, want 2"},
		{"cols", [][]float64{{1, 0}, {1}}, "row 1 has 1 entries, want 2"},
		{"nan", [][]float64{{1, 0}, {math.NaN(), 1}}, "x[1][0] is NaN"},
		{"negative", [][]float64{{1, 0}, {-0.5, 1.5}}, "x[1][0] = -0.5 is negative"},
		{"sum", [][]float64{{1, 0}, {0.5, 0.4}}, "fractions of task 1 sum to 0.9"},
		{"forbidden", [][]float64{{0.5, 0.5}, {1, 0}}, "host 1 cannot run task 0"},
	}
	for _, c := range cases {
		_, err := Round(in, Fractional{T: 2, X: c.x})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrInvalid mentioning %q", c.name, err, c.want)
		}
	}
}

func TestAggregate(t *testing.T) {
	// Host 0 (backlog 2) runs task 0; host 1 runs tasks 1 and 2; CCT 3.
	// Task 0 fits on host 1 without passing 3, so host 0 is emptied.
	in := Instance{Times: [][]float64{{1, 1}, {1, 1}, {1, 1}}, Backlog: []float64{2, 0}}
	got, err := Aggregate(in, []int{0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{1, 1, 1}) {
		t.Fatalf("got %v, want all on host 1", got)
	}
	// Equal hosts, one task each: any move would raise the CCT.
	in = Instance{Times: [][]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, Backlog: []float64{0, 0, 0}}
	if got, _ = Aggregate(in, []int{0, 1, 2}); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("got %v, want no change", got)
	}
	// All or nothing: host 2 holds two tasks; one fits elsewhere, the
	// other does not, so neither moves.
	in = Instance{
		Times:   [][]float64{{4, inf, inf}, {inf, 4, inf}, {1, inf, 1}, {inf, inf, 3}},
		Backlog: []float64{0, 0, 0},
	}
	if got, _ = Aggregate(in, []int{0, 1, 2, 2}); !slices.Equal(got, []int{0, 1, 2, 2}) {
		t.Fatalf("got %v, want no change", got)
	}
	// Bad placements.
	if _, err := Aggregate(in, []int{0, 1, 2}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("short placement: got %v", err)
	}
	if _, err := Aggregate(in, []int{0, 1, 2, 5}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("host out of range: got %v", err)
	}
	if _, err := Aggregate(in, []int{1, 1, 2, 2}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "cannot run it") {
		t.Fatalf("impossible host: got %v", err)
	}
}

func TestPropertyAggregate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, 8, 5, false)
		host := make([]int, len(in.Times))
		for j, row := range in.Times {
			var ok []int
			for k, v := range row {
				if !math.IsInf(v, 1) {
					ok = append(ok, k)
				}
			}
			host[j] = ok[rapid.IntRange(0, len(ok)-1).Draw(t, "host")]
		}
		before := slices.Clone(host)
		got, err := Aggregate(in, host)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(host, before) {
			t.Fatal("Aggregate modified its input")
		}
		if err := in.checkPlacement(got); err != nil {
			t.Fatal(err)
		}
		if in.cct(got) > in.cct(host)+eps(in.cct(host)) {
			t.Fatalf("CCT rose from %v to %v", in.cct(host), in.cct(got))
		}
		_, cb := in.completions(host)
		_, ca := in.completions(got)
		usedB, usedA := 0, 0
		for k := range cb {
			if cb[k] > 0 {
				usedB++
			}
			if ca[k] > 0 {
				usedA++
				if cb[k] == 0 {
					t.Fatalf("host %d was not used before aggregation", k)
				}
			}
		}
		if usedA > usedB {
			t.Fatalf("hosts used rose from %d to %d", usedB, usedA)
		}
	})
}

func TestOrderLongestFirst(t *testing.T) {
	in := Instance{Times: [][]float64{{3, 1}, {1, 1}, {3, 1}, {2, 1}}, Backlog: []float64{0, 0}}
	got, err := OrderLongestFirst(in, 0, []int{1, 2, 3, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{0, 2, 3, 1}) {
		t.Fatalf("got %v, want [0 2 3 1]", got)
	}
	if _, err := OrderLongestFirst(in, 2, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad host: got %v", err)
	}
	if _, err := OrderLongestFirst(in, 0, []int{4}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad task: got %v", err)
	}
}

func TestDegenerate(t *testing.T) {
	cases := []struct {
		name      string
		in        Instance
		lower     float64 // t*
		cct       float64 // CCT of Place
		usedHosts int
	}{
		{
			// 5 equal tasks on 3 equal hosts: t* = 10/3; the best
			// placement is 2+2+1 = 4.
			name:  "all equal",
			in:    Instance{Times: [][]float64{{2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}}, Backlog: []float64{0, 0, 0}},
			lower: 10.0 / 3, cct: 4, usedHosts: 3,
		},
		{
			name:  "one host",
			in:    Instance{Times: [][]float64{{1}, {2}, {3}}, Backlog: []float64{5}},
			lower: 11, cct: 11, usedHosts: 1,
		},
		{
			name:  "one task",
			in:    Instance{Times: [][]float64{{3, 1, 2}}, Backlog: []float64{0, 5, 0}},
			lower: 2, cct: 2, usedHosts: 1,
		},
		{
			name:  "zero-time tasks, idle host",
			in:    Instance{Times: [][]float64{{0, 0}, {0, 0}, {0, 0}}, Backlog: []float64{1, 0}},
			lower: 0, cct: 0, usedHosts: 1,
		},
		{
			name:  "zero-time tasks, busy hosts",
			in:    Instance{Times: [][]float64{{0, 0}, {0, 0}}, Backlog: []float64{3, 1}},
			lower: 1, cct: 1, usedHosts: 1,
		},
		{
			// The busy host cannot help: t* ignores hosts that receive
			// nothing (see the package comment), so it is not 100.
			name:  "busy unused host",
			in:    Instance{Times: [][]float64{{1, 1}, {1, 1}}, Backlog: []float64{0, 100}},
			lower: 2, cct: 2, usedHosts: 1,
		},
	}
	for _, c := range cases {
		pl, err := Place(c.in, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(pl.LowerBound-c.lower) > 1e-9 {
			t.Errorf("%s: t* = %v, want %v", c.name, pl.LowerBound, c.lower)
		}
		if math.Abs(pl.CCT-c.cct) > 1e-9 {
			t.Errorf("%s: CCT = %v, want %v (host %v)", c.name, pl.CCT, c.cct, pl.Host)
		}
		used := 0
		for _, q := range pl.Queues {
			if len(q) > 0 {
				used++
			}
		}
		if used != c.usedHosts {
			t.Errorf("%s: %d hosts used, want %d (host %v)", c.name, used, c.usedHosts, pl.Host)
		}
		checkQueues(t, c.in, pl)
	}
}

func TestBadInstance(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		in   Instance
		want string
	}{
		{"no tasks", Instance{Backlog: []float64{0}}, "no tasks"},
		{"no hosts", Instance{Times: [][]float64{{}}}, "no hosts"},
		{"row length", Instance{Times: [][]float64{{1, 2}, {1}}, Backlog: []float64{0, 0}}, "task 1 has 1 times, want 2"},
		{"nan time", Instance{Times: [][]float64{{1, nan}}, Backlog: []float64{0, 0}}, "time of task 0 on host 1 is NaN"},
		{"negative time", Instance{Times: [][]float64{{-1}}, Backlog: []float64{0}}, "time of task 0 on host 0 is -1"},
		{"-inf time", Instance{Times: [][]float64{{math.Inf(-1)}}, Backlog: []float64{0}}, "is -Inf"},
		{"negative backlog", Instance{Times: [][]float64{{1}}, Backlog: []float64{-2}}, "backlog of host 0 is -2"},
		{"inf backlog", Instance{Times: [][]float64{{1}}, Backlog: []float64{inf}}, "backlog of host 0 is +Inf"},
		{"nan backlog", Instance{Times: [][]float64{{1}}, Backlog: []float64{nan}}, "backlog of host 0 is NaN"},
	}
	for _, c := range cases {
		for name, err := range map[string]error{
			"MinCCT": func() error { _, err := MinCCT(c.in, nil); return err }(),
			"Place":  func() error { _, err := Place(c.in, nil); return err }(),
			"CCT":    func() error { _, err := CCT(c.in, []int{0}); return err }(),
		} {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: got %v, want ErrInvalid mentioning %q", c.name, name, err, c.want)
			}
		}
	}
	in := Instance{Times: [][]float64{{1, 2}, {inf, inf}}, Backlog: []float64{0, 0}}
	if _, err := MinCCT(in, nil); !errors.Is(err, ErrNoHost) || !strings.Contains(err.Error(), "task 1") {
		t.Errorf("task without host: got %v, want ErrNoHost naming task 1", err)
	}
	in = Instance{Times: [][]float64{{1}}, Backlog: []float64{0}}
	if _, err := MinCCT(in, &Options{Tol: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative Tol: got %v", err)
	}
}

func TestDeterministic(t *testing.T) {
	in := randomInstance(7, 40, 30)
	a, err := Place(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	fa, _ := MinCCT(in, nil)
	for range 2 {
		b, _ := Place(in, nil)
		fb, _ := MinCCT(in, nil)
		if math.Float64bits(a.CCT) != math.Float64bits(b.CCT) ||
			math.Float64bits(a.LowerBound) != math.Float64bits(b.LowerBound) ||
			!slices.Equal(a.Host, b.Host) {
			t.Fatalf("Place differs between runs")
		}
		for j := range fa.X {
			for k := range fa.X[j] {
				if math.Float64bits(fa.X[j][k]) != math.Float64bits(fb.X[j][k]) {
					t.Fatalf("x[%d][%d] differs between runs", j, k)
				}
			}
		}
	}
}

// TestBenchmarkInstance checks the benchmark's answer once, so that the
// number measured is that of a correct result.
func TestBenchmarkInstance(t *testing.T) {
	in := randomInstance(1, 100, 100)
	f, err := MinCCT(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFractional(t, in, f)
	checkExact(t, in, f.T)
	host, err := Round(in, f)
	if err != nil {
		t.Fatal(err)
	}
	checkTheorem1(t, in, f.T, host)
}
