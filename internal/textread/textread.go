// Package textread is how netsched reads every text input (scenario files,
// traces, sweep files): within a line-length and a file-size limit, as
// UTF-8, with errors that name the file, the line and the limit. No input,
// however long (/dev/zero, a gzip bomb), can make a reader hold more than
// the limits, and a file in another encoding is named as such instead of
// being parsed as garbage.
package textread

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Limits of every text input (docs/scenario.md#limits lists them).
const (
	// MaxLine is the longest line of any text input.
	MaxLine = 64 << 20
	// MaxWhole is the largest file read whole into memory or kept in
	// memory as it is read: a scenario, a sweep file, a native YAML,
	// SWIM or coflow-benchmark trace.
	MaxWhole = 1 << 30
	// MaxStream is the largest file read line by line, keeping little of
	// each line (a native JSONL trace, a google2011 table file), counted
	// after decompression: it bounds the time an endless input takes and
	// what a reader remembers of each record (its id).
	MaxStream = 4 << 30
)

// Error is a problem at one place of a text file: beyond a limit, not
// UTF-8, unreadable, or (as trace.ParseError) a bad field. Line is
// 1-based; Field names the offending field or column, or is empty for a
// whole-line or whole-file problem. Its text is capped at MaxMessage.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, CapMessage(e.Msg))
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, CapMessage(e.Msg))
}

// ReadFile reads the file at path whole, within MaxWhole and MaxLine.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var hint int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		hint = min(st.Size(), MaxWhole)
	}
	return readAll(path, f, int(hint), MaxWhole, MaxLine)
}

// ReadAll reads r whole, within MaxWhole and MaxLine; name is used in
// errors. A UTF-8 byte order mark is dropped.
func ReadAll(name string, r io.Reader) ([]byte, error) {
	return readAll(name, r, 0, MaxWhole, MaxLine)
}

// readAll reads r whole; hint is its expected size.
func readAll(name string, r io.Reader, hint, maxFile, maxLine int) ([]byte, error) {
	buf := make([]byte, 0, hint+1)
	chunk := make([]byte, 64<<10)
	line, lineStart := 1, 0 // current line number and its offset in buf
	for {
		n, err := r.Read(chunk)
		if len(buf)+n > maxFile {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("the file is longer than the limit of %s", size(maxFile))}
		}
		start := len(buf)
		buf = append(buf, chunk[:n]...)
		if start == 0 && len(buf) > 0 {
			if err := checkEncoding(name, buf); err != nil {
				return nil, err
			}
		}
		added := buf[start:]
		if i := bytes.IndexByte(added, 0); i >= 0 {
			return nil, nulError(name, line+bytes.Count(added[:i], newline))
		}
		line += bytes.Count(added, newline)
		if i := bytes.LastIndexByte(added, '\n'); i >= 0 {
			lineStart = start + i + 1
		}
		if len(buf)-lineStart > maxLine {
			return nil, longLine(name, line, maxLine)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("cannot read further: %v", err)}
		}
	}
}

var (
	utf8BOM = []byte{0xEF, 0xBB, 0xBF}
	newline = []byte{'\n'}
)

// BOMMessage is what a reader says about a file that starts with a UTF-8
// byte order mark. netsched rejects it rather than skip it: nothing
// invisible ends up in the first key or id, and every reader reads the
// same bytes the same way.
const BOMMessage = "the file starts with a UTF-8 byte order mark (bytes EF BB BF); save it as UTF-8 without one"

// HasBOM reports whether data starts with a UTF-8 byte order mark.
func HasBOM(data []byte) bool { return bytes.HasPrefix(data, utf8BOM) }

