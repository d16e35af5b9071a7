package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/netsched/netsched/sched"
)

// The readers of a sweep file's keys other than the scenario and the grid.

func (sw *Sweep) parseSchedulers(d *doc, n ast.Node) error {
	items, err := d.sequence(n, "schedulers", "a list of scheduler names or {name, params, label} mappings")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return d.errAt(n, "schedulers", "the list is empty; name at least one scheduler")
	}
	for i, it := range items {
		p := fmt.Sprintf("schedulers[%d]", i)
		var c SchedulerChoice
		if _, isMap := unwrapNode(it).(*ast.MappingNode); isMap {
			if c, err = d.schedulerMapping(it, p); err != nil {
				return err
			}
		} else if c.Name, err = d.scalar(it, p, "a scheduler name or a {name, params} mapping"); err != nil {
			return err
		}
		if c.Label == "" {
			c.Label = c.Name
		}
		if err := checkScheduler(c); err != nil {
			return d.errAt(it, p, "%v", err)
		}
		if sw.hasLabelIn(c.Label) {
			return d.errAt(it, p, "label %q is used twice; give each entry its own `label:`", c.Label)
		}
		sw.Schedulers = append(sw.Schedulers, c)
	}
	return nil
}

func (sw *Sweep) hasLabelIn(l string) bool {
	for _, c := range sw.Schedulers {
		if c.Label == l {
			return true
		}
	}
	return false
}

func (d *doc) schedulerMapping(n ast.Node, p string) (SchedulerChoice, error) {
	var c SchedulerChoice
	entries, err := d.mapping(n, p)
	if err != nil {
		return c, err
	}
	for _, e := range entries {
		kp := p + "." + e.key
		switch e.key {
		case "name":
			c.Name, err = d.scalar(e.value, kp, "a scheduler name")
		case "label":
			c.Label, err = d.scalar(e.value, kp, "a label")
		case "params":
			c.Params, err = d.paramMapping(e.value, kp)
		case "network":
			c.Network, err = d.scalar(e.value, kp, "a network policy name")
		case "network_params":
			c.NetworkParams, err = d.paramMapping(e.value, kp)
		default:
			err = d.errAt(e.keyN, kp, "unknown key %q (expected one of: name, params, label, network, network_params)", e.key)
		}
		if err != nil {
			return c, err
		}
	}
	if c.Name == "" {
		return c, d.errAt(n, p, "missing name; expected {name: fair, params: {...}}")
	}
	return c, nil
}

// paramMapping reads a {parameter: value} mapping.
func (d *doc) paramMapping(n ast.Node, p string) (map[string]any, error) {
	v, err := d.value(n, p)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		return nil, d.errAt(n, p, "expected a mapping of parameter names to values, got %s", describe(n))
	}
	return m, nil
}

// checkScheduler builds the scheduler once so that an unknown name,
// parameter or network policy is reported at load time, not in every cell.
func checkScheduler(c SchedulerChoice) error {
	if _, err := sched.NewScheduler(c.Name, c.Params); err != nil {
		return err
	}
	if c.Network == "" && len(c.NetworkParams) == 0 {
		return nil
	}
	return sched.CheckSpec(c.Name, c.Params, c.Network, c.NetworkParams)
}

