package google

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/trace"
)

// ParseError is a problem at one place of a trace file; Field is the
// schema's column name ("timestamp", "event type", ...).
type ParseError = trace.ParseError

// Special timestamps of the 2011 schema: events that happened before the
// trace window carry 0, events after its end 2^63-1. Neither is a time at
// which anything can be measured.
const (
	BeforeTrace int64 = 0
	AfterTrace  int64 = math.MaxInt64
)

// EventType is the event type column of both tables.
type EventType uint8

const (
	Submit        EventType = iota // became eligible for scheduling
	Schedule                       // placed on a machine
	Evict                          // descheduled for a higher-priority task, overcommitment or a machine failure
	Fail                           // descheduled because the task failed
	Finish                         // completed normally
	Kill                           // cancelled by the user, a driver or a dependency's death
	Lost                           // presumably terminated, but the record of it is missing
	UpdatePending                  // requirements changed while waiting
	UpdateRunning                  // requirements changed while scheduled
)

var eventNames = [...]string{"SUBMIT", "SCHEDULE", "EVICT", "FAIL", "FINISH", "KILL", "LOST", "UPDATE_PENDING", "UPDATE_RUNNING"}

func (e EventType) String() string {
	if int(e) < len(eventNames) {
		return eventNames[e]
	}
	return "EventType(" + strconv.Itoa(int(e)) + ")"
}

// TaskEvent is one task_events line. Optional columns that are empty read
// as -1 (for the user, as "").
type TaskEvent struct {
	Line             int
	Time             int64 // microseconds; BeforeTrace or AfterTrace outside the window
	Missing          int8  // missing-info code 0..2, -1 for a recorded (not synthesized) event
	Job              uint64
	Task             int32 // task index within the job
	Machine          int64
	Type             EventType
	User             string // hashed
	SchedClass       int8   // 0..3
	Priority         int32
	CPU, Mem, Disk   float64 // requests, normalised to the largest machine
	DifferentMachine int8    // 0 or 1
}

// JobEvent is one job_events line.
type JobEvent struct {
	Line              int
	Time              int64
	Missing           int8
	Job               uint64
	Type              EventType
	User              string
	SchedClass        int8
	Name, LogicalName string // hashed
}

// The column names, in file order, as the schema (schema.csv of the trace)
// names them; errors use them as the field.
var (
	taskColumns = []string{"timestamp", "missing info", "job ID", "task index", "machine ID", "event type", "user",
		"scheduling class", "priority", "CPU request", "memory request", "disk request", "different-machine constraint"}
	jobColumns = []string{"timestamp", "missing info", "job ID", "event type", "user", "scheduling class", "job name", "logical job name"}
)

// maxLine bounds a line: a task_events line is about 100 bytes, so a much
// longer one is not a record (and must not grow the buffer without bound).
const maxLine = 64 << 10

// lines splits a headerless CSV table into fields, one line at a time.
// Blank lines and a trailing CR are skipped; every other line must have
// exactly len(cols) comma-separated fields. After an error it keeps
// returning it, so a caller never resumes mid-file.
type lines struct {
	name  string
	table string   // "task_events" or "job_events", for messages
	cols  []string // column names
	other int      // the other table's column count, for a hint
	src   *textread.Lines
	line  int
	f     [][]byte // fields of the current line (reused)
	err   error
}

func newLines(name, table string, cols []string, other int, r io.Reader) *lines {
	src := textread.NewLines(name, r)
	src.SetMaxLine(maxLine, "a "+table+" record")
	return &lines{name: name, table: table, cols: cols, other: other, src: src, f: make([][]byte, 0, len(cols))}
}

