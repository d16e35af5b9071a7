package scenario

import (
	"strconv"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/internal/units"
)

// encodeOptions write sizes, rates and durations in human units whenever
// that is exact, and as plain numbers otherwise, so nothing is lost. In
// JSON the values are quoted strings ("4MB"), which the decoder accepts.
func encodeOptions(json bool) []yaml.EncodeOption {
	text := func(s string) []byte {
		if json {
			return []byte(strconv.Quote(s))
		}
		return []byte(s)
	}
	opts := []yaml.EncodeOption{
		yaml.CustomMarshaler(func(b units.Bytes) ([]byte, error) { return text(exactBytes(float64(b))), nil }),
		yaml.CustomMarshaler(func(r units.Rate) ([]byte, error) { return text(exactRate(float64(r))), nil }),
		yaml.CustomMarshaler(func(d units.Duration) ([]byte, error) { return text(exactDuration(float64(d))), nil }),
	}
	if json {
		return append(opts, yaml.JSON())
	}
	return append(opts, yaml.IndentSequence(true))
}

// Encode writes a scenario file; Parse reads it back to an equal File.
// A job list that Parse left out of f (MaxEchoedJobs) is written in full.
func Encode(f *File) ([]byte, error) {
	if l := f.Workload.held; l != nil && f.Workload.Jobs == nil {
		jobs, err := l.all()
		if err != nil {
			return nil, err
		}
		g := *f
		g.Workload.Jobs = jobs
		f = &g
	}
	return yaml.MarshalWithOptions(f, encodeOptions(false)...)
}

// Decode reads a scenario file strictly (unknown keys, wrong types and bad
// values are errors) without the checks that need the whole scenario; it is
// for tools that edit a scenario before resolving it with Resolve.
func Decode(name string, data []byte) (*File, error) {
	f, _, err := decodeFile(name, data, false)
	return f, err
}

// Resolve checks and resolves a File built or edited in code (a sweep cell,
// say). It encodes f and parses the result, so the checks are exactly those
// of Parse; error positions refer to that encoding, named name.
func Resolve(name string, f *File, baseDir string) (*Scenario, error) {
	data, err := Encode(f)
	if err != nil {
		return nil, err
	}
	return Parse(name, data, baseDir)
}

// yamlMarshal encodes any value the way Encode does.
func yamlMarshal(v any) ([]byte, error) {
	return yaml.MarshalWithOptions(v, encodeOptions(false)...)
}
