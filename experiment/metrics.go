package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/netsched/netsched/metrics"
)

// Metric names are dotted paths into summary.json ("jct.mean",
// "bytes.total.cross_rack", "node_locality", "workflows.wct.mean",
// "window.workflows"); per-bin JCT is "jct_by_bin.<bin>.<stat>"
// ("jct_by_bin.1-10GB.mean") and per-stage CCT "cct_by_stage.<id>.<stat>"
// ("cct_by_stage.map.mean").

// DefaultMetrics is what a sweep records when its file lists none.
var DefaultMetrics = []string{
	"jct.mean", "jct.p50", "jct.p95", "jct.p99", "jct.max",
	"makespan", "throughput",
	"bytes.total.node_local", "bytes.total.rack_local", "bytes.total.cross_rack",
	"node_locality", "jobs", "congested_samples",
}

// CompareMetrics are the columns of `netsched compare`'s table, in order.
var CompareMetrics = []string{"jct.mean", "jct.p95", "jct.p99", "makespan", "throughput", "cct.mean", "workflows.wct.mean", "bytes.total.cross_rack"}

// notMetrics are summary.json keys that are labels, not numbers to compare.
var notMetrics = map[string]bool{"version": true, "scenario": true, "seed": true, "scheduler": true, "scheduler_params": true}

// KnownMetrics lists every metric name a sweep may ask for, sorted.
func KnownMetrics() []string {
	// Optional sections present, so that their metrics are known.
	s := metrics.Summary{Workflows: &metrics.WorkflowSummary{}, TaskPeriods: &metrics.TaskPeriods{}, Window: &metrics.Window{}}
	for _, b := range metrics.SizeBins {
		s.JCTByBin = append(s.JCTByBin, metrics.BinStats{Bin: b.Name})
	}
	data, err := json.Marshal(s)
	if err != nil {
		panic(err) // a plain struct always marshals
	}
	vals, err := flattenSummary(data)
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(vals))
	for k := range vals {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// flattenSummary turns summary.json into metric name -> value.
func flattenSummary(data []byte) (map[string]float64, error) {
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	out := map[string]float64{}
	for k, v := range top {
		if !notMetrics[k] {
			flatten(k, v, out)
		}
	}
	return out, nil
}

func flatten(prefix string, v any, out map[string]float64) {
	switch x := v.(type) {
	case float64:
		out[prefix] = x
	case map[string]any:
		for k, e := range x {
			flatten(prefix+"."+k, e, out)
		}
	case []any:
		// Lists of {bin: name, ...} (jct_by_bin) are keyed by the name.
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			// Lists of {bin: name, ...} (jct_by_bin) or {stage: id, ...}
			// (cct_by_stage) are keyed by the name.
			key := "bin"
			name, ok := m[key].(string)
			if !ok {
				key = "stage"
				if name, ok = m[key].(string); !ok {
					continue
				}
			}
			for k, f := range m {
				if k != key {
					flatten(prefix+"."+name+"."+k, f, out)
				}
			}
		}
	}
}

// metricValues picks the requested metrics from summary.json, in order; a
// metric the run did not produce (a size bin without jobs) is NaN.
func metricValues(summary []byte, names []string) ([]float64, error) {
	all, err := flattenSummary(summary)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(names))
	for i, n := range names {
		v, ok := all[n]
		if !ok {
			v = math.NaN()
		}
		out[i] = v
	}
	return out, nil
}

// checkMetric explains an unknown metric name.
func checkMetric(name string, known []string) error {
	for _, k := range known {
		if k == name {
			return nil
		}
	}
	if stageMetric.MatchString(name) {
		return nil // stage ids are the workload's: any is accepted
	}
	var close []string
	for _, k := range known {
		if strings.HasPrefix(k, name) || strings.HasSuffix(k, "."+name) || strings.Contains(name, k) {
			close = append(close, k)
		}
	}
	if len(close) > 0 && len(close) <= 6 {
		return fmt.Errorf("unknown metric %q (did you mean %s?)", name, strings.Join(close, ", "))
	}
	return fmt.Errorf("unknown metric %q (known: %s)", name, strings.Join(knownNoBins(known), ", "))
}

// knownNoBins shortens the list in messages: per-bin names are a pattern.
func knownNoBins(known []string) []string {
	var out []string
	for _, k := range known {
		if !strings.HasPrefix(k, "jct_by_bin.") {
			out = append(out, k)
		}
	}
	return append(out, "jct_by_bin.<bin>.<count|mean|p50|p95|p99|max>", "cct_by_stage.<stage id>.<count|mean|p50|p95|p99|max>")
}

// stageMetric matches per-stage CCT names, cct_by_stage.<id>.<stat>.
var stageMetric = regexp.MustCompile(`^cct_by_stage\.[^.]+\.(count|mean|p50|p95|p99|max)$`)
