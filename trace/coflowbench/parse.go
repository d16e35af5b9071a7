package coflowbench

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/trace"
	"github.com/netsched/netsched/workload"
)

// ParseError is a problem at one place of a trace file (fields such as
// "ports", "arrival", "mapper 3", "reducer 2 size").
type ParseError = trace.ParseError

// ReadFile parses the trace at path; errors name the path.
func ReadFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads a trace; name is used in error messages only.
//
// Rules (each violation is a *ParseError, never a guess):
//   - the first non-blank line is `<ports> <coflows>` with ports >= 1 and
//     coflows >= 0; the file must then hold exactly that many coflow lines;
//   - blank lines are skipped;
//   - counts, ports and the arrival are numbers; #mappers and #reducers are
//     at least 1 and the line holds exactly that many entries;
//   - every port is in [0, ports); sizes are finite and >= 0;
//   - coflow ids are unique printable text (workload.CheckID);
//   - arrivals never decrease: an out-of-order line is rejected (not
//     sorted), because a replay that silently reorders the trace would no
//     longer replay the file it was given.
func Parse(name string, r io.Reader) (*Trace, error) {
	p := &parser{name: name, ids: map[string]int{}}
	lines := textread.NewHeldLines(name, r) // the trace is kept whole
	for lines.Scan() {
		p.lineNo = lines.Line()
		if perr := p.line(string(lines.Bytes())); perr != nil {
			return nil, perr
		}
	}
	if err := lines.Err(); err != nil {
		return nil, err
	}
	p.lineNo = lines.Line() // with the blank lines at the end
	return p.finish()
}

type parser struct {
	name       string
	lineNo     int
	headerLine int // 0 until the header is read
	declared   int // coflow count from the header
	tr         Trace
	ids        map[string]int // coflow id -> line, for duplicate reports
	lastArr    float64        // previous arrival in ms
}

func (p *parser) errf(field, format string, args ...any) *ParseError {
	return &ParseError{File: p.name, Line: p.lineNo, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) line(text string) *ParseError {
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil
	}
	if p.headerLine == 0 {
		return p.header(f)
	}
	if len(p.tr.Coflows) == p.declared {
		return p.errf("coflows", "header (line %d) declares %d coflows but another line follows", p.headerLine, p.declared)
	}
	c, err := p.coflow(f)
	if err != nil {
		return err
	}
	p.tr.Coflows = append(p.tr.Coflows, c)
	return nil
}

func (p *parser) header(f []string) *ParseError {
	if len(f) != 2 {
		return p.errf("header", "expected 2 fields `<ports> <coflows>`, found %d", len(f))
	}
	ports, err := p.int("ports", f[0], 1)
	if err != nil {
		return err
	}
	n, err := p.int("coflows", f[1], 0)
	if err != nil {
		return err
	}
	p.headerLine, p.tr.Ports, p.declared = p.lineNo, ports, n
	p.tr.Coflows = make([]Coflow, 0, min(n, 1<<16))
	return nil
}

func (p *parser) finish() (*Trace, error) {
	if p.headerLine == 0 {
		return nil, &ParseError{File: p.name, Line: max(p.lineNo, 1), Field: "header", Msg: "file is empty: expected a header line `<ports> <coflows>`"}
	}
	if got := len(p.tr.Coflows); got != p.declared {
		return nil, &ParseError{File: p.name, Line: p.headerLine, Field: "coflows",
			Msg: fmt.Sprintf("header declares %d coflows but the file has %d", p.declared, got)}
	}
	return &p.tr, nil
}