// checkEncoding names the encoding of a file that starts with start when
// it is not UTF-8: a UTF-16 or UTF-32 byte order mark, or the NUL bytes
// that UTF-16 puts beside every ASCII character.
func checkEncoding(name string, start []byte) error {
	if HasBOM(start) {
		return &Error{File: name, Line: 1, Msg: BOMMessage}
	}
	enc := ""
	switch {
	case bytes.HasPrefix(start, []byte{0xFF, 0xFE, 0, 0}):
		enc = "UTF-32LE"
	case bytes.HasPrefix(start, []byte{0, 0, 0xFE, 0xFF}):
		enc = "UTF-32BE"
	case bytes.HasPrefix(start, []byte{0xFF, 0xFE}):
		enc = "UTF-16LE"
	case bytes.HasPrefix(start, []byte{0xFE, 0xFF}):
		enc = "UTF-16BE"
	case len(start) >= 2 && start[0] != 0 && start[1] == 0:
		enc = "UTF-16LE"
	case len(start) >= 2 && start[0] == 0 && start[1] != 0:
		enc = "UTF-16BE"
	case bytes.IndexByte(start, 0) >= 0:
		return nulError(name, 1)
	default:
		return nil
	}
	return &Error{File: name, Line: 1, Msg: fmt.Sprintf("the file is %s text; netsched reads UTF-8 (convert it, e.g. iconv -f %s -t UTF-8)", enc, enc)}
}

func nulError(name string, line int) *Error {
	return &Error{File: name, Line: line, Msg: "a NUL byte: not a text file"}
}

func longLine(name string, line, limit int) *Error {
	return &Error{File: name, Line: line, Msg: fmt.Sprintf("the line is longer than the limit of %s", size(limit))}
}

