package swim

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/netsched/netsched/trace/jobmodel"
)

// FuzzReader checks that any input either parses into records that satisfy
// every documented rule, and into jobs that validate, or fails with a
// *ParseError naming the file and a line; it must never panic. The kept
// corpus is in testdata/fuzz/FuzzReader.
func FuzzReader(f *testing.F) {
	f.Add([]byte("job0\t9\t9\t1762\t0\t14347\njob1\t18\t9\t970\t609\t697\n"))
	f.Add([]byte("job0\t0\t0\t0\t0\t0\r\n\njob1\t0\t0\t1e12\t1e12\t1\n"))
	f.Add([]byte("a\t2\t2\t1\t1\t1\nb\t1\t0\t1\t1\t1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := jobmodel.Params{Block: 128 << 20, BytesPerReducer: 64 << 20, MaxReducers: 1000,
			MapRate: 1e8, ReduceRate: 1e8, MapOverhead: 1, ReduceOverhead: 1, SlowStart: 0.05}
		r := NewReader("fuzz", bytes.NewReader(data))
		last := 0.0
		ids := map[string]bool{}
		for {
			rec, ok, err := r.Next()
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.File != "fuzz" || pe.Line < 1 {
					t.Fatalf("error %v (%T) has no place", err, err)
				}
				return
			}
			if !ok {
				return
			}
			for _, v := range []float64{rec.Submit, rec.Gap, rec.Input, rec.Shuffle, rec.Output} {
				if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("record %+v has a bad number", rec)
				}
			}
			if rec.Submit < last || rec.ID == "" || ids[rec.ID] {
				t.Fatalf("record %+v breaks order or ids", rec)
			}
			last, ids[rec.ID] = rec.Submit, true
			j := p.MapReduce(rec.ID, rec.Submit, rec.Input, rec.Shuffle, rec.Output)
			if err := j.Validate(0); err != nil {
				t.Fatalf("record %+v gives an invalid job: %v", rec, err)
			}
		}
	})
}
