package scenario

import (
	_ "embed"
	"slices"
)

//go:embed default.yaml
var defaultYAML []byte

// DefaultYAML returns the built-in scenario's text (a fresh copy).
func DefaultYAML() []byte { return slices.Clone(defaultYAML) }

// Default resolves the built-in scenario: 4 racks x 5 machines x 4 slots
// on a two-tier network with oversubscription 2, and a dozen MapReduce jobs
// from two users arriving over a minute.
func Default() (*Scenario, error) {
	sc, err := Parse("default.yaml", defaultYAML, "")
	if err != nil {
		return nil, err
	}
	sc.Path = ""
	return sc, nil
}