// size writes a limit in binary units (64 MiB).
func size(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Lines reads a text stream line by line within a line-length limit
// (MaxLine unless set otherwise) and MaxStream. Lines of only ASCII blanks
// (space, tab, CR) are skipped, quickly, but counted: every reader skips
// them, and a file of millions of them must not take a call each.
type Lines struct {
	name    string
	r       *bufio.Reader
	maxLine int
	record  string // what a line is, for the line-length message
	maxFile int64
	read    int64 // bytes consumed
	line    int   // number of the current line
	text    []byte
	long    []byte // holds a line longer than the buffer
	err     error
}

// NewLines reads a stream r within MaxStream; name is used in errors.
func NewLines(name string, r io.Reader) *Lines {
	return &Lines{name: name, r: bufio.NewReaderSize(r, 64<<10), maxLine: MaxLine, maxFile: MaxStream}
}

// NewHeldLines reads r within MaxWhole, for a reader that keeps what it
// reads.
func NewHeldLines(name string, r io.Reader) *Lines {
	l := NewLines(name, r)
	l.maxFile = MaxWhole
	return l
}

// SetMaxLine sets a reader's own, smaller line limit, for a format whose
// records are short; record names them for the message ("a SWIM record").
func (l *Lines) SetMaxLine(n int, record string) {
	l.maxLine, l.record = min(n, MaxLine), record
}

// Scan advances to the next line that is not blank; false at the end of
// the input or on an error (Err).
func (l *Lines) Scan() bool {
	if l.err != nil {
		return false
	}
	if l.line == 0 && !l.start() {
		return false
	}
	for {
		l.skipBlank()
		text, err := l.readLine()
		if err != nil {
			l.err = err
			return false
		}
		if text == nil {
			return false
		}
		l.line++
		if bytes.IndexByte(text, 0) >= 0 {
			l.err = nulError(l.name, l.line)
			return false
		}
		if !blank(text) {
			l.text = text
			return true
		}
	}
}

// start checks the encoding (a UTF-8 byte order mark is an error too).
func (l *Lines) start() bool {
	head, _ := l.r.Peek(4)
	if err := checkEncoding(l.name, head); err != nil {
		l.err = err
		return false
	}
	return true
}

// skipBlank consumes the blank lines at the reader's position, counting
// them, up to the file-size limit (readLine reports the limit).
func (l *Lines) skipBlank() {
	for l.read < l.maxFile {
		if l.r.Buffered() == 0 {
			if _, err := l.r.Peek(1); err != nil {
				return
			}
		}
		buf, _ := l.r.Peek(int(min(int64(l.r.Buffered()), l.maxFile-l.read)))
		end, lines := 0, 0 // end of the last whole blank line in buf
		for i, c := range buf {
			if c == '\n' {
				end, lines = i+1, lines+1
			} else if c != ' ' && c != '\t' && c != '\r' {
				break
			}
		}
		if end == 0 {
			return
		}
		l.r.Discard(end)
		l.read += int64(end)
		l.line += lines
	}
}

// readLine returns the next line without its newline, nil at the end of
// the input. A line cut by a read error (a truncated gzip stream) is
// reported as that error, not returned.
func (l *Lines) readLine() ([]byte, error) {
	l.long = l.long[:0]
	for {
		part, err := l.r.ReadSlice('\n')
		l.read += int64(len(part))
		if l.read > l.maxFile {
			return nil, &Error{File: l.name, Line: l.line + 1, Msg: fmt.Sprintf("the file is longer than the limit of %s", size64(l.maxFile))}
		}
		if len(l.long)+len(bytes.TrimSuffix(part, newline)) > l.maxLine {
			err := longLine(l.name, l.line+1, l.maxLine)
			if l.record != "" {
				err.Msg += ": not " + l.record
			}
			return nil, err
		}
		switch {
		case err == bufio.ErrBufferFull:
			l.long = append(l.long, part...)
			continue
		case err == io.EOF:
			if len(l.long)+len(part) == 0 {
				return nil, nil
			}
		case err != nil:
			return nil, &Error{File: l.name, Line: l.line + 1, Msg: fmt.Sprintf("cannot read further: %v (truncated or corrupt file?)", err)}
		}
		if len(l.long) > 0 {
			part = append(l.long, part...)
			l.long = part
		}
		return bytes.TrimSuffix(part, []byte{'\n'}), nil
	}
}

func size64(n int64) string { return size(int(n)) }

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// Bytes is the current line without its newline (a trailing CR is kept);
// it is valid until the next Scan.
func (l *Lines) Bytes() []byte { return l.text }

// Line is the current line's number (1-based); after the end of the
// input, the number of lines read.
func (l *Lines) Line() int { return l.line }

// Err is the error that ended the scan, nil at the end of the input.
func (l *Lines) Err() error { return l.err }

// MaxExcerpt is the longest piece of an input that an error message quotes.
const MaxExcerpt = 80

// Excerpt is s, cut to about MaxExcerpt bytes (at a character boundary)
// with a note of its full length, for quoting input in error messages.
func Excerpt(s string) string {
	if len(s) <= MaxExcerpt {
		return s
	}
	cut := runeCut(s, MaxExcerpt)
	return fmt.Sprintf("%s... (%d bytes in all)", s[:cut], len(s))
}

// runeCut is the largest length <= n at which s can be cut without
// splitting a UTF-8 character (len(s) > n).
func runeCut(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// MaxMessage is the longest error message text kept whole; a longer one
// (a library's message quoting its input) is cut, keeping its start.
const MaxMessage = 1000

// CapMessage cuts msg to about MaxMessage bytes.
func CapMessage(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	cut := runeCut(msg, MaxMessage)
	return strings.TrimSpace(msg[:cut]) + fmt.Sprintf("... (message cut at %d of %d bytes)", cut, len(msg))
}

// NewReader returns r as a reader that fails, naming the file and the
// line, on a byte past MaxStream, a line longer than MaxLine, a NUL byte
// or a file in another encoding: the limits of Lines, for a parser that
// reads the stream itself (encoding/csv).
func NewReader(name string, r io.Reader) io.Reader {
	return &guard{name: name, r: r, line: 1}
}

type guard struct {
	name    string
	r       io.Reader
	read    int64
	line    int
	lineLen int // bytes of the current line so far
}

func (g *guard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if g.read == 0 && n > 0 {
		if e := checkEncoding(g.name, p[:n]); e != nil {
			return 0, e
		}
	}
	if g.read += int64(n); g.read > MaxStream {
		return 0, &Error{File: g.name, Line: g.line, Msg: fmt.Sprintf("the file is longer than the limit of %s", size64(MaxStream))}
	}
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		seg := b
		if i >= 0 {
			seg = b[:i]
		}
		if bytes.IndexByte(seg, 0) >= 0 {
			return 0, nulError(g.name, g.line)
		}
		if g.lineLen += len(seg); g.lineLen > MaxLine {
			return 0, longLine(g.name, g.line, MaxLine)
		}
		if i < 0 {
			break
		}
		g.line, g.lineLen, b = g.line+1, 0, b[i+1:]
	}
	return n, err
}
