package scenario

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// A list of explicit jobs is decoded one item at a time: the
// YAML library's tokens and tree of a whole 20,000-job document took over
// 200 bytes per byte of text at once, while one item's tree is small and
// dropped as soon as the item is decoded (and most generated items skip
// the library altogether: flowjob.go). The list is cut out of the text by indentation: the
// rest of the document, with the list's lines blanked and `jobs: []`, is
// decoded as before, and each item is decoded alone with its lines and
// columns kept (the item's `-` becomes a space), so that every message
// names the same file, line, column and path as a decoding of the whole
// document. Anything the cutting does not understand (anchors, tags,
// directives, a list in flow style, an item that does not parse alone)
// falls back to decoding the whole document.

// splitList is a block list cut out of a document.
type splitList struct {
	key      string  // path of the list, e.g. "workload.jobs"
	rest     []byte  // the document without the list's items
	items    []split // the items in document order
	dashLine int     // line and column of the first item's dash
	dashCol  int
}

// split is one item's text: lines [line0+1, ...] of the document, with
// the dash at offset dash.
type split struct {
	text  []byte
	line0 int
	dash  int
}

// lineInfo describes one line of the document.
type lineInfo struct {
	start, end int // text without the newline
	indent     int
	blank      bool // empty, spaces only, or a comment only
}

func scanLines(data []byte) []lineInfo {
	lines := make([]lineInfo, 0, bytes.Count(data, []byte{'\n'})+1)
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		li := lineInfo{start: start, end: end}
		for li.indent < end-start && data[start+li.indent] == ' ' {
			li.indent++
		}
		li.blank = start+li.indent == end || data[start+li.indent] == '#'
		lines = append(lines, li)
		start = end + 1
	}
	return lines
}

// cutList finds the block list at keys (each a block mapping key with
// nothing after its colon) and cuts it into items. ok is false when the
// document is not in the simple form the cutting handles.
func cutList(data []byte, keys ...string) (sl *splitList, ok bool) {
	// Characters that give YAML meaning across items (anchors, aliases,
	// tags, directives, tabs, CR line ends): leave such files to the
	// library.
	if bytes.ContainsAny(data, "&*!%\t\r") {
		return nil, false
	}
	lines := scanLines(data)
	for _, l := range lines {
		t := data[l.start:l.end]
		if l.indent == 0 && (bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("..."))) {
			return nil, false
		}
	}
	from, to, indent := 0, len(lines), 0
	keyLine := -1
	for depth, key := range keys {
		keyLine = -1
		for i := from; i < to; i++ {
			l := lines[i]
			if l.blank {
				continue
			}
			if depth > 0 && i == from {
				if l.indent <= indent {
					return nil, false
				}
				indent = l.indent
			}
			if l.indent < indent {
				return nil, false
			}
			if l.indent == indent && string(bytes.TrimRight(data[l.start+l.indent:l.end], " ")) == key+":" {
				keyLine = i
				break
			}
		}
		if keyLine < 0 {
			return nil, false
		}
		// The key's block: up to the next line indented no deeper.
		from, to = keyLine+1, keyLine+1
		for to < len(lines) && (lines[to].blank || lines[to].indent > indent) {
			to++
		}
		for from < to && lines[from].blank {
			from++
		}
		if depth == len(keys)-1 {
			break
		}
	}
	// The list: items at the indentation of the first line after the key,
	// which may equal the key's own (a compact list).
	keyIndent := lines[keyLine].indent
	start := keyLine + 1
	for start < len(lines) && lines[start].blank {
		start++
	}
	if start == len(lines) || lines[start].indent < keyIndent || !isDash(data, lines[start]) {
		return nil, false
	}
	seq := lines[start].indent
	sl = &splitList{key: strings.Join(keys, "."), dashLine: start + 1, dashCol: seq + 1}
	// An item's content starts after "- " on the dash's line, and its
	// other lines are indented at least as far: the item then reads the
	// same alone as in the list.
	content := func(l lineInfo) int {
		k := l.start + l.indent + 1
		for k < l.end && data[k] == ' ' {
			k++
		}
		if k == l.end {
			return -1
		}
		return k - l.start
	}
	inner := content(lines[start])
	if inner < 0 {
		return nil, false
	}
	end := len(lines) // the first line after the list
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		if l.blank {
			continue
		}
		if l.indent > seq {
			if l.indent < inner {
				return nil, false
			}
			continue
		}
		if l.indent < seq || !isDash(data, l) {
			end = i
			break
		}
		if inner = content(l); inner < 0 {
			return nil, false
		}
		sl.items = append(sl.items, split{text: data[lines[start].start:lines[i].start], line0: start, dash: seq})
		start = i
	}
	// Blank and comment lines after the last item stay in the document.
	for end > start+1 && lines[end-1].blank {
		end--
	}
	last := len(data)
	if end < len(lines) {
		last = lines[end].start
	}
	sl.items = append(sl.items, split{text: data[lines[start].start:last], line0: start, dash: seq})

	// The rest: the key gets an empty flow list; the items' lines stay as
	// empty lines so that every other line keeps its number.
	first := sl.items[0].line0
	rest := make([]byte, 0, len(data)-(last-lines[first].start)+(end-first)+3)
	k := lines[keyLine]
	rest = append(rest, data[:k.end]...)
	rest = append(rest, " []"...)
	rest = append(rest, data[k.end:lines[first].start]...)
	rest = append(rest, bytes.Repeat([]byte{'\n'}, end-first)...)
	rest = append(rest, data[last:]...)
	sl.rest = rest
	return sl, true
}

