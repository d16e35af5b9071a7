package experiment

import (
	"fmt"
	"strconv"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/netsched/netsched/scenario"
)

// doc is one parsed YAML file and its name, for errors that cite a
// file:line:col exactly like the scenario loader's (*scenario.Error).
type doc struct {
	name string
	body ast.Node // nil for an empty file
}

func parseYAML(name string, data []byte) (*doc, error) {
	if err := scenario.CheckNesting(name, data); err != nil {
		return nil, err
	}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		line, col := 1, 1
		if ye, ok := err.(yaml.Error); ok && ye.GetToken() != nil {
			line, col = ye.GetToken().Position.Line, ye.GetToken().Position.Column
			return nil, &scenario.Error{File: name, Line: line, Column: col, Msg: ye.GetMessage()}
		}
		return nil, &scenario.Error{File: name, Line: line, Column: col, Msg: err.Error()}
	}
	d := &doc{name: name}
	for _, x := range file.Docs {
		if x.Body == nil {
			continue
		}
		if d.body != nil {
			return nil, d.errAt(x.Body, "", "a second YAML document; expected one document per file")
		}
		d.body = x.Body
	}
	return d, nil
}

// errAt builds an error at n's position; path names the key for the reader.
func (d *doc) errAt(n ast.Node, path, format string, args ...any) *scenario.Error {
	line, col := 1, 1
	if n != nil {
		line, col = nodePos(n)
	}
	return &scenario.Error{File: d.name, Line: line, Column: col, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func nodePos(n ast.Node) (int, int) {
	switch v := n.(type) {
	case *ast.MappingNode:
		if len(v.Values) > 0 && !v.IsFlowStyle {
			return nodePos(v.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return nodePos(v.Key)
	case *ast.TagNode:
		return nodePos(v.Value)
	case *ast.AnchorNode:
		return nodePos(v.Value)
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 1, 1
	}
	return tk.Position.Line, tk.Position.Column
}

func unwrapNode(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return n
		}
	}
}

// entry is one key of a mapping with the nodes for positions.
type entry struct {
	key   string
	keyN  ast.Node
	value ast.Node
}

// mapping returns a mapping node's entries in file order; duplicate keys
// are errors.
func (d *doc) mapping(n ast.Node, path string) ([]entry, error) {
	m, ok := unwrapNode(n).(*ast.MappingNode)
	if !ok {
		return nil, d.errAt(n, path, "expected a mapping of keys to values, got %s", describe(n))
	}
	seen := map[string]bool{}
	var out []entry
	for _, mv := range m.Values {
		k := mv.Key.String()
		if s, ok := mv.Key.(*ast.StringNode); ok {
			k = s.Value
		}
		if seen[k] {
			return nil, d.errAt(mv.Key, joinPath(path, k), "key %q appears twice", k)
		}
		seen[k] = true
		out = append(out, entry{key: k, keyN: mv.Key, value: mv.Value})
	}
	return out, nil
}

// sequence returns a sequence node's items.
func (d *doc) sequence(n ast.Node, path, want string) ([]ast.Node, error) {
	s, ok := unwrapNode(n).(*ast.SequenceNode)
	if !ok {
		return nil, d.errAt(n, path, "expected %s, got %s", want, describe(n))
	}
	return s.Values, nil
}

// scalar returns a scalar's text (strings, numbers, booleans).
func (d *doc) scalar(n ast.Node, path, want string) (string, error) {
	switch v := unwrapNode(n).(type) {
	case *ast.StringNode:
		return v.Value, nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value, nil
	}
	return "", d.errAt(n, path, "expected %s, got %s", want, describe(n))
}

// uint reads a non-negative integer.
func (d *doc) uint(n ast.Node, path string) (uint64, error) {
	if _, ok := unwrapNode(n).(*ast.IntegerNode); ok {
		if v, err := strconv.ParseUint(n.GetToken().Value, 0, 64); err == nil {
			return v, nil
		}
	}
	return 0, d.errAt(n, path, "expected an integer >= 0, got %s", describe(n))
}

// value decodes a node into a generic Go value (maps, lists, scalars).
func (d *doc) value(n ast.Node, path string) (any, error) {
	var v any
	if err := yaml.NodeToValue(n, &v); err != nil {
		return nil, d.errAt(n, path, "%v", err)
	}
	return v, nil
}

func describe(n ast.Node) string {
	switch v := unwrapNode(n).(type) {
	case *ast.NullNode:
		return "nothing (null)"
	case *ast.StringNode:
		return strconv.Quote(v.Value)
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value
	case *ast.MappingNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	}
	return "a " + n.Type().YAMLName()
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
