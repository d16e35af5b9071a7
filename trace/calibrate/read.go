package calibrate

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/internal/units"
)

// Format is the kind of task log a file holds, told by its header.
type Format int

const (
	// TasksCSV is netsched's tasks.csv: kind = stage, bytes = input_bytes,
	// seconds = finish - input_done.
	TasksCSV Format = iota
	// Generic is a CSV with columns kind, bytes and seconds; bytes and
	// seconds may carry units (128MB, 1.5s).
	Generic
)

func (f Format) String() string {
	if f == TasksCSV {
		return "netsched tasks.csv"
	}
	return "kind,bytes,seconds"
}

// ReadFile streams one task log into fit and returns its format and the
// number of tasks read. path may be a run directory holding tasks.csv.
// Errors name the file, line and field and say what was expected.
func ReadFile(path string, fit *Fitter) (Format, int, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "tasks.csv")
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	return Read(f, path, fit)
}

// Read is ReadFile on an open reader; name labels the errors.
func Read(r io.Reader, name string, fit *Fitter) (Format, int, error) {
	cr := csv.NewReader(textread.NewReader(name, r))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return 0, 0, fmt.Errorf("%s: empty file, expected a header (netsched's tasks.csv or kind,bytes,seconds)", name)
	}
	if err != nil {
		return 0, 0, csvError(name, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := col[n]; !ok {
				return false
			}
		}
		return true
	}
	var format Format
	switch {
	case has("stage", "input_done", "finish", "input_bytes"):
		format = TasksCSV
	case has("kind", "bytes", "seconds"):
		format = Generic
	default:
		return 0, 0, fmt.Errorf("%s:1: header: expected netsched's tasks.csv (columns stage, input_done, finish, input_bytes) or the columns kind,bytes,seconds; found %q",
			name, textread.Excerpt(strings.Join(head, ",")))
	}
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return format, n, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		field := func(c string) (string, error) {
			i := col[c]
			if i >= len(rec) {
				return "", fmt.Errorf("%s:%d: %s: missing (the line has %d fields, the header %d)", name, line, c, len(rec), len(head))
			}
			return strings.TrimSpace(rec[i]), nil
		}
		var kind string
		var bytes, seconds float64
		if format == TasksCSV {
			kind, bytes, seconds, err = tasksRow(name, line, field)
		} else {
			kind, bytes, seconds, err = genericRow(name, line, field)
		}
		if err != nil {
			return format, n, err
		}
		fit.Add(kind, bytes, seconds)
		n++
	}
	if n == 0 {
		return format, 0, fmt.Errorf("%s: no tasks after the header", name)
	}
	return format, n, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
	}
	var limit *textread.Error
	if errors.As(err, &limit) {
		return err // names the file and the line
	}
	return fmt.Errorf("%s: %w", name, err)
}

type fieldFunc func(col string) (string, error)

// tasksRow reads one tasks.csv record: plain numbers, as netsched writes.
func tasksRow(name string, line int, field fieldFunc) (string, float64, float64, error) {
	kind, err := field("stage")
	if err != nil {
		return "", 0, 0, err
	}
	if kind == "" {
		return "", 0, 0, fmt.Errorf("%s:%d: stage: empty, expected a stage name", name, line)
	}
	num := func(c string) (float64, error) {
		s, err := field(c)
		if err != nil {
			return 0, err
		}
		v, perr := strconv.ParseFloat(s, 64)
		if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0, fmt.Errorf("%s:%d: %s: %q, expected a finite number >= 0", name, line, c, s)
		}
		return v, nil
	}
	bytes, err := num("input_bytes")
	if err != nil {
		return "", 0, 0, err
	}
	done, err := num("input_done")
	if err != nil {
		return "", 0, 0, err
	}
	finish, err := num("finish")
	if err != nil {
		return "", 0, 0, err
	}
	if finish < done {
		return "", 0, 0, fmt.Errorf("%s:%d: finish: %g is before input_done %g, expected finish >= input_done", name, line, finish, done)
	}
	return kind, bytes, finish - done, nil
}

// genericRow reads one kind,bytes,seconds record; units are allowed.
func genericRow(name string, line int, field fieldFunc) (string, float64, float64, error) {
	kind, err := field("kind")
	if err != nil {
		return "", 0, 0, err
	}
	if kind == "" {
		return "", 0, 0, fmt.Errorf("%s:%d: kind: empty, expected a task kind such as map or reduce", name, line)
	}
	bs, err := field("bytes")
	if err != nil {
		return "", 0, 0, err
	}
	bytes, perr := units.ParseBytes(bs)
	if perr != nil || bytes < 0 {
		return "", 0, 0, fmt.Errorf("%s:%d: bytes: %q, expected a size >= 0 such as 134217728 or 128MB", name, line, bs)
	}
	ss, err := field("seconds")
	if err != nil {
		return "", 0, 0, err
	}
	seconds, perr := units.ParseDuration(ss)
	if perr != nil || seconds < 0 {
		return "", 0, 0, fmt.Errorf("%s:%d: seconds: %q, expected a duration >= 0 such as 12.5 or 1.5s", name, line, ss)
	}
	return kind, bytes, seconds, nil
}