func isDash(data []byte, l lineInfo) bool {
	t := data[l.start+l.indent : l.end]
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

// itemSource is the source of one cut item, parsed only when a message
// needs a position.
func (sl *splitList) itemSource(name string, i int) *source {
	it := sl.items[i]
	return &source{name: name, line0: it.line0, lazy: it.text, dash: it.dash, prefix: sl.key + "[" + strconv.Itoa(i) + "]"}
}

// itemText is an item's text with its dash blanked, a document of its own.
func itemText(text []byte, dash int) []byte {
	t := append([]byte(nil), text...)
	t[dash] = ' '
	return t
}

// useFlowJobs enables decodeFlowJob (tests compare with the library).
var useFlowJobs = true

// decodeSplit decodes a document whose list of jobs was cut by cutList: v
// (a pointer to the document's type) gets everything but the list, and
// add is given each item decoded, in order, until an error is found (the
// caller keeps what it was given only if err is nil and ok). ok is false
// when the cut does not decode alone; then the caller decodes the whole
// document, which reports exactly what the library would.
func decodeSplit(name string, sl *splitList, v any, add func(*JobSpec)) (src *source, ok bool, err error) {
	src, perr := parseDocument(name, sl.rest)
	if perr != nil || src.body == nil {
		return nil, false, nil
	}
	src.list = sl
	defer func() {
		if r := recover(); r != nil { // the library failed on a cut: try the whole
			src, ok, err = nil, false, nil
		}
	}()
	elem := reflect.TypeFor[JobSpec]()
	// The library checks the shape of the whole document (unknown keys,
	// numbers of the wrong kind) before decoding any value: so does this,
	// in document order. Every item is parsed even after an error, since a
	// syntax error anywhere comes first.
	shapeErr := shapeOf(src, src.body, v)
	var itemErr *Error
	for i, it := range sl.items {
		if useFlowJobs {
			var js JobSpec
			if decodeFlowJob(it.text[it.dash+1:], &js) {
				if shapeErr == nil && itemErr == nil {
					add(&js)
				}
				continue
			}
		}
		if err := checkTreeSize(name, it.line0+1, "this job", it.text); err != nil {
			return nil, true, err
		}
		file, perr := parser.ParseBytes(itemText(it.text, it.dash), 0)
		if perr != nil || len(file.Docs) != 1 || file.Docs[0].Body == nil {
			return nil, false, nil
		}
		body := file.Docs[0].Body
		if _, isMap := unwrap(body).(*ast.MappingNode); !isMap {
			return nil, false, nil
		}
		if shapeErr != nil && shapeErr.Line <= it.line0 {
			continue
		}
		isrc := sl.itemSource(name, i)
		isrc.body, isrc.lazy = body, nil
		if err := checkShapeAt(isrc, body, elem); err != nil {
			shapeErr = err.(*Error)
			continue
		}
		if shapeErr == nil && itemErr == nil {
			js := new(JobSpec)
			if err := decodeValue(isrc, body, js); err != nil {
				itemErr = err.(*Error)
			} else {
				add(js)
			}
		}
	}
	if shapeErr != nil {
		return nil, true, shapeErr
	}
	if err := decodeValue(src, src.body, v); err != nil {
		if itemErr == nil || decodedBefore(err.(*Error).Path, sl.key) {
			return nil, true, err
		}
	}
	if itemErr != nil {
		return nil, true, itemErr
	}
	return src, true, nil
}

// shapeOf is decodeNode's check of the document n before decoding it
// into v: its error, or nil.
func shapeOf(src *source, n ast.Node, v any) *Error {
	if err := checkShapeAt(src, n, reflect.TypeOf(v).Elem()); err != nil {
		return err.(*Error)
	}
	return nil
}

// decodedBefore reports whether the library decodes the field at path
// before the list at key: fields come in the order of the File struct.
func decodedBefore(path, key string) bool {
	top, _, _ := strings.Cut(path, ".")
	top, _, _ = strings.Cut(top, "[")
	keyTop, _, _ := strings.Cut(key, ".")
	t := reflect.TypeFor[File]()
	for _, name := range fieldNames(t) {
		switch name {
		case top:
			return top != keyTop
		case keyTop:
			return false
		}
	}
	return false
}
