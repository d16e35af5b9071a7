package report

import (
	"fmt"
	"github.com/netsched/netsched/stats"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/netsched/netsched/internal/units"
)

// metricLabels name the usual metrics for people.
var metricLabels = map[string]string{
	"jct.mean": "mean JCT", "jct.p50": "median JCT", "jct.p95": "p95 JCT", "jct.p99": "p99 JCT", "jct.max": "max JCT",
	"makespan": "makespan", "throughput": "throughput",
	"bytes.total.cross_rack": "cross-rack bytes", "bytes.total.rack_local": "rack-local bytes",
	"bytes.total.node_local": "node-local bytes", "node_locality": "node locality",
	"map_progress_at_first_reduce": "map progress at first reduce",
	"congested_samples":            "congested samples", "jobs": "jobs",
	"cct.mean": "mean CCT", "cct.p95": "p95 CCT", "workflows.wct.mean": "mean WCT", "workflows.wct.p99": "p99 WCT",
	"window.workflows": "workflows in window", "window.jobs": "jobs in window", "reducer_wait.mean": "mean reducer wait",
	"bytes.ocs_bytes": "OCS bytes", "bytes.eps_bytes": "EPS bytes",
}

// MetricLabel is a metric's name for people ("p95 JCT").
func MetricLabel(m string) string {
	if l, ok := metricLabels[m]; ok {
		return l
	}
	return m
}

// FormatValue renders a metric's value with its unit, to 3 significant
// digits: seconds for times, bytes for sizes, jobs/s for throughput.
func FormatValue(metric string, v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	r := roundSig(v, 3)
	switch {
	case strings.HasPrefix(metric, "jct") || metric == "makespan" || strings.HasPrefix(metric, "cct") ||
		strings.HasPrefix(metric, "workflows.wct") || strings.HasPrefix(metric, "reducer_wait"):
		return units.FormatDuration(r)
	case strings.HasPrefix(metric, "bytes."):
		return units.FormatBytes(r)
	case metric == "throughput":
		return strconv.FormatFloat(r, 'g', -1, 64) + " jobs/s"
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

func roundSig(v float64, digits int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return f
}

// FormatRatio renders a paired ratio with three decimals (stats.Ratio.Format).
func FormatRatio(r stats.Ratio) string { return r.Format(3) }

// WriteComparison prints the comparison as two aligned tables: every
// metric normalized to the baseline (the first row), then the absolute
// values (mean over seeds).
func WriteComparison(w io.Writer, cmp []Comparison, metricNames []string) error {
	if len(cmp) == 0 {
		_, err := fmt.Fprintln(w, "no scheduler finished a run")
		return err
	}
	head := []string{"scheduler", "runs"}
	for _, m := range metricNames {
		head = append(head, MetricLabel(m))
	}
	fmt.Fprintf(w, "relative to %s, paired by seed: geometric-mean ratio [95%% interval]; \"tie\" where the interval contains 1 (lower is better except throughput)\n", cmp[0].Scheduler)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, c := range cmp {
		cells := []string{c.Scheduler, strconv.Itoa(c.Seeds)}
		for k := range metricNames {
			cells = append(cells, FormatRatio(c.Ratio[k]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nabsolute (mean over runs)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, c := range cmp {
		cells := []string{c.Scheduler, strconv.Itoa(c.Seeds)}
		for k, m := range metricNames {
			cells = append(cells, FormatValue(m, c.Mean[k]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}
