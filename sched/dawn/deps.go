package dawn

import "slices"

// Graph is the dependency detector (§3.1): the workflow DAG of the jobs
// Dawn knows, kept as each job's parents and children in arrival order. An
// edge (x, y) means job y reads job x's output. From it the online plan
// reads Next_x, the jobs that read x, and Prev_{x,y}, the other jobs y
// reads besides x (eqs. 5-6).
//
// Dawn's implementation stores the workload's dependency matrix D from the
// benchmark's documentation; here the DAG is the workload's own `after`
// lists (Job.ParentJobs), learnt as jobs arrive. A workflow's jobs are all
// submitted at its arrival, so a job's children are known while it runs.
type Graph struct {
	parents  map[string][]string
	children map[string][]string
}

// NewGraph returns an empty detector.
func NewGraph() *Graph {
	return &Graph{parents: map[string][]string{}, children: map[string][]string{}}
}

// Add records job id and the jobs it reads (d_{p,id} = 1 for each parent p).
func (g *Graph) Add(id string, parents []string) {
	g.parents[id] = slices.Clone(parents)
	for _, p := range parents {
		g.children[p] = append(g.children[p], id)
	}
}

// Next is Next_x = {y | d_{x,y} = 1}: the known jobs that read x's output,
// in arrival order. The slice is the detector's: read only.
func (g *Graph) Next(x string) []string { return g.children[x] }

// Prev is Prev_{x,y} = {z | d_{z,y} = 1, z != x}: the jobs other than x
// whose output y also reads, in y's order.
func (g *Graph) Prev(x, y string) []string {
	var out []string
	for _, z := range g.parents[y] {
		if z != x {
			out = append(out, z)
		}
	}
	return out
}

// Parents are the jobs id reads, as added.
func (g *Graph) Parents(id string) []string { return g.parents[id] }

// Remove forgets a finished job: its children no longer need it planned
// (they read its output through View.Output), and it plans no more.
func (g *Graph) Remove(id string) {
	delete(g.parents, id)
	delete(g.children, id)
}