func (sw *Sweep) parseSeeds(d *doc, n ast.Node) error {
	if _, isList := unwrapNode(n).(*ast.SequenceNode); !isList {
		k, err := d.uint(n, "seeds")
		if err != nil || k < 1 {
			return d.errAt(n, "seeds", "expected a number of seeds (1 or more) or a list of seeds, got %s", describe(n))
		}
		if sw.cellsWith(int(min(k, MaxCells+1))) > MaxCells {
			return d.errAt(n, "seeds", "%s", tooManyCells)
		}
		seeds, err := sw.SeedRange(int(k))
		if err != nil {
			return d.errAt(n, "seeds", "%v", err)
		}
		sw.Seeds = seeds
		return nil
	}
	items, _ := d.sequence(n, "seeds", "")
	if len(items) == 0 {
		return d.errAt(n, "seeds", "the list is empty; give at least one seed")
	}
	if sw.cellsWith(len(items)) > MaxCells {
		return d.errAt(n, "seeds", "%s", tooManyCells)
	}
	for i, it := range items {
		p := fmt.Sprintf("seeds[%d]", i)
		s, err := d.uint(it, p)
		if err != nil {
			return err
		}
		if s == 0 {
			return d.errAt(it, p, "expected a seed >= 1 (as a scenario's seed)")
		}
		if slices.Contains(sw.Seeds, s) {
			return d.errAt(it, p, "seed %d is listed twice", s)
		}
		sw.Seeds = append(sw.Seeds, s)
	}
	return nil
}

func (sw *Sweep) parseMetrics(d *doc, n ast.Node) error {
	items, err := d.sequence(n, "metrics", "a list of metric names like jct.mean")
	if err != nil {
		return err
	}
	known := KnownMetrics()
	for i, it := range items {
		p := fmt.Sprintf("metrics[%d]", i)
		m, err := d.scalar(it, p, "a metric name")
		if err != nil {
			return err
		}
		if err := checkMetric(m, known); err != nil {
			return d.errAt(it, p, "%v", err)
		}
		if slices.Contains(sw.Metrics, m) {
			return d.errAt(it, p, "metric %s is listed twice", m)
		}
		sw.Metrics = append(sw.Metrics, m)
	}
	return nil
}

func (sw *Sweep) parseRecord(d *doc, n ast.Node) error {
	entries, err := d.mapping(n, "record")
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := "record." + e.key
		switch e.key {
		case "tasks":
			v, err := d.scalar(e.value, p, "auto, always or never")
			if err != nil {
				return err
			}
			if !slices.Contains([]string{"auto", "always", "never"}, v) {
				return d.errAt(e.value, p, "expected auto, always or never, got %q", v)
			}
			sw.Record.Tasks = v
		case "timeline":
			b, ok := unwrapNode(e.value).(*ast.BoolNode)
			if !ok {
				return d.errAt(e.value, p, "expected true or false, got %s", describe(e.value))
			}
			sw.Record.Timeline = b.Value
		default:
			return d.errAt(e.keyN, p, "unknown key %q (expected tasks or timeline)", e.key)
		}
	}
	return nil
}

func (sw *Sweep) parseReport(d *doc, n ast.Node) error {
	entries, err := d.mapping(n, "report")
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := "report." + e.key
		switch e.key {
		case "baseline":
			b, err := d.scalar(e.value, p, "a scheduler label")
			if err != nil {
				return err
			}
			if !sw.hasLabel(b) {
				return d.errAt(e.value, p, "%q is not one of this sweep's schedulers (%s)", b, strings.Join(sw.Labels(), ", "))
			}
			sw.Report.Baseline = b
		case "at":
			at, err := d.mapping(e.value, p)
			if err != nil {
				return err
			}
			sw.Report.At = map[string]string{}
			for _, a := range at {
				ap := p + "." + a.key
				ax := sw.axis(a.key)
				if ax == nil {
					return d.errAt(a.keyN, ap, "%q is not a grid key of this sweep", a.key)
				}
				v, err := d.value(a.value, ap)
				if err != nil {
					return err
				}
				t := valueText(v)
				if !slices.ContainsFunc(ax.Values, func(x any) bool { return valueText(x) == t }) {
					return d.errAt(a.value, ap, "%s is not among the grid's values for %s", t, a.key)
				}
				sw.Report.At[a.key] = t
			}
		default:
			return d.errAt(e.keyN, p, "unknown key %q (expected baseline or at)", e.key)
		}
	}
	return nil
}

func (sw *Sweep) axis(key string) *Axis {
	for i := range sw.Grid {
		if sw.Grid[i].Key == key {
			return &sw.Grid[i]
		}
	}
	return nil
}
