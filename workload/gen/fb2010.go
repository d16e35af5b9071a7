package gen

import (
	_ "embed"
	"fmt"
	"maps"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

// FB2010Options is the embedded "fb2010" workload: options of the
// synthetic generator fitted to the SWIM FB-2010 day.
//
//go:embed fb2010.yaml
var FB2010Options []byte

// ParseFB2010 reads the embedded options with the user's options laid over
// them key by key (a user's `classes` replaces the whole list).
func ParseFB2010(options map[string]any, sc *scenario.Scenario) (*Synthetic, error) {
	var base map[string]any
	if err := yaml.Unmarshal(FB2010Options, &base); err != nil {
		return nil, fmt.Errorf("embedded fb2010.yaml: %v", err) // a build defect, caught by tests
	}
	maps.Copy(base, options)
	return ParseSynthetic(base, sc)
}

// OpenFB2010 is the scenario.Opener of the "fb2010" generator.
func OpenFB2010(_ string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	s, err := ParseFB2010(options, sc)
	if err != nil {
		return nil, fmt.Errorf("fb2010 options: %w", err)
	}
	return s.Source(), nil
}
