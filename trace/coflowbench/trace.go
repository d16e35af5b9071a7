// Package coflowbench reads the coflow-benchmark trace format
// (github.com/coflow/coflow-benchmark), e.g. FB2010-1Hr-150-0.txt:
//
//	<ports> <coflows>
//	<id> <arrival ms> <#mappers> <mapper port>... <#reducers> <port:MB>...
//
// Ports are 0-based. MB in the trace are 2^20 bytes, as in CoflowSim. The
// package only parses and validates; how coflows become flows or jobs is the
// importer's business.
package coflowbench

import "slices"

// MB is the trace's size unit: the coflow-benchmark "MB" is a mebibyte.
const MB = 1 << 20

// Trace is one parsed coflow-benchmark file.
type Trace struct {
	Ports   int      // number of ports (machines) in the fabric
	Coflows []Coflow // in file order, which is non-decreasing arrival order
}

// Coflow is one trace line.
type Coflow struct {
	ID       string    // the line's first field, kept verbatim
	Arrival  float64   // seconds since the trace start
	Mappers  []int     // mapper ports as listed (duplicates kept)
	Reducers []Reducer // reducers as listed
}

// Reducer is one `port:MB` entry: the bytes this reducer fetches in total
// from the coflow's mappers.
type Reducer struct {
	Port  int
	Bytes float64 // bytes (the trace's MB times 2^20)
}

// TotalBytes is the coflow's shuffle size: the sum of its reducers' bytes.
func (c *Coflow) TotalBytes() float64 {
	var s float64
	for _, r := range c.Reducers {
		s += r.Bytes
	}
	return s
}

// DistinctMappers returns the coflow's mapper ports without duplicates, in
// ascending order.
func (c *Coflow) DistinctMappers() []int {
	return distinct(c.Mappers)
}

// DistinctReducers returns the coflow's reducer ports without duplicates, in
// ascending order.
func (c *Coflow) DistinctReducers() []int {
	ports := make([]int, len(c.Reducers))
	for i, r := range c.Reducers {
		ports[i] = r.Port
	}
	return distinct(ports)
}

// distinct returns a sorted copy of ports without repeats.
func distinct(ports []int) []int {
	out := slices.Clone(ports)
	slices.Sort(out)
	return slices.Compact(out)
}

// TotalBytes is the sum of every coflow's shuffle bytes.
func (t *Trace) TotalBytes() float64 {
	var s float64
	for i := range t.Coflows {
		s += t.Coflows[i].TotalBytes()
	}
	return s
}

// Pairs counts mapper x reducer pairs as listed (duplicates included), the
// statistic the coflow-benchmark README quotes.
func (t *Trace) Pairs() int {
	n := 0
	for i := range t.Coflows {
		n += len(t.Coflows[i].Mappers) * len(t.Coflows[i].Reducers)
	}
	return n
}
