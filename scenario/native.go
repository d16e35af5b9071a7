package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/workload"
)

// The native trace format is the `jobs` list of a scenario file on its own:
// a YAML file whose only key is `jobs`, or a JSONL file with one job object
// per line (for long traces: it is read one job at a time). Format "native"
// picks the form by extension: .yaml/.yml or .jsonl.
func init() { RegisterFormat("native", openNative) }

// jobsFile is the YAML form of a native trace.
type jobsFile struct {
	Jobs []JobSpec `yaml:"jobs"`
}

// EncodeJobsYAML writes jobs as a native YAML trace.
func EncodeJobsYAML(w io.Writer, jobs []JobSpec) error {
	b, err := yaml.MarshalWithOptions(jobsFile{Jobs: jobs}, encodeOptions(false)...)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// DecodeJobsYAML reads a native YAML trace strictly. It checks the form of
// every value but not the jobs' consistency, which needs the cluster (use
// the "native" format through a scenario for that).
func DecodeJobsYAML(name string, data []byte) ([]JobSpec, error) {
	jobs, _, err := decodeJobsYAML(name, data)
	return jobs, err
}

func decodeJobsYAML(name string, data []byte) ([]JobSpec, *source, error) {
	l, src, err := decodeJobList(name, data, false)
	if err != nil {
		return nil, nil, err
	}
	return l.specs, src, nil
}

// decodeJobList decodes a native YAML trace. With asText, a list that is
// cut is kept as its items' text (jobList), not decoded into memory.
func decodeJobList(name string, data []byte, asText bool) (*jobList, *source, error) {
	if err := CheckNesting(name, data); err != nil {
		return nil, nil, err
	}
	if sl, ok := cutList(data, "jobs"); ok && cutLists {
		var f jobsFile
		var jobs []JobSpec
		var arrivals []float64
		if asText {
			arrivals = make([]float64, 0, len(sl.items))
		} else {
			jobs = make([]JobSpec, 0, len(sl.items))
		}
		src, ok, err := decodeSplit(name, sl, &f, func(js *JobSpec) {
			if asText {
				arrivals = append(arrivals, float64(js.Arrival))
			} else {
				jobs = append(jobs, *js)
			}
		})
		if err != nil {
			return nil, nil, err
		}
		if ok {
			if asText {
				return textList(name, sl, arrivals), src, nil
			}
			return &jobList{specs: jobs, name: name}, src, nil
		}
	}
	jobs, src, err := decodeJobsWhole(name, data)
	if err != nil {
		return nil, nil, err
	}
	return &jobList{specs: jobs, name: name}, src, nil
}

// decodeJobsWhole decodes a native YAML trace as one tree.
func decodeJobsWhole(name string, data []byte) ([]JobSpec, *source, error) {
	src, err := parseDocument(name, data)
	if err != nil {
		return nil, nil, err
	}
	if src.body == nil {
		return nil, nil, src.at("", "the file is empty; expected `jobs:` with a list of jobs")
	}
	var f jobsFile
	if err := decodeNode(src, src.body, &f); err != nil {
		return nil, nil, err
	}
	return f.Jobs, src, nil
}

// EncodeJobsJSONL writes one JSON object per job and line. Calling it once
// per job streams a trace of any length.
func EncodeJobsJSONL(w io.Writer, jobs []JobSpec) error {
	for i := range jobs {
		b, err := yaml.MarshalWithOptions(&jobs[i], encodeOptions(true)...)
		if err != nil {
			return err
		}
		b = append(bytes.TrimRight(b, "\n"), '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// DecodeJobsJSONL reads every job of a JSONL trace (form only, as
// DecodeJobsYAML). Blank lines are skipped.
func DecodeJobsJSONL(name string, r io.Reader) ([]JobSpec, error) {
	lr := &lineReader{name: name, r: textread.NewLines(name, r)}
	var out []JobSpec
	for {
		js, _, err := lr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, js)
	}
}

// lineReader decodes JSONL records, each with error positions in the file.
type lineReader struct {
	name string
	r    *textread.Lines
	line int
}

// next returns the next record and its source, or io.EOF.
func (lr *lineReader) next() (JobSpec, *source, error) {
	for {
		if !lr.r.Scan() {
			if err := lr.r.Err(); err != nil {
				return JobSpec{}, nil, err
			}
			return JobSpec{}, nil, io.EOF
		}
		lr.line = lr.r.Line()
		text := lr.r.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		text = bytes.Clone(text) // kept by the source for later messages
		var js JobSpec
		fastErr := fastDecodeJob(text, &js)
		if fastErr == nil {
			return js, &source{name: lr.name, line0: lr.line - 1, lazy: text}, nil
		}
		if treeBytes(text) > MaxTreeBytes { // too large for the YAML decoder, which would locate the error
			return JobSpec{}, nil, &Error{File: lr.name, Line: lr.line, Column: 1, Msg: fmt.Sprintf(
				"%v (a record of more than %d MiB besides spaces is read as plain JSON only; docs/scenario.md#limits)", fastErr, MaxTreeBytes>>20)}
		}
		src, perr := parseDocument(lr.name, text)
		if perr != nil {
			var e *Error
			if errors.As(perr, &e) {
				e.Line += lr.line - 1
			}
			return JobSpec{}, nil, perr
		}
		src.line0 = lr.line - 1
		js = JobSpec{}
		if err := decodeNode(src, src.body, &js); err != nil {
			return JobSpec{}, nil, err
		}
		return js, src, nil
	}
}

func openNative(path string, options map[string]any, sc *Scenario) (workload.Source, error) {
	if len(options) > 0 {
		return nil, fmt.Errorf("%s: the native format takes no options", path)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl":
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		c := newJobChecker(sc.Machines)
		c.streamed = true
		return &jsonlSource{f: f, lr: &lineReader{name: path, r: textread.NewLines(path, f)}, c: c}, nil
	case ".yaml", ".yml":
		data, err := textread.ReadFile(path)
		if err != nil {
			return nil, err
		}
		l, src, err := decodeJobList(path, data, true)
		if err != nil {
			return nil, err
		}
		if l.len() == 0 {
			return nil, src.at("jobs", "expected a list of at least one job")
		}
		order, err := checkJobList(sc, l, src, "jobs")
		if err != nil {
			return nil, err
		}
		return &specSource{list: l, order: order}, nil
	}
	return nil, fmt.Errorf("%s: a native trace must end in .yaml, .yml or .jsonl", path)
}

// jsonlSource streams a JSONL trace, checking each job as it is read; the
// file must be sorted by arrival.
type jsonlSource struct {
	f  *os.File
	lr *lineReader
	c  *jobChecker
}

func (s *jsonlSource) Next() (*workload.Job, bool, error) {
	if s.f == nil {
		return nil, false, nil
	}
	js, src, err := s.lr.next()
	if err == nil {
		var j workload.Job
		if j, err = s.c.check(src, 0, &js); err == nil {
			return &j, true, nil
		}
	}
	s.f.Close()
	s.f = nil
	if err == io.EOF {
		return nil, false, nil
	}
	return nil, false, err
}
