package scenario

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"reflect"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/netsched/netsched/internal/textread"
)

// Load reads, checks and resolves a scenario file. Relative trace paths in
// it are relative to the file's directory.
func Load(path string) (*Scenario, error) {
	data, err := textread.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, filepath.Dir(path))
}

// Parse checks and resolves a scenario held in memory. name is used in
// error messages and for the default output directory; baseDir anchors
// relative trace paths. Every error is an *Error naming name, a line and a
// column.
func Parse(name string, data []byte, baseDir string) (*Scenario, error) {
	return ParseWithData(name, data, baseDir, "")
}

// ParseWithData is Parse with a data directory: when dataDir is not empty,
// each relative trace path is read as dataDir/<its file name> instead of
// under baseDir. It is how catalog entries, which name their traces
// relative to the repository root, read them from wherever the shared
// traces are (`netsched reproduce --data`, NETSCHED_DATA).
func ParseWithData(name string, data []byte, baseDir, dataDir string) (*Scenario, error) {
	f, src, err := decodeFile(name, data, true)
	if err != nil {
		return nil, err
	}
	if l := f.Workload.held; l != nil {
		l.sha = sha256.Sum256(data)
	}
	sc, err := resolve(f, src, traceDirs{base: baseDir, data: dataDir}, true)
	if err != nil {
		return nil, err
	}
	sc.Path = name
	return sc, nil
}

// ParseFile decodes a scenario and runs every check of Parse except those
// that touch other files (a trace need not exist yet); it is what editors
// of scenario files, like sweeps, start from.
func ParseFile(name string, data []byte) (*File, error) {
	f, src, err := decodeFile(name, data, false)
	if err != nil {
		return nil, err
	}
	if _, err := resolve(f, src, traceDirs{}, false); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeFile decodes a scenario. With leave, a list of more than
// maxHeldJobs jobs is left out of Workload.Jobs and kept in Workload.held,
// as its text when the list was cut.
func decodeFile(name string, data []byte, leave bool) (*File, *source, error) {
	if err := checkBOM(name, data); err != nil {
		return nil, nil, err
	}
	if err := CheckNesting(name, data); err != nil {
		return nil, nil, err
	}
	if sl, ok := cutList(data, "workload", "jobs"); ok && cutLists {
		var f File
		keep := !leave || len(sl.items) <= maxHeldJobs
		var jobs []JobSpec
		var arrivals []float64
		if keep {
			jobs = make([]JobSpec, 0, len(sl.items))
		} else {
			arrivals = make([]float64, 0, len(sl.items))
		}
		src, ok, err := decodeSplit(name, sl, &f, func(js *JobSpec) {
			if keep {
				jobs = append(jobs, *js)
			} else {
				arrivals = append(arrivals, float64(js.Arrival))
			}
		})
		if err != nil {
			return nil, nil, err
		}
		if ok {
			f.Workload.Jobs = jobs
			if !keep {
				f.Workload.held = textList(name, sl, arrivals)
			}
			return &f, src, nil
		}
	}
	f, src, err := decodeWhole(name, data)
	if err == nil && leave && len(f.Workload.Jobs) > maxHeldJobs {
		f.Workload.held = &jobList{specs: f.Workload.Jobs, name: name}
		f.Workload.Jobs = nil
	}
	return f, src, err
}

// cutLists enables decoding explicit job lists item by item (tests compare
// both ways).
var cutLists = true

// decodeWhole decodes a scenario as one tree.
func decodeWhole(name string, data []byte) (*File, *source, error) {
	src, err := parseDocument(name, data)
	if err != nil {
		return nil, nil, err
	}
	if src.body == nil {
		return nil, nil, src.at("", "the file is empty; expected a mapping with at least cluster, workload and scheduler")
	}
	var f File
	if err := decodeNode(src, src.body, &f); err != nil {
		return nil, nil, err
	}
	return &f, src, nil
}

// parseDocument parses data as exactly one YAML document.
func parseDocument(name string, data []byte) (_ *source, err error) {
	src := &source{name: name}
	defer recoverAt(name, &err)
	if err := checkBOM(name, data); err != nil {
		return nil, err
	}
	if err := CheckNesting(name, data); err != nil {
		return nil, err
	}
	if err := checkTreeSize(name, 1, "this YAML document", data); err != nil {
		return nil, err
	}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, src.convert(err)
	}
	var bodies []ast.Node
	for _, d := range file.Docs {
		if d.Body != nil {
			bodies = append(bodies, d.Body)
		}
	}
	if len(bodies) > 1 {
		l, c := position(bodies[1])
		return nil, &Error{File: name, Line: l, Column: c, Msg: "a second YAML document; expected one document per file"}
	}
	if len(bodies) == 1 {
		src.body = bodies[0]
		if err := checkAliases(src, src.body); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// checkBOM rejects a byte order mark at the start of data (textread).
func checkBOM(name string, data []byte) error {
	if textread.HasBOM(data) {
		return &Error{File: name, Line: 1, Column: 1, Msg: textread.BOMMessage}
	}
	return nil
}

// decodeNode decodes n strictly into v (a pointer), reporting errors at
// their place in src.
func decodeNode(src *source, n ast.Node, v any) error {
	if err := checkShapeAt(src, n, reflect.TypeOf(v).Elem()); err != nil {
		return err
	}
	return decodeValue(src, n, v)
}

// checkShapeAt checks that n is a mapping of the keys of type t.
func checkShapeAt(src *source, n ast.Node, t reflect.Type) (err error) {
	defer recoverAt(src.name, &err)
	if _, isMap := unwrap(n).(*ast.MappingNode); !isMap {
		l, c := position(n)
		return src.errAtPos(l, c, "expected a mapping of keys to values, got "+describeNode(unwrap(n)))
	}
	if err := checkShape(n, t, ""); err != nil {
		return src.convert(err)
	}
	return nil
}

// decodeValue decodes n, whose shape is checked, into v.
func decodeValue(src *source, n ast.Node, v any) (err error) {
	defer recoverAt(src.name, &err)
	dec := yaml.NewDecoder(bytes.NewReader(nil), yaml.DisallowUnknownField())
	if err := dec.DecodeFromNode(n, v); err != nil {
		return src.convert(err)
	}
	return nil
}

// recoverAt turns a panic inside the YAML library into an error: bad input
// must never crash a run.
func recoverAt(name string, err *error) {
	if r := recover(); r != nil {
		*err = &Error{File: name, Line: 1, Column: 1, Msg: fmt.Sprintf("the YAML library failed on this file (%v)", r)}
	}
}
