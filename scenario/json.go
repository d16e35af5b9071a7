package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// JSONL records are first decoded with encoding/json, which is some 20x
// faster than the YAML decoder; any record it rejects is decoded again by
// the YAML decoder, which accepts the same values (JSON is YAML) and
// reports errors with their line and column. The custom types below reuse
// their YAML hooks so both paths give identical values.

func (d *BytesDist) UnmarshalJSON(b []byte) error    { return unmarshalFragment(b, d) }
func (d *DurationDist) UnmarshalJSON(b []byte) error { return unmarshalFragment(b, d) }
func (d *NumberDist) UnmarshalJSON(b []byte) error   { return unmarshalFragment(b, d) }
func (l *DepList) UnmarshalJSON(b []byte) error      { return unmarshalFragment(b, l) }

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
