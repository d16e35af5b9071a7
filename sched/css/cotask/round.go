package cotask

import (
	"math"

	"github.com/netsched/netsched/lp"
)

// supportEps: a fraction at or below this is treated as zero when building
// the bipartite graph. LP solutions carry rounding noise of about 1e-15.
const supportEps = 1e-9

// Round turns a fractional placement into one host per task with
// Algorithm 2 (task placement by pseudo-forest rounding) and returns the
// host of each task.
//
// Build the bipartite graph G(x) of tasks and hosts with an edge where
// x_jk > 0 (Corollary 1). Tasks with one edge go to that host. If some
// component has more edges than nodes (x is not a vertex, e.g. a caller's
// hand-made split), x is first replaced by a vertex of the same polytope
// with no host more loaded than before, found with the lp package; a
// vertex's components are pseudo-trees (Lemma 1). Then, per component:
// if it has as many edges as nodes it holds exactly one cycle, which
// alternates tasks and hosts; each task on the cycle gets the next host
// along it, so each cycle host gets one task (Algorithm 2, lines 5–7).
// The rest of the component is a forest hanging off the cycle (or, with
// no cycle, a tree rooted at a task); every remaining task has a parent
// host and at least one child host, and goes to a child (lines 9–12), so
// no host gets more than one of the component's fractional tasks.
//
// Where the paper says "arbitrary" we choose deterministically and
// greedily: the cycle direction and the child host are the ones giving the
// smaller completion time, ties to the lower index. Any choice keeps
// Theorem 1: if f is feasible for CCT-LP at f.T, host k gets its whole
// tasks, worth at most f.T − w_k, plus at most one split task, which has
// t_jk <= f.T − w_k, so it ends by 2 f.T − w_k <= 2 f.T − min_k w_k.
func Round(in Instance, f Fractional) ([]int, error) {
	T, M, err := in.dims()
	if err != nil {
		return nil, err
	}
	if len(f.X) != T {
		return nil, invalid("fractional placement has %d rows, want %d (one per task)", len(f.X), T)
	}
	x := make([][]float64, T)
	for j, row := range f.X {
		if len(row) != M {
			return nil, invalid("fractional placement row %d has %d entries, want %d (one per host)", j, len(row), M)
		}
		sum := 0.0
		for k, v := range row {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, invalid("x[%d][%d] is %v", j, k, v)
			case v < -supportEps:
				return nil, invalid("x[%d][%d] = %v is negative", j, k, v)
			case v > supportEps && math.IsInf(in.Times[j][k], 1):
				return nil, invalid("x[%d][%d] = %v but host %d cannot run task %d", j, k, v, k, j)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-6 {
			return nil, invalid("fractions of task %d sum to %v, want 1", j, sum)
		}
		x[j] = append([]float64(nil), row...)
	}

	r := newRounder(in, x)
	if !r.pseudoForest() {
		if v, ok := vertexOf(in, x); ok {
			r = newRounder(in, v)
		}
		// If no vertex could be found (numerically hopeless input), round
		// the graph as it is; the placement is still valid, only
		// Theorem 1's bound is no longer guaranteed.
	}
	r.round()
	return r.host, nil
}

// rounder holds the support graph. Node ids: task j is j, host k is T+k.
type rounder struct {
	in      Instance
	T, M    int
	host    []int     // result; -1 while unassigned
	done    []float64 // w_k + times of tasks assigned so far
	adj     [][]int   // among unassigned (fractional) tasks and their hosts
	visited []bool
	deg     []int // scratch for cycle
	parent  []int // scratch for tree
}

func newRounder(in Instance, x [][]float64) *rounder {
	T, M := len(in.Times), len(in.Backlog)
	r := &rounder{in: in, T: T, M: M, host: make([]int, T), adj: make([][]int, T+M),
		visited: make([]bool, T+M), deg: make([]int, T+M), parent: make([]int, T+M)}
	r.done = append([]float64(nil), in.Backlog...)
	// Line 3: tasks with a single host go there.
	for j, row := range x {
		r.host[j] = -1
		deg, last := 0, -1
		for k, v := range row {
			if v > supportEps {
				deg++
				last = k
			}
		}
		if deg == 1 {
			r.assign(j, last)
		}
	}
	for j, row := range x {
		if r.host[j] >= 0 {
			continue
		}
		for k, v := range row {
			if v > supportEps {
				r.adj[j] = append(r.adj[j], T+k)
				r.adj[T+k] = append(r.adj[T+k], j)
			}
		}
	}
	return r
}

func (r *rounder) assign(j, k int) {
	r.host[j] = k
	r.done[k] += r.in.Times[j][k]
}

// component returns the nodes of the component of start (BFS order) and
// its number of edges.
func (r *rounder) component(start int, seen []bool) (nodes []int, edges int) {
	nodes = append(nodes, start)
	seen[start] = true
	for i := 0; i < len(nodes); i++ {
		u := nodes[i]
		if u < r.T {
			edges += len(r.adj[u])
		}
		for _, v := range r.adj[u] {
			if !seen[v] {
				seen[v] = true
				nodes = append(nodes, v)
			}
		}
	}
	return nodes, edges
}

// pseudoForest reports whether no component has more edges than nodes.
func (r *rounder) pseudoForest() bool {
	seen := make([]bool, r.T+r.M)
	for j := 0; j < r.T; j++ {
		if r.host[j] >= 0 || seen[j] {
			continue
		}
		nodes, edges := r.component(j, seen)
		if edges > len(nodes) {
			return false
		}
	}
	return true
}

// round runs Algorithm 2 lines 4–12 on every component.
func (r *rounder) round() {
	seen := make([]bool, r.T+r.M)
	for j := 0; j < r.T; j++ {
		if r.host[j] >= 0 || seen[j] {
			continue
		}
		nodes, edges := r.component(j, seen)
		var roots []int
		if edges == len(nodes) {
			roots = r.cycle(nodes)
		} else {
			roots = []int{j} // lowest-index task of the component
		}
		r.tree(roots)
	}
}

// cycle finds the one cycle of a component with as many edges as nodes,
// assigns its tasks around it, and returns the cycle's nodes.
func (r *rounder) cycle(nodes []int) []int {
	// Strip leaves until only the cycle is left.
	deg := r.deg
	var queue []int
	for _, u := range nodes {
		deg[u] = len(r.adj[u])
		if deg[u] == 1 {
			queue = append(queue, u)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		deg[u] = 0
		for _, v := range r.adj[u] {
			if deg[v] > 0 {
				deg[v]--
				if deg[v] == 1 {
					queue = append(queue, v)
				}
			}
		}
	}
	on := func(u int) bool { return deg[u] >= 2 }
	start := -1
	for _, u := range nodes {
		if u < r.T && on(u) && (start < 0 || u < start) {
			start = u
		}
	}
	// Walk: start, h0, u1, h1, ..., back to start.
	var tasks, hosts []int
	prev, cur := -1, start
	for {
		tasks = append(tasks, cur)
		var h int
		for _, v := range r.adj[cur] {
			if on(v) && v != prev {
				h = v
				break
			}
		}
		hosts = append(hosts, h)
		next := -1
		for _, v := range r.adj[h] {
			if on(v) && v != cur {
				next = v
				break
			}
		}
		if next == start || next < 0 {
			break
		}
		prev, cur = h, next
	}
	// Direction A gives task i the host after it, B the host before it.
	L := len(tasks)
	worst := func(shift int) float64 {
		c := 0.0
		for i, u := range tasks {
			k := hosts[(i+shift+L)%L] - r.T
			c = max(c, r.done[k]+r.in.Times[u][k])
		}
		return c
	}
	shift := 0
	if worst(-1) < worst(0) {
		shift = -1
	}
	roots := make([]int, 0, 2*L)
	for i, u := range tasks {
		r.assign(u, hosts[(i+shift+L)%L]-r.T)
		roots = append(roots, u, hosts[i])
	}
	return roots
}

// tree assigns the remaining tasks of a component by a breadth-first walk
// from roots: a task goes to one of its unvisited neighbours (its
// children), the one where it completes earliest. A task with no child
// happens only when the component was not a pseudo-tree (the fallback in
// Round); it then goes to its parent host.
func (r *rounder) tree(roots []int) {
	parent := r.parent
	queue := append([]int(nil), roots...)
	for _, u := range roots {
		r.visited[u] = true
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		if u < r.T && r.host[u] < 0 {
			best := -1
			for _, v := range r.adj[u] {
				if r.visited[v] {
					continue
				}
				k := v - r.T
				if best < 0 || r.done[k]+r.in.Times[u][k] < r.done[best]+r.in.Times[u][best] {
					best = k
				}
			}
			if best < 0 {
				best = parent[u] - r.T
			}
			r.assign(u, best)
		}
		for _, v := range r.adj[u] {
			if !r.visited[v] {
				r.visited[v] = true
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
}

// vertexOf returns a vertex of {y >= 0 on the support of x : Σ_k y_jk = 1,
// Σ_j t_jk y_jk <= load_k(x)}, minimising total work, so no host is more
// loaded than under x. It reports false if the LP fails.
func vertexOf(in Instance, x [][]float64) ([][]float64, bool) {
	T, M := len(in.Times), len(in.Backlog)
	var pj, pk []int
	load := make([]float64, M)
	for j, row := range x {
		for k, v := range row {
			if v > 0 {
				pj, pk = append(pj, j), append(pk, k)
				load[k] += in.Times[j][k] * v
			}
		}
	}
	prob := &lp.Problem{Obj: make([]float64, len(pj))}
	rows := make([]lp.Row, T+M)
	for j := 0; j < T; j++ {
		rows[j] = lp.Row{Sense: lp.EQ, RHS: 1}
	}
	for k := 0; k < M; k++ {
		// A hair of slack so that x itself is feasible despite rounding.
		rows[T+k] = lp.Row{Sense: lp.LE, RHS: load[k] * (1 + 1e-12)}
	}
	for q := range pj {
		j, k := pj[q], pk[q]
		t := in.Times[j][k]
		prob.Obj[q] = t
		rows[j].Ind, rows[j].Val = append(rows[j].Ind, q), append(rows[j].Val, 1)
		rows[T+k].Ind, rows[T+k].Val = append(rows[T+k].Ind, q), append(rows[T+k].Val, t)
	}
	prob.Rows = rows
	sol, err := prob.Solve()
	if err != nil {
		return nil, false
	}
	v := make([][]float64, T)
	for j := range v {
		v[j] = make([]float64, M)
	}
	for q, val := range sol.X {
		v[pj[q]][pk[q]] = val
	}
	return v, true
}
