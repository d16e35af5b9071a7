// Package swim reads SWIM workload files (github.com/SWIMProjectUCB/SWIM),
// e.g. FB-2010_samples_24_times_1hr_0.tsv, and replays them as netsched
// MapReduce jobs, one line at a time.
//
// A line has six tab-separated fields: job id, submit time (s since the
// workload start), gap since the previous submit (s), map input bytes,
// shuffle bytes, reduce output bytes. Shuffle 0 means a map-only job.
package swim

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/trace"
	"github.com/netsched/netsched/workload"
)

// ParseError is a problem at one place of a SWIM file (columns "id",
// "submit", "gap", "input", "shuffle", "output").
type ParseError = trace.ParseError

// Record is one job line.
type Record struct {
	Line    int
	ID      string
	Submit  float64 // seconds since the workload start
	Gap     float64 // seconds since the previous submit (informational)
	Input   float64 // bytes
	Shuffle float64 // bytes; 0 = map-only
	Output  float64 // bytes
}

// fields names the columns in file order.
var fields = [...]string{"id", "submit", "gap", "input", "shuffle", "output"}

const maxLine = 1 << 20 // longer lines are certainly not SWIM records

// Reader parses records one by one.
//
// Rules (each violation is a *ParseError): exactly six tab-separated
// fields (surrounding spaces and a trailing CR are ignored); a non-empty id
// used once; numbers finite and >= 0; submit times never decrease (SWIM
// files are sorted; an out-of-order line is rejected, not reordered, so a
// replay is always the file it was given); blank lines are skipped; a file
// without records is an error.
type Reader struct {
	name       string
	lines      *textread.Lines
	line       int
	records    int
	lastSubmit float64
	ids        map[string]int // id -> line, for duplicate reports
	err        error
}

// NewReader reads r; name is used in error messages.
func NewReader(name string, r io.Reader) *Reader {
	lines := textread.NewHeldLines(name, r) // ids are kept
	lines.SetMaxLine(maxLine, "a SWIM record")
	return &Reader{name: name, lines: lines, ids: map[string]int{}}
}

// Next returns the next record, ok=false at the end of the file, or an
// error (after which Next keeps returning it).
func (r *Reader) Next() (rec Record, ok bool, err error) {
	if r.err != nil {
		return Record{}, false, r.err
	}
	for r.lines.Scan() {
		r.line = r.lines.Line()
		text := strings.TrimRight(string(r.lines.Bytes()), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		rec, err := r.parse(text)
		if err != nil {
			r.err = err
			return Record{}, false, err
		}
		r.records++
		return rec, true, nil
	}
	r.line = r.lines.Line() // with the blank lines at the end
	if err := r.lines.Err(); err != nil {
		r.err = err
		return Record{}, false, r.err
	}
	if r.records == 0 {
		r.err = r.errf(max(r.line, 1), "", "file has no jobs: expected lines of 6 tab-separated fields (id, submit, gap, input, shuffle, output)")
		return Record{}, false, r.err
	}
	return Record{}, false, nil
}

func (r *Reader) errf(line int, field, format string, args ...any) *ParseError {
	return &ParseError{File: r.name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (r *Reader) parse(text string) (Record, error) {
	f := strings.Split(text, "\t")
	switch {
	case len(f) == 1 && strings.ContainsAny(strings.TrimSpace(text), " ,;"):
		return Record{}, r.errf(r.line, "", "expected 6 tab-separated fields (id, submit, gap, input, shuffle, output), found 1: fields must be separated by tabs")
	case len(f) < len(fields):
		return Record{}, r.errf(r.line, fields[len(f)], "line ends after %d of 6 fields (truncated?)", len(f))
	case len(f) > len(fields):
		return Record{}, r.errf(r.line, "", "expected 6 tab-separated fields (id, submit, gap, input, shuffle, output), found %d", len(f))
	}
	rec := Record{Line: r.line, ID: strings.TrimSpace(f[0])}
	if rec.ID == "" {
		return Record{}, r.errf(r.line, "id", "empty job id")
	}
	if err := workload.CheckID("job", rec.ID); err != nil {
		return Record{}, r.errf(r.line, "id", "%v", err)
	}
	if first, dup := r.ids[rec.ID]; dup {
		return Record{}, r.errf(r.line, "id", "duplicate job id %q (first on line %d)", rec.ID, first)
	}
	vals := [5]*float64{&rec.Submit, &rec.Gap, &rec.Input, &rec.Shuffle, &rec.Output}
	for i, dst := range vals {
		v, err := r.number(fields[i+1], f[i+1])
		if err != nil {
			return Record{}, err
		}
		*dst = v
	}
	if rec.Submit < r.lastSubmit {
		return Record{}, r.errf(r.line, "submit", "%s s is earlier than the previous job's %s s: SWIM files must be sorted by submit time",
			strings.TrimSpace(f[1]), strconv.FormatFloat(r.lastSubmit, 'g', -1, 64))
	}
	r.lastSubmit = rec.Submit
	r.ids[rec.ID] = r.line
	return rec, nil
}

// number parses a finite, non-negative decimal number (no hex, no
// infinities, no underscores: a SWIM field is plain digits).
func (r *Reader) number(field, tok string) (float64, error) {
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return 0, r.errf(r.line, field, "empty field")
	}
	if strings.IndexFunc(tok, func(c rune) bool { return !strings.ContainsRune("0123456789.eE+-", c) }) >= 0 {
		return 0, r.errf(r.line, field, "%q is not a number", tok)
	}
	v, err := strconv.ParseFloat(tok, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, r.errf(r.line, field, "%s is out of range", tok)
	}
	if err != nil {
		return 0, r.errf(r.line, field, "%q is not a number", tok)
	}
	if _, err := units.ParseNumber(tok); err != nil { // 1e-400: the one reader's range
		return 0, r.errf(r.line, field, "%v", err)
	}
	if v < 0 {
		return 0, r.errf(r.line, field, "%s is negative", tok)
	}
	if limit := fieldLimit(field); v > limit {
		return 0, r.errf(r.line, field, "%s is beyond the limit %g (netsched's bounds on one job, docs/scenario.md#limits)", tok, limit)
	}
	return v, nil
}

// fieldLimit is the largest value a SWIM field may hold: times within
// workload.MaxSeconds, byte counts within workload.MaxBytes.
func fieldLimit(field string) float64 {
	if field == "submit" || field == "gap" {
		return workload.MaxSeconds
	}
	return workload.MaxBytes
}