// coflow parses `<id> <arrival ms> <#mappers> <mapper>... <#reducers> <port:MB>...`.
func (p *parser) coflow(f []string) (Coflow, *ParseError) {
	var c Coflow
	if len(f) < 3 {
		return c, p.errf(fieldAt(len(f)), "line ends after %d fields: expected `<id> <arrival ms> <#mappers> <mapper ports> <#reducers> <port:MB ...>`", len(f))
	}
	c.ID = f[0]
	if err := workload.CheckID("coflow", c.ID); err != nil {
		return c, p.errf("id", "%v", err) // (checked again as a job's id, without the line)
	}
	if first, dup := p.ids[c.ID]; dup {
		return c, p.errf("id", "duplicate coflow id %q (first on line %d)", c.ID, first)
	}
	ms, err := p.float("arrival", f[1])
	if err != nil {
		return c, err
	}
	if ms/1000 > workload.MaxSeconds {
		return c, p.errf("arrival", "%s ms is beyond the limit of %g s (netsched's bounds, docs/scenario.md#limits)", f[1], float64(workload.MaxSeconds))
	}
	if ms < p.lastArr {
		return c, p.errf("arrival", "%s ms is earlier than the previous coflow's %s ms: the trace must be sorted by arrival", f[1], fmtNum(p.lastArr))
	}
	nm, err := p.int("#mappers", f[2], 1)
	if err != nil {
		return c, err
	}
	// Mapper ports, then the reducer count, must follow.
	if nm > len(f)-4 { // compared this way round so a huge count cannot overflow
		return c, p.errf(fieldAt(len(f)), "#mappers is %d but only %d fields follow it: need the mapper ports and then #reducers", nm, len(f)-3)
	}
	c.Mappers = make([]int, nm)
	for i := range nm {
		port, err := p.port(fmt.Sprintf("mapper %d", i+1), f[3+i])
		if err != nil {
			return c, err
		}
		c.Mappers[i] = port
	}
	ri := 3 + nm
	nr, err := p.int("#reducers", f[ri], 1)
	if err != nil {
		return c, err
	}
	if got := len(f) - ri - 1; got != nr {
		if got < nr {
			return c, p.errf(fieldAt(len(f)), "#reducers is %d but only %d reducer entries follow (line truncated?)", nr, got)
		}
		return c, p.errf(fmt.Sprintf("reducer %d", nr+1), "#reducers is %d but %d reducer entries follow", nr, got)
	}
	c.Reducers = make([]Reducer, nr)
	for i := range nr {
		red, err := p.reducer(i+1, f[ri+1+i])
		if err != nil {
			return c, err
		}
		c.Reducers[i] = red
	}
	c.Arrival = ms / 1000
	p.lastArr = ms
	p.ids[c.ID] = p.lineNo
	return c, nil
}

// fieldAt names the field a line is missing when it has n fields, for
// truncation messages ("mapper 2", "#reducers", ...); it is coarse on
// purpose: the message carries the counts.
func fieldAt(n int) string {
	switch n {
	case 0:
		return "id"
	case 1:
		return "arrival"
	case 2:
		return "#mappers"
	}
	return "end of line"
}

func (p *parser) reducer(i int, tok string) (Reducer, *ParseError) {
	field := fmt.Sprintf("reducer %d", i)
	portStr, mbStr, ok := strings.Cut(tok, ":")
	if !ok {
		return Reducer{}, p.errf(field, "%q is not `port:MB`", tok)
	}
	port, err := p.port(field+" port", portStr)
	if err != nil {
		return Reducer{}, err
	}
	mb, err := p.float(field+" size", mbStr)
	if err != nil {
		return Reducer{}, err
	}
	if mb*MB > workload.MaxBytes {
		return Reducer{}, p.errf(field+" size", "%s MB is beyond the limit of %g bytes (netsched's bounds, docs/scenario.md#limits)", mbStr, float64(workload.MaxBytes))
	}
	return Reducer{Port: port, Bytes: mb * MB}, nil
}

func (p *parser) port(field, tok string) (int, *ParseError) {
	v, err := strconv.Atoi(tok)
	if err != nil {
		return 0, p.errf(field, "%q is not an integer port", tok)
	}
	if v < 0 || v >= p.tr.Ports {
		return 0, p.errf(field, "port %d is out of range [0, %d)", v, p.tr.Ports)
	}
	return v, nil
}

func (p *parser) int(field, tok string, least int) (int, *ParseError) {
	v, err := strconv.Atoi(tok)
	if err != nil {
		return 0, p.errf(field, "%q is not an integer", tok)
	}
	if v < least {
		return 0, p.errf(field, "%d is below the minimum %d", v, least)
	}
	return v, nil
}

// float parses a finite, non-negative number.
func (p *parser) float(field, tok string) (float64, *ParseError) {
	v, err := units.ParseNumber(tok) // the one reader of every spelling
	if f, perr := strconv.ParseFloat(tok, 64); perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, p.errf(field, "%q is not a finite number", tok)
	}
	if err != nil { // rounds to 0, or not plain decimal
		return 0, p.errf(field, "%v", err)
	}
	if v < 0 {
		return 0, p.errf(field, "%s is negative", tok)
	}
	return v, nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
