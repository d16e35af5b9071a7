package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strconv"
)

// Cell is one run of a sweep: the base scenario with one value per grid
// key, one scheduler and one seed applied.
type Cell struct {
	Index     int      // position in expansion order (after removing duplicates)
	ID        string   // short hash of the resolved cell
	Params    []string // one per grid key; "" where the key does not apply
	Scheduler string   // label
	Seed      uint64
	Doc       map[string]any // the resolved scenario document
	Err       string         // a problem found while building the document
}

// Expand lists the cells in a fixed order: grid combinations (keys sorted,
// values in file order, the first key varying slowest), then schedulers,
// then seeds. A grid key under scheduler.params applies only to schedulers
// that declare that parameter; cells that come out identical (the same
// scheduler label and document) are kept once, at their first position.
func Expand(sw *Sweep) []Cell {
	var cells []Cell
	seen := map[string]bool{}
	combos := gridCombos(sw.Grid)
	for _, combo := range combos {
		for _, ch := range sw.schedulers() {
			for _, seed := range sw.seeds() {
				c := buildCell(sw, combo, ch, seed)
				if seen[c.ID] {
					continue
				}
				seen[c.ID] = true
				c.Index = len(cells)
				cells = append(cells, c)
			}
		}
	}
	return cells
}

// gridCombos is the cartesian product of the axes' value indices.
func gridCombos(grid []Axis) [][]int {
	combos := [][]int{{}}
	for _, ax := range grid {
		var next [][]int
		for _, c := range combos {
			for i := range ax.Values {
				next = append(next, append(append([]int(nil), c...), i))
			}
		}
		combos = next
	}
	return combos
}

func buildCell(sw *Sweep, combo []int, ch SchedulerChoice, seed uint64) Cell {
	d := deepCopy(sw.Base).(map[string]any)
	c := Cell{Scheduler: ch.Label, Seed: seed, Params: make([]string, len(sw.Grid))}

	// The scheduler: the base's parameters only when it names the same one.
	params := map[string]any{}
	if b := sw.baseScheduler(); b.Name == ch.Name {
		maps.Copy(params, deepCopy(b.Params).(map[string]any))
	}
	maps.Copy(params, deepCopy(ch.Params).(map[string]any))
	sched := map[string]any{"name": ch.Name}
	// The base's network policy goes with every scheduler that does not
	// name its own: it combines with any of them.
	if ch.Network != "" {
		sched["network"] = ch.Network
		if len(ch.NetworkParams) > 0 {
			sched["network_params"] = deepCopy(ch.NetworkParams)
		}
	} else if b, isMap := sw.Base["scheduler"].(map[string]any); isMap {
		for _, k := range []string{"network", "network_params"} {
			if v, ok := b[k]; ok {
				sched[k] = deepCopy(v)
			}
		}
	}
	d["scheduler"] = sched
	if len(sw.Seeds) > 0 {
		d["seed"] = seed
	}
	for k, ax := range sw.Grid {
		v := deepCopy(ax.Values[combo[k]])
		if p, isParam := schedulerParam(ax.Key); isParam && !declaresParam(ch.Name, p) {
			continue
		}
		c.Params[k] = valueText(v)
		if _, isParam := schedulerParam(ax.Key); isParam {
			sched["params"] = params // setPath descends into it
		}
		if err := setPath(d, ax.Key, v); err != nil && c.Err == "" {
			c.Err = err.Error()
		}
	}
	if len(params) > 0 {
		sched["params"] = params
	}
	c.Doc = d
	c.ID = cellID(ch.Label, d)
	return c
}

// cellID hashes the label and the document (JSON has sorted keys, so equal
// documents hash equally on every machine).
func cellID(label string, d map[string]any) string {
	data, err := json.Marshal(jsonSafe(d))
	if err != nil {
		panic(err) // jsonSafe leaves only strings, numbers, booleans, nulls, maps and lists
	}
	h := sha256.New()
	h.Write([]byte(label))
	h.Write([]byte{0})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// valueText is how a grid value appears in tables and in report.at:
// scalars as written, collections as compact JSON.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// jsonSafe copies a YAML value with the floats JSON cannot hold (.inf,
// .nan) written as YAML spells them.
func jsonSafe(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = jsonSafe(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = jsonSafe(e)
		}
		return l
	case float64:
		switch {
		case math.IsNaN(x):
			return ".nan"
		case math.IsInf(x, 1):
			return ".inf"
		case math.IsInf(x, -1):
			return "-.inf"
		}
	}
	return v
}
