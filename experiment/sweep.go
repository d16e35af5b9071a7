package experiment

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/report"
	"github.com/netsched/netsched/scenario"
)

// Sweep is a parsed sweep file: a base scenario document, the schedulers
// and seeds to run it with, and a grid of scenario fields to vary.
type Sweep struct {
	Name        string
	Description string
	Path        string // the sweep file ("" when built in code)

	Base     map[string]any // the scenario document every cell starts from
	BaseName string         // where Base came from, for messages
	BaseDir  string         // anchors relative trace paths of the scenario
	DataDir  string         // when set, relative trace paths are read as DataDir/<file name>

	Schedulers []SchedulerChoice // empty: the base scenario's scheduler
	Seeds      []uint64          // empty: the base scenario's seed
	Grid       []Axis            // sorted by key
	Metrics    []string
	Record     Record
	Report     ReportHints
}

// SchedulerChoice is one entry of `schedulers:`. Label names it in tables
// (default: Name) so that one scheduler may appear with several settings.
// Network, when set, is the network policy the entry runs under (with its
// NetworkParams), replacing the base scenario's: how a sweep combines task
// schedulers with network policies.
type SchedulerChoice struct {
	Label         string
	Name          string
	Params        map[string]any
	Network       string
	NetworkParams map[string]any
}

// Axis is one grid key: a dotted path into the scenario document and the
// values to try, in file order.
type Axis struct {
	Key    string
	Values []any
}

// Record chooses the optional run files kept per cell.
type Record struct {
	// Tasks: "auto" (default) keeps tasks.csv for runs of at most
	// GanttMaxTasks tasks or when the scenario asks for it; "always";
	// "never".
	Tasks string
	// Timeline keeps timeline.csv (the network monitor's samples).
	Timeline bool
}

// GanttMaxTasks is the largest run whose tasks are recorded by default:
// the largest the report draws as a Gantt chart of slots.
const GanttMaxTasks = report.GanttMaxTasks

// ReportHints are the sweep file's defaults for `netsched report`.
type ReportHints struct {
	Baseline string            `json:"baseline,omitempty"` // scheduler label; default the first
	At       map[string]string `json:"at,omitempty"`       // grid key -> value for single-point figures
}

// axisKeys lists the grid keys in order (the table's parameter columns).
func (s *Sweep) axisKeys() []string {
	keys := make([]string, len(s.Grid))
	for i, a := range s.Grid {
		keys[i] = a.Key
	}
	return keys
}

// baseSeed is the seed the base scenario runs with.
func (s *Sweep) baseSeed() uint64 {
	switch v := s.Base["seed"].(type) {
	case uint64:
		if v > 0 {
			return v
		}
	case int64:
		if v > 0 {
			return uint64(v)
		}
	}
	return scenario.DefaultSeed
}

// baseScheduler reads the base scenario's `scheduler:` (a name or a
// mapping {name, params}).
func (s *Sweep) baseScheduler() SchedulerChoice {
	switch v := s.Base["scheduler"].(type) {
	case string:
		return SchedulerChoice{Label: v, Name: v}
	case map[string]any:
		name, _ := v["name"].(string)
		params, _ := v["params"].(map[string]any)
		if name == "" {
			name = scenario.DefaultScheduler
		}
		return SchedulerChoice{Label: name, Name: name, Params: params}
	}
	return SchedulerChoice{Label: scenario.DefaultScheduler, Name: scenario.DefaultScheduler}
}

// MaxCells bounds a sweep's cells (grid combinations x schedulers x
// seeds), and so `seeds: N` and `compare --seeds N`; it is checked while
// the file or the flags are read, before any cell is built (each holds its
// own scenario document).
const MaxCells = 100_000

// cellsWith is the number of cells the sweep has with factor more values
// of one axis (1 for its size as it is), saturated past MaxCells.
func (s *Sweep) cellsWith(factor int) int {
	n := min(factor, MaxCells+1)
	for _, k := range []int{len(s.schedulers()), len(s.seeds())} {
		n = min(n*k, MaxCells+1)
	}
	for _, ax := range s.Grid {
		n = min(n*len(ax.Values), MaxCells+1)
	}
	return n
}

// tooManyCells says why a sweep is refused.
var tooManyCells = fmt.Sprintf("the sweep would have more than %d cells (grid values x schedulers x seeds), the limit", MaxCells)

// schedulers is the list the cells run: the file's or the base's own.
func (s *Sweep) schedulers() []SchedulerChoice {
	if len(s.Schedulers) > 0 {
		return s.Schedulers
	}
	return []SchedulerChoice{s.baseScheduler()}
}

// seeds is the list the cells run.
func (s *Sweep) seeds() []uint64 {
	if len(s.Seeds) > 0 {
		return s.Seeds
	}
	return []uint64{s.baseSeed()}
}

// SeedRange is n consecutive seeds starting at the base scenario's: what
// `seeds: N` and `compare --seeds N` mean. A range that would pass
// 2^64-1 is an error, not a wrap to 0 (which is no seed) and 1.
func (s *Sweep) SeedRange(n int) ([]uint64, error) {
	first := s.baseSeed()
	if n < 1 {
		return nil, fmt.Errorf("%d seeds: expected 1 or more", n)
	}
	if last := first + uint64(n-1); last < first {
		return nil, fmt.Errorf("%d seeds from seed %d pass the largest seed %d; start lower or run fewer", n, first, uint64(math.MaxUint64))
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = first + uint64(i)
	}
	return out, nil
}

// Labels lists the scheduler labels in sweep order.
func (s *Sweep) Labels() []string {
	var out []string
	for _, c := range s.schedulers() {
		out = append(out, c.Label)
	}
	return out
}

func (s *Sweep) hasLabel(l string) bool { return slices.Contains(s.Labels(), l) }
