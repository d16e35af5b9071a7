package scenario

import (
	"errors"
	"fmt"
	"github.com/netsched/netsched/internal/didyoumean"
	"reflect"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

var nodeUnmarshaler = reflect.TypeFor[yaml.NodeUnmarshaler]()

// checkShape reports the first unknown mapping key in document order,
// naming the keys that are allowed there, and numbers of the wrong kind.
// The YAML library also rejects unknown keys, but picks one at random when
// there are several and cannot list the alternatives; and it silently
// truncates 1.5 into an integer field.
func checkShape(n ast.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(nodeUnmarshaler) {
		return nil // checks its own keys
	}
	switch v := n.(type) {
	case *ast.TagNode:
		return checkShape(v.Value, t, path)
	case *ast.AnchorNode:
		return checkShape(v.Value, t, path)
	case *ast.MappingNode:
		if t.Kind() != reflect.Struct {
			return nil
		}
		fields := yamlFields(t)
		for _, mv := range v.Values {
			if mv.Key.IsMergeKey() {
				continue
			}
			k := keyString(mv.Key)
			f, ok := fields[k]
			if !ok {
				return errAt(mv.Key, "unknown key %q%s (expected one of: %s)", k, didyoumean.Suggest(k, fieldNames(t)), strings.Join(fieldNames(t), ", "))
			}
			if err := checkShape(mv.Value, f.Type, joinKey(path, k)); err != nil {
				return err
			}
		}
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		if isInt(t.Kind()) {
			return errAt(n, "expected %s, got %s", describeType(t), n.GetToken().Value)
		}
		if _, err := parseNumber(n.GetToken().Value); err != nil && t.Kind() == reflect.Float64 {
			return errAt(n, "expected a finite number, got %s", n.GetToken().Value)
		}
	case *ast.StringNode:
		switch err := plainNumber(v); {
		case t.Kind() == reflect.Float64 && err == nil:
			// 1e-9: a number in YAML 1.2, a string to the YAML library
		case t.Kind() == reflect.Float64 && err != errNotPlain:
			return errAt(n, "%v", err)
		case isInt(t.Kind()) || t.Kind() == reflect.Float64:
			return errAt(n, "expected %s, got %s", describeType(t), describeNode(n))
		case t.Kind() == reflect.String:
			if err := nonEmpty(v.Value); err != nil {
				return errAt(n, "%v", err)
			}
		}
	case *ast.BoolNode:
		if isInt(t.Kind()) || t.Kind() == reflect.Float64 {
			return errAt(n, "expected %s, got %s", describeType(t), describeNode(n))
		}
	case *ast.NullNode:
		if isInt(t.Kind()) || t.Kind() == reflect.Float64 || t.Kind() == reflect.String || t.Kind() == reflect.Bool {
			return errAt(n, "expected %s, got nothing (leave the key out for its default)", describeType(t))
		}
	case *ast.MappingValueNode:
		return checkShape(&ast.MappingNode{BaseNode: &ast.BaseNode{}, Values: []*ast.MappingValueNode{v}}, t, path)
	case *ast.SequenceNode:
		if t.Kind() != reflect.Slice {
			return nil
		}
		for i, e := range v.Values {
			if err := checkShape(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

var errNotPlain = errors.New("not a plain number")

// nonEmpty is the rule for every string field, on every path that decodes
// one: an empty string is no value (an absent key takes the default).
func nonEmpty(s string) error {
	if s == "" {
		return errors.New("expected a non-empty string (leave the key out for its default)")
	}
	return nil
}

// plainNumber reads an unquoted scalar that looks like a number with
// parseNumber: what YAML 1.2 calls a float ("1e-9"), which the YAML
// library keeps a string. errNotPlain: quoted, or not number-like.
func plainNumber(v *ast.StringNode) error {
	tk := v.GetToken()
	if tk == nil || tk.Type != token.StringType || v.Value == "" || !strings.ContainsRune("0123456789.+-", rune(v.Value[0])) {
		return errNotPlain
	}
	_, err := parseNumber(v.Value)
	return err
}

func isInt(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// fieldCache holds yamlFields per type: checkShape asks for every mapping
// of a document, tens of thousands of times for a long job list.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.StructField

// yamlFields maps a struct's YAML keys to its fields. The map is shared:
// do not modify it.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.StructField)
	}
	m := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := yamlName(f); name != "" {
			m[name] = f
		}
	}
	fieldCache.Store(t, m)
	return m
}

// fieldNames lists a struct's YAML keys in declaration order.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return strings.ToLower(f.Name)
	}
	return name
}

// describeType says in words what a Go type accepts in YAML.
func describeType(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	}
	return t.String()
}

// describeToken quotes the offending value, or names its kind for a
// collection.
func describeToken(tk *token.Token) string {
	if tk == nil {
		return "nothing"
	}
	switch tk.Type {
	case token.MappingStartType, token.MappingValueType, token.MappingKeyType:
		return "a mapping"
	case token.SequenceStartType, token.SequenceEntryType:
		return "a list"
	case token.NullType:
		return "null"
	}
	return fmt.Sprintf("%q", tk.Value)
}
