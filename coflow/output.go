package coflow

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/internal/units"
)

// Output file names.
const (
	SummaryFile = "summary.json"
	CoflowsFile = "coflows.csv"
)

// Files renders the result as summary.json and coflows.csv. The bytes depend
// only on the result, so reruns give identical files.
func (res *Result) Files() ([]outdir.File, error) {
	sum, err := json.MarshalIndent(res.Summary, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("coflow: summary: %w", err)
	}
	sum = append(sum, '\n')
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"coflow_id", "arrival", "finish", "cct", "bytes", "width"})
	for _, r := range res.Coflows {
		w.Write([]string{r.ID, num(r.Arrival), num(r.Finish), num(r.CCT), num(r.Bytes), strconv.Itoa(r.Width)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("coflow: %s: %w", CoflowsFile, err)
	}
	return []outdir.File{{Name: SummaryFile, Data: sum}, {Name: CoflowsFile, Data: buf.Bytes()}}, nil
}

// num formats a float in the shortest fixed-point form that reads back
// exactly (no exponent: bytes stay whole numbers).
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// WriteTable prints a human-readable summary: CCT statistics overall and per
// Varys bin.
func (res *Result) WriteTable(out io.Writer) error {
	s := &res.Summary
	policy := s.Policy
	if len(s.Params) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(s.Params)) {
			kv = append(kv, fmt.Sprintf("%s=%v", k, s.Params[k]))
		}
		policy += " (" + strings.Join(kv, ", ") + ")"
	}
	fmt.Fprintf(out, "policy %s: %d coflows, %d flows, %s over the network, ports at %s, makespan %s\n",
		policy, s.Coflows, s.Flows, units.FormatBytes(s.NetworkBytes), units.FormatRate(s.PortSpeed), units.FormatDuration(s.Makespan))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CCT\tcoflows\tmean\tp50\tp95\tp99\tmax\t")
	rows := []struct {
		name string
		st   Stats
	}{
		{"all", s.CCT},
		{"short-narrow", s.Bins.ShortNarrow}, {"short-wide", s.Bins.ShortWide},
		{"long-narrow", s.Bins.LongNarrow}, {"long-wide", s.Bins.LongWide},
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", r.name, r.st.Count,
			units.FormatDuration(r.st.Mean), units.FormatDuration(r.st.P50), units.FormatDuration(r.st.P95),
			units.FormatDuration(r.st.P99), units.FormatDuration(r.st.Max))
	}
	return tw.Flush()
}
