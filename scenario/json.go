package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"github.com/netsched/netsched/workload"
)

// JSONL records are first decoded with encoding/json, which is some 20x
// faster than the YAML decoder; any record it rejects is decoded again by
// the YAML decoder, which accepts the same values (JSON is YAML) and
// reports errors with their line and column. The custom types below reuse
// their YAML hooks so both paths give identical values.

// The common forms of the custom types (a constant, a list of stage ids)
// are decoded here without the YAML library; the others, and anything in
// error, go through it.

func (d *BytesDist) UnmarshalJSON(b []byte) error {
	return unmarshalDistJSON(b, (*workload.Dist)(d), sizeQ, d)
}

func (d *DurationDist) UnmarshalJSON(b []byte) error {
	return unmarshalDistJSON(b, (*workload.Dist)(d), durationQ, d)
}

func (d *NumberDist) UnmarshalJSON(b []byte) error {
	return unmarshalDistJSON(b, (*workload.Dist)(d), numberQ, d)
}

// unmarshalDistJSON decodes a constant as unmarshalDist does.
func unmarshalDistJSON(b []byte, d *workload.Dist, q quantity, u yaml.NodeUnmarshaler) error {
	if text, ok := jsonScalar(b); ok {
		if v, err := q.parse(text); err == nil && v >= 0 && v <= q.max {
			*d = workload.Dist{Kind: workload.Const, A: v}
			return nil
		}
	}
	return unmarshalFragment(b, u)
}

// UnmarshalJSON decodes a stage id or a list of them as UnmarshalYAML does.
func (l *DepList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*l = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var raw []json.RawMessage
		if json.Unmarshal(b, &raw) != nil {
			break
		}
		deps := make(DepList, 0, len(raw))
		for _, r := range raw {
			id, ok := jsonScalar(r)
			if !ok || id == "" {
				return unmarshalFragment(b, l)
			}
			deps = append(deps, DepSpec{Stage: id})
		}
		if len(deps) == 0 {
			deps = nil
		}
		*l = deps
		return nil
	default:
		if id, ok := jsonScalar(b); ok && id != "" {
			*l = DepList{{Stage: id}}
			return nil
		}
	}
	return unmarshalFragment(b, l)
}

// jsonScalar is the text of a JSON string or number as the YAML library
// reads it (a number's own text), or ok=false for any other value.
func jsonScalar(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "", false
	}
	switch c := b[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(b, &s) != nil {
			return "", false
		}
		return s, true
	case c == '-' || c >= '0' && c <= '9':
		return string(b), true
	}
	return "", false
}

// unmarshalFragment parses a small JSON value as YAML and hands its node
// to the YAML hook.
func unmarshalFragment(b []byte, u yaml.NodeUnmarshaler) error {
	if err := CheckNesting("", b); err != nil {
		return errors.New(err.(*Error).Msg)
	}
	f, err := parser.ParseBytes(b, 0)
	if err != nil {
		return err
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return errors.New("expected one value")
	}
	return u.UnmarshalYAML(f.Docs[0].Body)
}

// fastDecodeJob decodes one JSON object strictly into js.
func fastDecodeJob(text []byte, js *JobSpec) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(js); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the object")
	}
	return plainKeys(text)
}

// plainKeys rejects what encoding/json accepts but the YAML decoder, and
// netsched's rules, do not: object keys other than lower-case ASCII words
// (encoding/json matches "ID" for "id"), a key given twice in one object
// (encoding/json keeps the last), a number that parseNumber refuses
// (1e-400, which encoding/json reads as 0) and an empty string value
// (nonEmpty, as checkShape applies it). The record is then decoded
// again by the YAML decoder, which reports it at its line and column.
// text must be valid JSON, where a key is exactly a string followed by a
// colon.
func plainKeys(text []byte) error {
	var objects []map[string]bool // the keys of each open object
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '{':
			objects = append(objects, nil)
		case c == '}' && len(objects) > 0:
			objects = objects[:len(objects)-1]
		case c == '-' || c >= '0' && c <= '9':
			j := i
			for j < len(text) && strings.IndexByte("0123456789.eE+-", text[j]) >= 0 {
				j++
			}
			if _, err := parseNumber(string(text[i:j])); err != nil {
				return err
			}
			i = j - 1
		case c == '"':
			key, end, plain := jsonString(text, i)
			i = end
			if !isKey(text, end+1) {
				if err := nonEmpty(string(key)); err != nil {
					return err // (a job's every string is a field: none may be empty)
				}
				continue
			}
			if !plain || len(key) == 0 {
				return fmt.Errorf("unexpected key %q", key)
			}
			if len(objects) > 0 {
				top := &objects[len(objects)-1]
				if (*top)[string(key)] {
					return fmt.Errorf("key %q is given twice", key)
				}
				if *top == nil {
					*top = map[string]bool{}
				}
				(*top)[string(key)] = true
			}
		}
	}
	return nil
}

// jsonString returns the raw text of the string opening at text[start],
// the index of its closing quote, and whether it is a plain lower-case
// ASCII word.
func jsonString(text []byte, start int) (raw []byte, end int, plain bool) {
	plain = true
	i := start + 1
	for ; i < len(text) && text[i] != '"'; i++ {
		c := text[i]
		if c == '\\' {
			i++ // skip the escaped byte
		}
		plain = plain && (c >= 'a' && c <= 'z' || c == '_')
	}
	return text[start+1 : min(i, len(text))], i, plain
}

// isKey reports whether a colon follows from offset j, past white space.
func isKey(text []byte, j int) bool {
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n') {
		j++
	}
	return j < len(text) && text[j] == ':'
}
