// Package matching solves the assignment problem: a maximum-weight matching
// of a bipartite graph given as a weight matrix. The OCS controller uses it to
// pick circuits (rows = transmit ports, columns = receive ports).
//
// The solver is the shortest-augmenting-path form of the Hungarian method
// (Kuhn-Munkres with Jonker-Volgenant style potentials): one Dijkstra-like
// pass per row over dense reduced costs, O(n^2 m) time for n rows and m >= n
// columns, O(n + m) extra memory.
package matching

import (
	"fmt"
	"math"
)

// MaxWeight returns a maximum-weight matching of the bipartite graph whose
// edge weights are w[row][col]. Negative weights are treated as 0 (an edge not
// worth using); assign[row] is the matched column, or -1 when the row is left
// unmatched (or matched only through a zero-weight edge). total is the sum of
// the weights of the matched edges. The matrix may be rectangular; every row
// must have the same length. An empty matrix gives an empty assignment.
func MaxWeight(w [][]float64) (assign []int, total float64, err error) {
	n := len(w)
	if n == 0 {
		return nil, 0, nil
	}
	m := len(w[0])
	for i, row := range w {
		if len(row) != m {
			return nil, 0, fmt.Errorf("matching: row %d has %d columns, row 0 has %d", i, len(row), m)
		}
		for j, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, 0, fmt.Errorf("matching: weight [%d][%d] is %v", i, j, x)
			}
		}
	}
	// Square the problem: padding rows/columns have weight 0, so a row matched
	// to a padding column is simply unmatched.
	size := max(n, m)
	cost := func(i, j int) float64 {
		if i >= n || j >= m || w[i][j] <= 0 {
			return 0
		}
		return -w[i][j] // minimise the negated weight
	}
	cols := minCostAssignment(size, cost)
	assign = make([]int, n)
	for i := range n {
		j := cols[i]
		if j < m && w[i][j] > 0 {
			assign[i] = j
			total += w[i][j]
		} else {
			assign[i] = -1
		}
	}
	return assign, total, nil
}

// minCostAssignment returns, for each row of an n x n cost matrix, the column
// of a minimum-cost perfect assignment.
//
// Rows are inserted one at a time. Inserting row r grows a shortest-path tree
// over columns with reduced costs c(i,j) - u[i] - v[j] >= 0 until it reaches a
// free column, then flips the matching along that path. Potentials u, v are
// updated so reduced costs stay non-negative, which keeps every later search a
// plain Dijkstra over a dense graph: O(n^2) per row.
func minCostAssignment(n int, c func(i, j int) float64) []int {
	// Index 0 of the column arrays is a virtual column holding the row being
	// inserted; real columns are 1..n, real rows 1..n.
	u := make([]float64, n+1)
	v := make([]float64, n+1)
	rowOf := make([]int, n+1) // rowOf[j] = row matched to column j, 0 = free
	prev := make([]int, n+1)  // previous column on the shortest path to j
	dist := make([]float64, n+1)
	done := make([]bool, n+1)
	for r := 1; r <= n; r++ {
		rowOf[0] = r
		for j := range dist {
			dist[j] = math.Inf(1)
			done[j] = false
		}
		j0 := 0
		for {
			done[j0] = true
			i0 := rowOf[j0]
			delta, j1 := math.Inf(1), 0
			for j := 1; j <= n; j++ {
				if done[j] {
					continue
				}
				if d := c(i0-1, j-1) - u[i0] - v[j]; d < dist[j] {
					dist[j] = d
					prev[j] = j0
				}
				if dist[j] < delta {
					delta, j1 = dist[j], j
				}
			}
			// Shift potentials by delta: tree columns keep zero reduced
			// cost on their matched edges, the rest get closer by delta.
			for j := 0; j <= n; j++ {
				if done[j] {
					u[rowOf[j]] += delta
					v[j] -= delta
				} else {
					dist[j] -= delta
				}
			}
			j0 = j1
			if rowOf[j0] == 0 {
				break // reached a free column
			}
		}
		// Augment: walk back along the path, shifting each row one column.
		for j0 != 0 {
			j1 := prev[j0]
			rowOf[j0] = rowOf[j1]
			j0 = j1
		}
	}
	cols := make([]int, n)
	for j := 1; j <= n; j++ {
		cols[rowOf[j]-1] = j - 1
	}
	return cols
}
