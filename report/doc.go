// Package report turns a results directory (the tidy table of a sweep or a
// comparison plus each cell's run files) into figures and a self-contained
// HTML page: CDFs of job completion time, normalized bars, per-size-bin
// bars, lines along a swept parameter, network utilization over time and a
// Gantt chart of slots for small runs. It also owns the tidy table's
// formats (CSV and Parquet).
package report
