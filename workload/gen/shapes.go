package gen

import (
	"fmt"
	"math/rand/v2"
)

// A shape is a workflow's job DAG: jobs in topological order, each naming
// its role (which sets its data ratios), its parent jobs (indices of
// earlier jobs) and, for root jobs, its share of the workflow's input.
type shapeJob struct {
	name    string
	role    string
	parents []int
	input   float64 // share of the workflow input read from the DFS (roots)
}

// Kinds of workflow, in the order options list them. The ML ones follow
// Dawn Table 2 (HiBench / Mahout, DAG depths 11, 8, 11, 21, 18); tpch is a
// TPC-H-like query (Dawn §5.2, average depth 6).
var Kinds = []string{"kmeans", "bayes", "pagerank", "mf", "lda", "tpch"}

// kindInputs are Dawn Table 2's input sizes per benchmark (GB, one drawn at
// random per workflow) and Dawn §5.2's 50 GB TPC-H input.
var kindInputs = map[string][]float64{
	"kmeans":   {2.5e9, 6.5e9, 10.2e9},
	"bayes":    {5.8e9, 7.8e9, 11.9e9},
	"pagerank": {3.4e9, 6.6e9, 8.8e9},
	"mf":       {4.5e9, 5.5e9, 7.3e9},
	"lda":      {6.2e9, 8.4e9, 10.1e9},
	"tpch":     {50e9},
}

// iterative builds prep -> init -> iter1..iterN -> final, where every
// iteration (and the final pass) also reads the prepared data: HiBench's
// K-means and PageRank, Mahout's ALS and CVB all re-read the dataset each
// iteration. Depth = iterations + 3.
func iterative(init string, iters int, final string) []shapeJob {
	js := []shapeJob{{name: "prep", role: "prep", input: 1}, {name: init, role: "init", parents: []int{0}}}
	for i := 1; i <= iters; i++ {
		js = append(js, shapeJob{name: fmt.Sprintf("iter%d", i), role: "iter", parents: []int{len(js) - 1, 0}})
	}
	return append(js, shapeJob{name: final, role: "final", parents: []int{len(js) - 1, 0}})
}

// shape returns the DAG of one workflow of a kind; tpch depths are drawn
// from r uniformly in [minDepth, maxDepth].
func shape(kind string, r *rand.Rand, minDepth, maxDepth int) []shapeJob {
	switch kind {
	case "kmeans": // depth 11: 8 iterations (Dawn: levels 3-10 repeat)
		return iterative("seed", 8, "cluster")
	case "pagerank": // depth 11
		return iterative("init-ranks", 8, "sort")
	case "mf": // depth 21: 9 alternating-least-squares rounds of 2 jobs
		js := iterative("init-m", 18, "predict")
		for i := 2; i < 20; i++ {
			js[i].name = fmt.Sprintf("%s%d", [2]string{"solve-u", "solve-m"}[i%2], (i-2)/2+1)
		}
		return js
	case "lda": // depth 18: 15 CVB iterations
		return iterative("init-model", 15, "infer")
	case "bayes": // depth 8: seq2sparse (tokenize .. tfidf) then trainnb and test
		return []shapeJob{
			{name: "tokenize", role: "prep", input: 1},
			{name: "wordcount", role: "agg", parents: []int{0}},
			{name: "tf-vectors", role: "prep", parents: []int{0, 1}},
			{name: "df-count", role: "agg", parents: []int{2}},
			{name: "tfidf", role: "prep", parents: []int{2, 3}},
			{name: "train-weights", role: "agg", parents: []int{4}},
			{name: "train-thetas", role: "iter", parents: []int{4, 5}},
			{name: "test", role: "final", parents: []int{4, 6}},
		}
	}
	return tpch(r.IntN(maxDepth-minDepth+1) + minDepth)
}

// tpch is a left-deep join query of the given depth (>= 4): depth-2 table
// scans at level 1, a chain of depth-3 joins each taking the previous
// result and one more scan (two parents), then aggregate and order.
// Scan i reads a 1/(i+1) Zipf share of the input, so the first table
// (lineitem-like) is the largest.
func tpch(depth int) []shapeJob {
	joins := depth - 3
	var js []shapeJob
	total := 0.0
	for i := 0; i <= joins; i++ {
		total += 1 / float64(i+1)
	}
	for i := 0; i <= joins; i++ {
		js = append(js, shapeJob{name: fmt.Sprintf("scan%d", i+1), role: "scan", input: 1 / float64(i+1) / total})
	}
	prev := 0
	for i := 1; i <= joins; i++ {
		js = append(js, shapeJob{name: fmt.Sprintf("join%d", i), role: "join", parents: []int{prev, i}})
		prev = len(js) - 1
	}
	js = append(js, shapeJob{name: "aggregate", role: "agg", parents: []int{prev}})
	return append(js, shapeJob{name: "order", role: "order", parents: []int{len(js) - 1}})
}

// depth is the number of jobs on the longest path of a shape.
func depth(js []shapeJob) int {
	d := make([]int, len(js))
	best := 0
	for i, j := range js {
		d[i] = 1
		for _, p := range j.parents {
			d[i] = max(d[i], d[p]+1)
		}
		best = max(best, d[i])
	}
	return best
}

// Ratios are a job role's map output / input (shuffle) and reduce output /
// shuffle (output) ratios.
type Ratios struct{ Shuffle, Output float64 }

// Roles lists the job roles whose ratios can be set.
var Roles = []string{"prep", "init", "iter", "final", "agg", "scan", "join", "order"}

// defaultRatios are our choices (Dawn §2.2 reports only that dependent and
// intermediate data are large next to the first level's input and that
// SELECT-like steps shrink data while JOIN/ORDER keep or grow it):
// preparation passes keep the data; ML iterations and aggregations shrink
// it to a model or summary; scans filter; joins and sorts keep it.
var defaultRatios = map[string]Ratios{
	"prep":  {1, 1},
	"init":  {0.1, 0.1},
	"iter":  {0.1, 0.1},
	"final": {0.1, 1},
	"agg":   {0.1, 0.5},
	"scan":  {0.3, 1},
	"join":  {1, 0.5},
	"order": {1, 1},
}
