package gen

import (
	"fmt"
)

// A shape is a workflow's job DAG: jobs in topological order, each with
// the files it reads, its parent jobs (indices of earlier jobs) and the
// data ratios that size it. The same shape gives the MapReduce form (one
// job per entry, linked by Job.After) and the Tez form (one multi-stage
// job, tez.go).
type shapeJob struct {
	name    string
	role    string // ML: the `ratios` role; TPC-H: join, group or order
	parents []int
	reads   []tableRead // files read from the DFS
	// dep is the map-side ratio on the bytes read from parent jobs (map
	// output / bytes read); out is reduce output / shuffle.
	dep, out float64
	// key names the column the job's shuffle partitions by ("" for none):
	// the Tez form links a job to a parent partitioned the same way without
	// a new shuffle.
	key string
	// join marks a job that combines several inputs (a join, or an ML step
	// that reads a model next to the data): in the Tez form its small
	// inputs may be broadcast.
	join bool
}

// tableRead is one file a job reads: share is its part of the workflow's
// input bytes, sel its map-side ratio (filter x projection: map output /
// bytes read).
type tableRead struct {
	table string
	share float64
	sel   float64
}

// Kinds of workflow, in the order options list them. The ML ones follow
// Dawn Table 2 (HiBench / Mahout, DAG depths 11, 8, 11, 21, 18); tpch is
// one of the 22 TPC-H queries (tpch.go).
var Kinds = []string{"kmeans", "bayes", "pagerank", "mf", "lda", "tpch"}

// mlKinds are the kinds whose shapes the roles' ratios size.
var mlKinds = Kinds[:5]

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

// iterative builds load -> init -> iter1..iterN -> final, where every
// iteration (and the final pass) also reads the loaded data: HiBench's
// K-means and PageRank, Mahout's ALS and CVB all re-read the dataset each
// iteration next to the current model. Depth = iterations + 3.
func iterative(init string, iters int, final string) []shapeJob {
	js := []shapeJob{{name: "prep", role: "load", reads: []tableRead{{table: "input", share: 1}}},
		{name: init, role: "init", parents: []int{0}}}
	for i := 1; i <= iters; i++ {
		js = append(js, shapeJob{name: fmt.Sprintf("iter%d", i), role: "iter", parents: []int{len(js) - 1, 0}, join: true})
	}
	return append(js, shapeJob{name: final, role: "final", parents: []int{len(js) - 1, 0}, join: true})
}

// mlShape returns the DAG of an ML kind, ratios not yet applied.
func mlShape(kind string) []shapeJob {
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
			{name: "tokenize", role: "load", reads: []tableRead{{table: "input", share: 1}}},
			{name: "wordcount", role: "agg", parents: []int{0}},
			{name: "tf-vectors", role: "prep", parents: []int{0, 1}, join: true},
			{name: "df-count", role: "agg", parents: []int{2}},
			{name: "tfidf", role: "prep", parents: []int{2, 3}, join: true},
			{name: "train-weights", role: "agg", parents: []int{4}},
			{name: "train-thetas", role: "iter", parents: []int{4, 5}, join: true},
			{name: "test", role: "final", parents: []int{4, 6}, join: true},
		}
	}
	panic("gen: no ML shape for " + kind)
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

// Roles lists the ML job roles whose ratios can be set (TPC-H jobs carry
// their own, tpch.go).
var Roles = []string{"load", "prep", "init", "iter", "final", "agg"}

// defaultRatios size the ML shapes. Every job after the first maps all it
// reads (shuffle 1): K-means assigns each point to a centroid, PageRank
// sends rank along every edge, ALS and CVB regroup the ratings or tokens by
// the other key, so a job's intermediate data is its input. Dawn §2.2 then
// says dependent and intermediate data are each about 12 times the input
// (DependentRatio); with shuffle 1 the two are equal, and the load job's
// output (the dataset every iteration re-reads) is calibrated per kind to
// reach the ratio (calibrateLoad). Models, seeds and counts are small
// (output 0.01-0.05 of what the job read): our choice.
var defaultRatios = map[string]Ratios{
	"load":  {1, 0}, // output calibrated unless set
	"prep":  {1, 1},
	"init":  {1, 0.01},
	"iter":  {1, 0.01},
	"final": {1, 0.1},
	"agg":   {1, 0.05},
}

// DependentRatio is Dawn §2.2's "the average ratio of dependent data size
// and intermediate data size to the input data size in machine learning
// workloads is about 1/12", read as input : dependent = input :
// intermediate = 1 : 12 (the sentence illustrates "both ... are much larger
// than the input", so the 1/12 is the input's side).
const DependentRatio = 12

// applyRatios fills the ML shape's ratios from the roles.
func applyRatios(js []shapeJob, ratios map[string]Ratios) {
	for i := range js {
		r := ratios[js[i].role]
		js[i].dep, js[i].out = r.Shuffle, r.Output
		for k := range js[i].reads {
			js[i].reads[k].sel = r.Shuffle
		}
	}
}

// calibrateLoad sets the output ratio of the kind's load job so that the
// bytes its later jobs read from their parents are target x the input.
// Everything after the load job is linear in its output, so one sizing
// with a unit output gives the factor.
func calibrateLoad(js []shapeJob, target float64) {
	for i := range js {
		if js[i].role == "load" {
			js[i].out = 1 / js[i].reads[0].sel
		}
	}
	var dep float64
	for _, s := range size(js, 1) {
		dep += s.dep
	}
	for i := range js {
		if js[i].role == "load" {
			js[i].out *= target / dep
		}
	}
}

// sized is a shape job with its expected bytes for one workflow input.
type sized struct {
	*shapeJob
	file    float64 // read from the DFS
	fileOut float64 // map output of the file part
	dep     float64 // read from parent jobs
	shuffle float64 // map output
	output  float64 // reduce output
}

// size pushes input bytes through a shape: a job reads its files and its
// parents' outputs, maps them by its ratios and reduces by out.
func size(js []shapeJob, input float64) []sized {
	out := make([]sized, len(js))
	for i := range js {
		s := sized{shapeJob: &js[i]}
		for _, r := range js[i].reads {
			s.file += input * r.share
			s.fileOut += input * r.share * r.sel
		}
		for _, p := range js[i].parents {
			s.dep += out[p].output
		}
		s.shuffle = s.fileOut + s.dep*js[i].dep
		s.output = s.shuffle * js[i].out
		out[i] = s
	}
	return out
}
