// Package experiment runs many simulations and collects their results: a
// sweep file expands into cells (a grid over any scenario field x
// schedulers x seeds), cells run in parallel, possibly split into shards
// across machines, and their summaries become one tidy table. `compare` is
// a sweep without a grid, and the reproduction catalog is a set of sweep
// files embedded in the binary.
//
// The output directory of a sweep holds:
//
//	cells/<id>/       one run's files (summary.json, jobs.csv, ..., scenario.yaml)
//	results.csv       the tidy table (results.parquet: the same rows)
//	cells.jsonl       the resolved configuration of every cell
//	manifest.json     the sweep's shape and every cell's status
//
// A shard i of n writes part-i-of-n.{csv,parquet}, cells-i-of-n.jsonl and
// manifest-i-of-n.json instead; Merge joins them into the files above.
package experiment
