package experiment

import (
	"fmt"
	"os"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/netsched/netsched/scenario"
)

// LoadFileOrCatalog reads a sweep file, or the catalog entry of that name
// when no such file exists (`nas/schedulers`).
func LoadFileOrCatalog(name string) (*Sweep, error) {
	if _, err := os.Stat(name); err == nil {
		return Load(name)
	}
	return LoadCatalog(name)
}

// Changes is a repeatable PATH=VALUE flag: a value (YAML) for a dotted path
// into a scenario document, as BaseScenario applies them.
type Changes []string

func (c *Changes) String() string     { return strings.Join(*c, ",") }
func (c *Changes) Set(s string) error { *c = append(*c, s); return nil }

// BaseScenario is the sweep's base scenario under scheduler (by name, no
// parameters) and seed, with changes applied to its document in order
// (scheduler.params.x=1 or scheduler.name=fair among them): what a cell
// would run, for tools that run it in process to read a scheduler's own
// counters.
func (sw *Sweep) BaseScenario(scheduler string, seed uint64, changes []string) (*scenario.Scenario, error) {
	doc := deepCopy(sw.Base).(map[string]any)
	doc["scheduler"] = map[string]any{"name": scheduler}
	doc["seed"] = seed
	for _, c := range changes {
		path, raw, ok := strings.Cut(c, "=")
		if !ok {
			return nil, fmt.Errorf("change %q: expected PATH=VALUE", c)
		}
		var v any
		if err := yaml.Unmarshal([]byte(raw), &v); err != nil {
			return nil, fmt.Errorf("change %q: %w", c, err)
		}
		if err := setPath(doc, path, v); err != nil {
			return nil, fmt.Errorf("change %q: %w", c, err)
		}
	}
	text, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return scenario.ParseWithData(sw.Name+".yaml", text, sw.BaseDir, sw.DataDir)
}
