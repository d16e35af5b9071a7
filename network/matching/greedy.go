package matching

import (
	"cmp"
	"slices"
)

// Edge is a weighted edge of a sparse bipartite graph: row Row, column Col.
type Edge struct {
	Row, Col int
	Weight   float64
}

// Greedy returns a matching of the sparse bipartite graph of rows 0..n-1
// given by edges: edges are taken heaviest first (ties by row, then
// column) when both their ends are free. assign[row] is the matched column
// or -1; edges of weight <= 0 are never taken. It costs O(E log E) time for
// E edges, against O(n^3) for MaxWeight, and its total is at least half the
// maximum (each edge it passes over is outweighed by a taken edge at one of
// its ends); on random sparse demand it reaches 95% of it on average with
// uniform weights, 99.9% with heavy-tailed ones (TestGreedyError measures
// it). edges is reordered.
func Greedy(n int, edges []Edge) (assign []int, total float64) {
	slices.SortFunc(edges, func(a, b Edge) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Row, b.Row); c != 0 {
			return c
		}
		return cmp.Compare(a.Col, b.Col)
	})
	assign = make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	colUsed := map[int]bool{}
	for _, e := range edges {
		if e.Weight <= 0 || assign[e.Row] >= 0 || colUsed[e.Col] {
			continue
		}
		assign[e.Row] = e.Col
		colUsed[e.Col] = true
		total += e.Weight
	}
	return assign, total
}