func (l *lines) errf(line int, field, format string, args ...any) *ParseError {
	return &ParseError{File: l.name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// next advances to the next record.
func (l *lines) next() (bool, error) {
	if l.err != nil {
		return false, l.err
	}
	for l.src.Scan() {
		l.line = l.src.Line()
		b := bytes.TrimSuffix(l.src.Bytes(), []byte{'\r'})
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if err := l.split(b); err != nil {
			l.err = err
			return false, err
		}
		return true, nil
	}
	l.err = l.src.Err()
	return false, l.err
}

func (l *lines) split(b []byte) error {
	n := bytes.Count(b, []byte{','}) + 1
	want := len(l.cols)
	switch {
	case n == 1 && bytes.ContainsAny(b, "\t;"):
		return l.errf(l.line, "", "expected %d comma-separated fields (a %s record), found 1: fields must be separated by commas", want, l.table)
	case n == l.other:
		other := map[string]string{"task_events": "job_events", "job_events": "task_events"}[l.table]
		return l.errf(l.line, "", "expected %d comma-separated fields (a %s record), found %d: is this a %s file?", want, l.table, n, other)
	case n < want:
		return l.errf(l.line, l.cols[n], "line ends after %d of %d fields (truncated?)", n, want)
	case n > want:
		return l.errf(l.line, "", "expected %d comma-separated fields (a %s record), found %d", want, l.table, n)
	}
	l.f = l.f[:0]
	for {
		i := bytes.IndexByte(b, ',')
		if i < 0 {
			l.f = append(l.f, bytes.TrimSpace(b))
			return nil
		}
		l.f = append(l.f, bytes.TrimSpace(b[:i]))
		b = b[i+1:]
	}
}

// whole parses column i as a whole number in [0, max]. present is false
// for an empty optional column; an empty mandatory column is an error.
func (l *lines) whole(i int, mandatory bool, max uint64, what string) (v uint64, present bool, err error) {
	tok := l.f[i]
	if len(tok) == 0 {
		if mandatory {
			return 0, false, l.errf(l.line, l.cols[i], "empty, but the schema makes this field mandatory")
		}
		return 0, false, nil
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			msg := fmt.Sprintf("%q is not %s", tok, what)
			if i == 0 && l.line == 1 && bytes.ContainsFunc(tok, unicode.IsLetter) {
				msg += "; clusterdata-2011 files have no header line"
			}
			return 0, false, l.errf(l.line, l.cols[i], "%s", msg)
		}
	}
	v, err = strconv.ParseUint(string(tok), 10, 64)
	if err != nil || v > max {
		return 0, false, l.errf(l.line, l.cols[i], "%s is out of range (%s, at most %d)", tok, what, max)
	}
	return v, true, nil
}

// code parses an optional small enumeration; -1 when empty.
func (l *lines) code(i int, max uint64, what string) (int8, error) {
	v, ok, err := l.whole(i, false, math.MaxUint32, what)
	if err != nil {
		return 0, err
	}
	if !ok {
		return -1, nil
	}
	if v > max {
		return 0, l.errf(l.line, l.cols[i], "%d is not %s", v, what)
	}
	return int8(v), nil
}

// eventType parses the mandatory event type column.
func (l *lines) eventType(i int) (EventType, error) {
	const what = "an event type (0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING)"
	v, _, err := l.whole(i, true, math.MaxUint32, what)
	if err != nil {
		return 0, err
	}
	if v >= uint64(len(eventNames)) {
		return 0, l.errf(l.line, l.cols[i], "%d is not %s", v, what)
	}
	return EventType(v), nil
}

// request parses an optional resource request: a finite number >= 0 in
// plain decimal or exponent notation; -1 when empty.
func (l *lines) request(i int) (float64, error) {
	tok := l.f[i]
	if len(tok) == 0 {
		return -1, nil
	}
	if bytes.IndexFunc(tok, func(c rune) bool { return !strings.ContainsRune("0123456789.eE+-", c) }) >= 0 {
		return 0, l.errf(l.line, l.cols[i], "%q is not a number", tok)
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, l.errf(l.line, l.cols[i], "%s is out of range", tok)
	}
	if err != nil {
		return 0, l.errf(l.line, l.cols[i], "%q is not a number", tok)
	}
	if v < 0 {
		return 0, l.errf(l.line, l.cols[i], "%s is negative", tok)
	}
	return v, nil
}

func (l *lines) text(i int) string {
	if len(l.f[i]) == 0 {
		return ""
	}
	return string(l.f[i])
}

// Descriptions of what a column must hold, for messages.
const (
	timeWhat    = "a timestamp (whole microseconds)"
	idWhat      = "a job ID (a whole number)"
	missingWhat = "a missing-info code (0, 1 or 2, or empty)"
	classWhat   = "a scheduling class (0 to 3, or empty)"
)

// TaskEventReader reads a task_events table (uncompressed text).
//
// Rules, each violation a *ParseError naming the column: exactly 13
// comma-separated fields; the mandatory columns (timestamp, job ID, task
// index, event type, priority) are present; whole numbers are plain digits
// (timestamp at most 2^63-1, task index and priority at most 2^31-1,
// missing info 0..2, scheduling class 0..3, different-machine constraint
// 0 or 1, event type 0..8); requests are finite numbers >= 0; spaces
// around fields, blank lines and a trailing CR are ignored. Lines need not
// be sorted by time.
type TaskEventReader struct{ l *lines }

// NewTaskEventReader reads r; name is used in errors.
func NewTaskEventReader(name string, r io.Reader) *TaskEventReader {
	return &TaskEventReader{newLines(name, "task_events", taskColumns, len(jobColumns), r)}
}

// Next returns the next event, ok=false at the end, or the first error.
func (r *TaskEventReader) Next() (e TaskEvent, ok bool, err error) {
	l := r.l
	if ok, err := l.next(); !ok || err != nil {
		return TaskEvent{}, false, err
	}
	e.Line = l.line
	var v uint64
	if v, _, err = l.whole(0, true, math.MaxInt64, timeWhat); err != nil {
		return TaskEvent{}, false, err
	}
	e.Time = int64(v)
	if e.Missing, err = l.code(1, 2, missingWhat); err != nil {
		return TaskEvent{}, false, err
	}
	if e.Job, _, err = l.whole(2, true, math.MaxUint64, idWhat); err != nil {
		return TaskEvent{}, false, err
	}
	if v, _, err = l.whole(3, true, math.MaxInt32, "a task index (a whole number)"); err != nil {
		return TaskEvent{}, false, err
	}
	e.Task = int32(v)
	v, present, err := l.whole(4, false, math.MaxInt64, "a machine ID (a whole number)")
	if err != nil {
		return TaskEvent{}, false, err
	}
	e.Machine = -1
	if present {
		e.Machine = int64(v)
	}
	if e.Type, err = l.eventType(5); err != nil {
		return TaskEvent{}, false, err
	}
	e.User = l.text(6)
	if e.SchedClass, err = l.code(7, 3, classWhat); err != nil {
		return TaskEvent{}, false, err
	}
	if v, _, err = l.whole(8, true, math.MaxInt32, "a priority (a whole number)"); err != nil {
		return TaskEvent{}, false, err
	}
	e.Priority = int32(v)
	for i, dst := range []*float64{&e.CPU, &e.Mem, &e.Disk} {
		if *dst, err = l.request(9 + i); err != nil {
			return TaskEvent{}, false, err
		}
	}
	if e.DifferentMachine, err = l.code(12, 1, "0 or 1 (or empty)"); err != nil {
		return TaskEvent{}, false, err
	}
	return e, true, nil
}

// JobEventReader reads a job_events table (uncompressed text): 8 fields,
// mandatory timestamp, job ID and event type, the same number rules as
// TaskEventReader.
type JobEventReader struct{ l *lines }

// NewJobEventReader reads r; name is used in errors.
func NewJobEventReader(name string, r io.Reader) *JobEventReader {
	return &JobEventReader{newLines(name, "job_events", jobColumns, len(taskColumns), r)}
}

// Next returns the next event, ok=false at the end, or the first error.
func (r *JobEventReader) Next() (e JobEvent, ok bool, err error) {
	l := r.l
	if ok, err := l.next(); !ok || err != nil {
		return JobEvent{}, false, err
	}
	e.Line = l.line
	var v uint64
	if v, _, err = l.whole(0, true, math.MaxInt64, timeWhat); err != nil {
		return JobEvent{}, false, err
	}
	e.Time = int64(v)
	if e.Missing, err = l.code(1, 2, missingWhat); err != nil {
		return JobEvent{}, false, err
	}
	if e.Job, _, err = l.whole(2, true, math.MaxUint64, idWhat); err != nil {
		return JobEvent{}, false, err
	}
	if e.Type, err = l.eventType(3); err != nil {
		return JobEvent{}, false, err
	}
	e.User = l.text(4)
	if e.SchedClass, err = l.code(5, 3, classWhat); err != nil {
		return JobEvent{}, false, err
	}
	e.Name, e.LogicalName = l.text(6), l.text(7)
	return e, true, nil
}

// OpenFile opens one table file for reading, decompressing it when it
// starts with the gzip magic bytes (the published trace is gzipped; an
// uncompressed copy reads the same). A name ending in .gz that is not
// gzip data is an error rather than a page of garbled-field errors.
func OpenFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, &ParseError{File: path, Line: 1, Msg: fmt.Sprintf("gzip: %v", err)}
		}
		return readCloser{zr, func() error { zr.Close(); return f.Close() }}, nil
	}
	if strings.HasSuffix(path, ".gz") {
		f.Close()
		return nil, &ParseError{File: path, Line: 1, Msg: "the name ends in .gz but the file is not gzip data"}
	}
	return readCloser{br, f.Close}, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }
