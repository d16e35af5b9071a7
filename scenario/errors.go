package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/internal/units"
)

// Error is a problem at a place in a scenario or native trace file. Its text
// is "FILE:LINE:COL: PATH: MESSAGE" (PATH omitted at the top level), the
// form editors and CI annotators jump to.
type Error struct {
	File         string
	Line, Column int
	Path         string // YAML path such as "workload.jobs[0].stages[1].after"
	Msg          string
	Err          error // the error Msg tells, when another layer raised it
}

// Unwrap is the error from another layer (an importer's option error), if any.
func (e *Error) Unwrap() error { return e.Err }

// Error's text is capped at textread.MaxMessage: a message quoting the
// input (a library's, or a value of megabytes) stays readable.
func (e *Error) Error() string {
	msg := textread.CapMessage(e.Msg)
	if e.Path == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Column, textread.Excerpt(e.Path), msg)
}

// nodeError is raised by this package's YAML hooks; the loader turns it into
// an *Error once it knows the file name and the node's path.
type nodeError struct {
	node ast.Node
	msg  string
}

func (e *nodeError) Error() string {
	l, c := position(e.node)
	return fmt.Sprintf("[%d:%d] %s", l, c, e.msg)
}

func errAt(n ast.Node, format string, args ...any) error {
	return &nodeError{node: n, msg: fmt.Sprintf(format, args...)}
}

// libPos is how the YAML library cites a position inside a message.
var libPos = regexp.MustCompile(`at \[(\d+):(\d+)\]`)

// source is one parsed YAML document and the name used in messages.
type source struct {
	name  string
	body  ast.Node // nil for an empty document
	line0 int      // added to every line (records of a JSONL file)
	// lazy, when set, is the document's text, parsed into body only when
	// an error needs a position (JSONL records decoded by the fast path).
	lazy []byte
	dash int // when lazy is a cut list item: the offset of its dash

	// prefix is the path of this document in its file ("workload.jobs[3]"
	// for a list item decoded alone; splitList).
	prefix string
	// list, when set, was cut out of this document; paths into it are
	// answered by its items, parsed again when a message needs one (see
	// splitList).
	list *splitList
}

// root returns the document's top node, parsing it first if needed.
func (s *source) root() ast.Node {
	if s.lazy != nil {
		text := s.lazy
		if s.prefix != "" {
			text = itemText(text, s.dash)
		}
		if file, err := parser.ParseBytes(text, 0); err == nil && len(file.Docs) > 0 {
			s.body = file.Docs[0].Body
		}
		s.lazy = nil
	}
	return s.body
}

// at builds an error pointing at the node of path (relative to the document
// root, e.g. "cluster.racks"); when the node is absent (a missing key) it
// points at the nearest present ancestor.
func (s *source) at(path, format string, args ...any) *Error {
	l, c := s.filePosition(path)
	return &Error{File: s.name, Line: l, Column: c, Path: joinKey(s.prefix, path), Msg: fmt.Sprintf(format, args...)}
}

// filePosition is position with the line counted in the file, following
// paths into a cut list to its items.
func (s *source) filePosition(path string) (int, int) {
	if sl := s.list; sl != nil {
		if path == sl.key {
			return sl.dashLine, sl.dashCol // where the list starts
		}
		if rest, ok := strings.CutPrefix(path, sl.key+"["); ok {
			if k := strings.IndexByte(rest, ']'); k > 0 {
				if i, err := strconv.Atoi(rest[:k]); err == nil && i >= 0 && i < len(sl.items) {
					return sl.itemSource(s.name, i).filePosition(strings.TrimPrefix(rest[k+1:], "."))
				}
			}
		}
	}
	l, c := s.position(path)
	return l + s.line0, c
}

func (s *source) position(path string) (int, int) {
	for p := path; ; p = parentPath(p) {
		if n := s.lookup(p); n != nil {
			return position(n)
		}
		if p == "" {
			return 1, 1
		}
	}
}

// lookup returns the node at path, or nil.
func (s *source) lookup(path string) ast.Node {
	body := s.root()
	if body == nil {
		return nil
	}
	if path == "" {
		return body
	}
	p, err := yaml.PathString("$." + path)
	if err != nil {
		return nil
	}
	n, err := p.FilterNode(body)
	if err != nil {
		return nil
	}
	return n
}

// parentPath drops the last ".key" or "[i]" of a path.
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// position is where a node starts: for a block mapping the first key,
// otherwise its own token.
func position(n ast.Node) (int, int) {
	switch v := n.(type) {
	case *ast.MappingNode:
		if len(v.Values) > 0 && !v.IsFlowStyle {
			return position(v.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return position(v.Key)
	case *ast.TagNode:
		if v.Value != nil {
			return position(v.Value)
		}
	}
	return tokenPos(n.GetToken())
}

func tokenPos(tk *token.Token) (int, int) {
	if tk == nil || tk.Position == nil {
		return 1, 1
	}
	return tk.Position.Line, tk.Position.Column
}

// pathOf returns the path of the node that starts at (line, col) in the
// document, and the node; found is nil when no node starts there.
func (s *source) pathOf(line, col int) (path string, found ast.Node) {
	var walk func(n ast.Node, p string) bool
	walk = func(n ast.Node, p string) bool {
		if n == nil {
			return false
		}
		if l, c := tokenPos(n.GetToken()); l == line && c == col {
			path, found = p, n
			return true
		}
		switch v := n.(type) {
		case *ast.MappingNode:
			for _, mv := range v.Values {
				kp := joinKey(p, keyString(mv.Key))
				if l, c := tokenPos(mv.Key.GetToken()); l == line && c == col {
					path, found = kp, mv.Key
					return true
				}
				if walk(mv.Value, kp) {
					return true
				}
			}
		case *ast.MappingValueNode:
			return walk(&ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: []*ast.MappingValueNode{v}}, p)
		case *ast.SequenceNode:
			for i, e := range v.Values {
				if walk(e, fmt.Sprintf("%s[%d]", p, i)) {
					return true
				}
			}
		case *ast.TagNode:
			return walk(v.Value, p)
		case *ast.AnchorNode:
			return walk(v.Value, p)
		}
		return false
	}
	walk(s.root(), "")
	return path, found
}

func joinKey(p, k string) string {
	if k == "" {
		return p
	}
	if p == "" {
		return k
	}
	return p + "." + k
}

func keyString(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return k.String()
}

// convert turns any error from decoding into an *Error at the right place,
// rewriting the YAML library's messages to say what was expected.
func (s *source) convert(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ne *nodeError
	if errors.As(err, &ne) {
		l, c := position(ne.node)
		return s.errAtPos(l, c, ne.msg)
	}
	var pe *units.PosError
	if errors.As(err, &pe) {
		return s.errAtPos(pe.Line, pe.Column, pe.Msg)
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		l, c := tokenPos(te.Token)
		return s.errAtPos(l, c, fmt.Sprintf("expected %s, got %s", describeType(te.DstType), describeToken(te.Token)))
	}
	var oe *yaml.OverflowError
	if errors.As(err, &oe) {
		l, c := tokenPos(oe.Token)
		return s.errAtPos(l, c, fmt.Sprintf("expected %s, got %s which is out of range", describeType(oe.DstType), oe.SrcNum))
	}
	var ue *yaml.UnexpectedNodeTypeError
	if errors.As(err, &ue) {
		l, c := tokenPos(ue.Token)
		return s.errAtPos(l, c, fmt.Sprintf("expected a %s, got a %s", ue.Expected.YAMLName(), ue.Actual.YAMLName()))
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		l, c := tokenPos(ye.GetToken())
		return s.errAtPos(l, c, libPos.ReplaceAllString(ye.GetMessage(), "at line $1, column $2"))
	}
	return &Error{File: s.name, Line: 1 + s.line0, Column: 1, Msg: err.Error()}
}

// errAtPos builds an *Error at a document position, naming the node's path.
func (s *source) errAtPos(line, col int, msg string) *Error {
	path, _ := s.pathOf(line, col)
	return &Error{File: s.name, Line: line + s.line0, Column: col, Path: joinKey(s.prefix, path), Msg: msg}
}
