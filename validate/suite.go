package validate

import (
	"embed"
	"io/fs"
	"strings"
)

// The validation suite: small scenarios (a few machines, seconds of
// traffic at 100 Mbit/s) that each exercise one part of the network model.
//
//go:embed suite/*.yaml
var suiteFiles embed.FS

// Suite lists the suite's scenarios by name, sorted.
func Suite() []string {
	paths, _ := fs.Glob(suiteFiles, "suite/*.yaml") // a valid pattern
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.TrimSuffix(strings.TrimPrefix(p, "suite/"), ".yaml")
	}
	return out
}

// SuiteScenario is the YAML of one suite scenario.
func SuiteScenario(name string) ([]byte, error) {
	return suiteFiles.ReadFile("suite/" + name + ".yaml")
}
