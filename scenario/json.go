package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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

// plainKeys rejects object keys other than lower-case ASCII words, which
// are the only keys a job has: encoding/json matches keys ignoring case
// ("ID" for "id"), which the YAML decoder rightly refuses. text must be
// valid JSON, where a key is exactly a string followed by a colon.
func plainKeys(text []byte) error {
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		start, plain := i+1, true
		for i++; i < len(text) && text[i] != '"'; i++ {
			c := text[i]
			if c == '\\' {
				i++ // skip the escaped byte
			}
			plain = plain && (c >= 'a' && c <= 'z' || c == '_')
		}
		key := text[start:min(i, len(text))]
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n') {
			j++
		}
		if j < len(text) && text[j] == ':' && (!plain || len(key) == 0) {
			return fmt.Errorf("unexpected key %q", key)
		}
	}
	return nil
}
