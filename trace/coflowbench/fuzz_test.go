package coflowbench

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"
)

// FuzzParse checks that any input either parses into a trace that satisfies
// every documented rule or fails with a *ParseError; it must never panic.
// The kept corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("150 2\n1 0 1 22 1 65:1.0\n2 10833 2 104 132 1 140:48.0\n"))
	f.Add([]byte("3 1\n1 0 2 0 3 1 1:1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse("fuzz", bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, not *ParseError", err, err)
			}
			if pe.File != "fuzz" || pe.Line < 1 {
				t.Fatalf("error without a place: %+v", *pe)
			}
			return
		}
		checkTrace(t, tr)
		again, err := Parse("fuzz", bytes.NewReader(data))
		if err != nil || !reflect.DeepEqual(tr, again) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}

// checkTrace asserts the invariants Parse promises.
func checkTrace(t *testing.T, tr *Trace) {
	t.Helper()
	if tr.Ports < 1 {
		t.Fatalf("ports %d", tr.Ports)
	}
	ids := map[string]bool{}
	last := 0.0
	for _, c := range tr.Coflows {
		if ids[c.ID] {
			t.Fatalf("duplicate id %q", c.ID)
		}
		ids[c.ID] = true
		if math.IsNaN(c.Arrival) || c.Arrival < last {
			t.Fatalf("arrival %v after %v", c.Arrival, last)
		}
		last = c.Arrival
		if len(c.Mappers) == 0 || len(c.Reducers) == 0 {
			t.Fatalf("coflow %q without mappers or reducers", c.ID)
		}
		for _, m := range c.Mappers {
			if m < 0 || m >= tr.Ports {
				t.Fatalf("mapper port %d", m)
			}
		}
		for _, r := range c.Reducers {
			if r.Port < 0 || r.Port >= tr.Ports || !(r.Bytes >= 0) || math.IsInf(r.Bytes, 0) {
				t.Fatalf("reducer %+v", r)
			}
		}
	}
}
