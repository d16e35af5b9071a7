package experiment

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// The reader of a sweep file's grid, and the checks of its keys.

// reservedAxes are varied by their own keys, not by the grid.
var reservedAxes = map[string]string{"seed": "seeds", "scheduler": "schedulers", "scheduler.name": "schedulers"}

func (sw *Sweep) parseGrid(d *doc, n ast.Node) error {
	entries, err := d.mapping(n, "grid")
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := "grid." + e.key
		if use, ok := reservedAxes[e.key]; ok {
			return d.errAt(e.keyN, p, "%s cannot be a grid key; list the values under `%s:` instead", e.key, use)
		}
		if err := sw.checkAxisKey(e.key); err != nil {
			return d.errAt(e.keyN, p, "%v", err)
		}
		items, err := d.sequence(e.value, p, "a list of values to try")
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return d.errAt(e.value, p, "the list is empty; give at least one value")
		}
		if sw.cellsWith(len(items)) > MaxCells {
			return d.errAt(e.keyN, p, "%s", tooManyCells)
		}
		ax := Axis{Key: e.key}
		var texts []string
		for i, it := range items {
			v, err := d.value(it, fmt.Sprintf("%s[%d]", p, i))
			if err != nil {
				return err
			}
			t := valueText(v)
			if slices.Contains(texts, t) {
				return d.errAt(it, fmt.Sprintf("%s[%d]", p, i), "value %s is listed twice", t)
			}
			texts = append(texts, t)
			ax.Values = append(ax.Values, v)
		}
		if err := sw.dryRunAxis(ax); err != nil {
			return d.errAt(e.keyN, p, "%v", err)
		}
		sw.Grid = append(sw.Grid, ax)
	}
	sort.Slice(sw.Grid, func(a, b int) bool { return sw.Grid[a].Key < sw.Grid[b].Key })
	return nil
}

// scenarioKeys are the top-level keys of a scenario file.
func scenarioKeys() []string {
	t := reflect.TypeFor[scenario.File]()
	var keys []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		keys = append(keys, name)
	}
	return keys
}

// checkAxisKey rejects keys that cannot name a scenario field.
func (sw *Sweep) checkAxisKey(key string) error {
	steps, err := parsePath(key)
	if err != nil {
		return err
	}
	if top := scenarioKeys(); steps[0].index >= 0 || !slices.Contains(top, steps[0].key) {
		return fmt.Errorf("%q does not start with a scenario key (one of: %s)", key, strings.Join(top, ", "))
	}
	if p, ok := schedulerParam(key); ok {
		for _, c := range sw.schedulers() {
			if declaresParam(c.Name, p) {
				return nil
			}
		}
		return fmt.Errorf("no scheduler of this sweep has a parameter %q", p)
	}
	return nil
}

// dryRunAxis applies an axis's first value to the base and decodes the
// result, so that a misspelled field fails at load time with the scenario
// loader's message instead of failing every cell.
func (sw *Sweep) dryRunAxis(ax Axis) error {
	if _, isParam := schedulerParam(ax.Key); isParam {
		return nil // checked when each cell builds its scheduler
	}
	probe := deepCopy(sw.Base).(map[string]any)
	if err := setPath(probe, ax.Key, ax.Values[0]); err != nil {
		return err
	}
	data, err := yaml.Marshal(probe)
	if err != nil {
		return err
	}
	if _, err := scenario.Decode("probe", data); err != nil {
		var se *scenario.Error
		if errors.As(err, &se) {
			return fmt.Errorf("setting it to %s makes the scenario invalid: %s: %s", valueText(ax.Values[0]), se.Path, se.Msg)
		}
		return err
	}
	return nil
}

// schedulerParam returns p for a key "scheduler.params.p[...]".
func schedulerParam(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "scheduler.params.")
	if !ok {
		return "", false
	}
	p, _, _ := strings.Cut(rest, ".")
	p, _, _ = strings.Cut(p, "[")
	return p, p != ""
}

func declaresParam(scheduler, param string) bool {
	info, ok := sched.Lookup(scheduler)
	if !ok {
		return false
	}
	for _, pi := range info.Params {
		if pi.Name == param {
			return true
		}
	}
	return false
}
