package inspect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/coflowbench"
	_ "github.com/netsched/netsched/trace/register" // the formats and generators Open resolves
	"github.com/netsched/netsched/workload"
)

// Input names a workload for `netsched trace inspect` and `convert`: a
// trace file in some format, or a generator, with importer options.
type Input struct {
	Path     string         // trace file ("" with Generate)
	Format   string         // swim, coflow (= coflow-benchmark), native; "" = by extension
	Generate string         // generator name instead of a file
	Options  map[string]any // the scenario's workload options
	// Scenario is a scenario file whose cluster, DFS block size, slow-start
	// and seed size the jobs (reducer cap, pinned ports). Without one, the
	// built-in scenario's DFS, engine and seed apply and no cluster: no
	// reducer cap, no pinning.
	Scenario string
	Seed     *uint64 // overrides the scenario's seed
}

// FormatOf returns the registered format name for a --from value, or
// guesses it from the file extension: .tsv swim, .txt coflow-benchmark,
// .yaml/.yml/.jsonl native.
func FormatOf(path, from string) (string, error) {
	switch from {
	case "coflow":
		return "coflow-benchmark", nil
	case "":
	default:
		return from, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsv":
		return "swim", nil
	case ".txt":
		return "coflow-benchmark", nil
	case ".yaml", ".yml", ".jsonl":
		return "native", nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the extension; give --from swim, coflow or native", path)
}

// Open resolves the input through the scenario registry, exactly as
// `netsched run` would with `workload: {trace: ..., format: ...}` or
// `workload: {generate: ...}`, and starts a pass over its jobs.
func (in Input) Open() (workload.Source, error) {
	sc, err := in.resolve()
	if err != nil {
		return nil, err
	}
	src, err := sc.OpenWorkload()
	return src, plainOptionError(err)
}

func (in Input) resolve() (*scenario.Scenario, error) {
	name, data, baseDir := "default.yaml", scenario.DefaultYAML(), ""
	if in.Scenario != "" {
		b, err := textread.ReadFile(in.Scenario)
		if err != nil {
			return nil, err
		}
		name, data, baseDir = in.Scenario, b, filepath.Dir(in.Scenario)
	}
	f, err := scenario.Decode(name, data)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Generate != "" && in.Path != "":
		return nil, fmt.Errorf("give a trace file or a generator, not both")
	case in.Generate != "":
		if !slices.Contains(scenario.Generators(), in.Generate) {
			return nil, fmt.Errorf("unknown generator %q (known: %s)", in.Generate, strings.Join(scenario.Generators(), ", "))
		}
		f.Workload = scenario.WorkloadSpec{Generate: in.Generate, Options: in.Options}
	case in.Path == "":
		return nil, fmt.Errorf("give a trace file or a generator")
	default:
		format, err := FormatOf(in.Path, in.Format)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(scenario.Formats(), format) {
			return nil, fmt.Errorf("unknown trace format %q (known: %s; coflow means coflow-benchmark)", format, strings.Join(scenario.Formats(), ", "))
		}
		if _, err := os.Stat(in.Path); err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return nil, err
		}
		f.Workload = scenario.WorkloadSpec{Trace: abs, Format: format, Options: in.Options}
	}
	sc, err := scenario.Resolve(name, f, baseDir)
	if err != nil {
		return nil, err
	}
	if in.Scenario == "" {
		sc.Machines = nil // OpenWorkload reads sc when called: no cluster
	}
	if in.Seed != nil {
		sc.Seed = *in.Seed
	}
	return sc, nil
}

// Inspect opens the input and summarises it; a coflow-benchmark trace
// also gets its coflow statistics.
func Inspect(in Input) (*Stats, error) {
	sc, err := in.resolve()
	if err != nil {
		return nil, err
	}
	src, err := sc.OpenWorkload()
	if err != nil {
		return nil, plainOptionError(err)
	}
	st, err := CollectOn(src, len(sc.Machines))
	if err != nil {
		return nil, err
	}
	if in.Generate == "" {
		if format, _ := FormatOf(in.Path, in.Format); format == "coflow-benchmark" {
			tr, err := coflowbench.ReadFile(in.Path)
			if err != nil {
				return nil, err
			}
			st.Coflows = Coflows(tr)
		}
	}
	return st, nil
}

// ParseOptions turns command-line `key=value` pairs into workload options;
// each value is read as YAML, so `reduce_skew={dist: zipf, exponent: 1}`
// and `users=200` work as in a scenario file.
func ParseOptions(pairs []string) (map[string]any, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q: expected key=value", p)
		}
		var val any
		if err := yaml.Unmarshal([]byte(v), &val); err != nil {
			return nil, fmt.Errorf("option %s: value %q is not YAML: %v", k, v, err)
		}
		if val == nil {
			val = v // an empty value stays a (rejected) empty string
		}
		out[k] = val
	}
	return out, nil
}

// plainOptionError drops the scenario position from an importer's error:
// the options came from the command line, not from a line of a file.
func plainOptionError(err error) error {
	var se *scenario.Error
	if errors.As(err, &se) && se.Err != nil {
		return se.Err
	}
	return err
}
