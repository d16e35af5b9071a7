package inspect

import "github.com/netsched/netsched/trace/coflowbench"

// CoflowStats describes a coflow-benchmark trace as coflows. A coflow's
// flows are its mapper x reducer pairs as listed (CoflowSim splits each
// reducer's bytes evenly over the mappers); width is its number of flows
// and length the size of its largest flow (Varys' definitions), so
// length = max reducer bytes / mappers.
type CoflowStats struct {
	Coflows    int         `json:"coflows"`
	Ports      int         `json:"ports"`
	Flows      int         `json:"flows"`
	TotalBytes float64     `json:"total_bytes"`
	Mappers    Percentiles `json:"mappers"`
	Reducers   Percentiles `json:"reducers"`
	Width      Percentiles `json:"width_flows"`
	Length     Percentiles `json:"length_bytes"`
	Size       Percentiles `json:"size_bytes"`
	Under100MB float64     `json:"under_100mib_fraction"`
	// Varys bins (Chowdhury et al., SIGCOMM'14): short if length < 5 MiB,
	// narrow if width < 50 flows.
	Bins []Share `json:"varys_bins"`
}

// Coflows summarises a parsed trace.
func Coflows(tr *coflowbench.Trace) *CoflowStats {
	st := &CoflowStats{Coflows: len(tr.Coflows), Ports: tr.Ports}
	var maps, reds, width, length, size []float64
	bins := make([]int, 4)
	under := 0
	for i := range tr.Coflows {
		c := &tr.Coflows[i]
		m, r := len(c.Mappers), len(c.Reducers)
		largest := 0.0
		for _, red := range c.Reducers {
			largest = max(largest, red.Bytes)
		}
		l := 0.0
		if m > 0 {
			l = largest / float64(m)
		}
		total := c.TotalBytes()
		st.Flows += m * r
		st.TotalBytes += total
		maps, reds = append(maps, float64(m)), append(reds, float64(r))
		width, length, size = append(width, float64(m*r)), append(length, l), append(size, total)
		if total < 100*mib {
			under++
		}
		k := 0
		if l >= 5*mib {
			k = 1
		}
		if m*r >= 50 {
			k += 2
		}
		bins[k]++
	}
	if st.Coflows == 0 {
		return st
	}
	st.Mappers, st.Reducers = Summarize(maps), Summarize(reds)
	st.Width, st.Length, st.Size = Summarize(width), Summarize(length), Summarize(size)
	n := float64(st.Coflows)
	st.Under100MB = float64(under) / n
	for i, name := range []string{"short-narrow", "long-narrow", "short-wide", "long-wide"} {
		st.Bins = append(st.Bins, Share{Name: name, Jobs: bins[i], Fraction: float64(bins[i]) / n})
	}
	return st
}
