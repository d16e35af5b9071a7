package jobmodel

import (
	"bytes"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// FuzzCoflowJobs checks that every trace the coflow-benchmark parser
// accepts converts into valid jobs, pinned or not, without panicking. The
// kept corpus is in testdata/fuzz/FuzzCoflowJobs.
func FuzzCoflowJobs(f *testing.F) {
	f.Add([]byte("6 3\nc1 0 2 0 3 1 4:10.0\nc2 500 1 5 2 1:64.0 2:0\n"), true)
	f.Add([]byte("150 1\n1 0 1 149 2 0:1e6 0:0\n"), false)
	f.Add([]byte("2 1\nx 0 1 0 1 1:1e9\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, pin bool) {
		tr, err := coflowbench.Parse("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		// Pinned runs keep the generated map count, the path that lists
		// every map.
		opts := map[string]any{"ports": "racks", "mappers": "trace"}
		if pin {
			opts["pin"], opts["mappers"] = "all", "generated"
		}
		sc := twoRacks()
		cfg, err := ParseCoflow(opts, sc)
		if err != nil {
			t.Fatal(err)
		}
		src := NewCoflowSource("fuzz", tr, cfg)
		last := 0.0
		for {
			j, ok, err := src.Next()
			if err != nil {
				return // a size that overflows is reported, not built
			}
			if !ok {
				return
			}
			if err := j.Validate(len(sc.Machines)); err != nil {
				t.Fatalf("coflow %s: invalid job: %v", j.ID, err)
			}
			if j.Arrival < last {
				t.Fatalf("arrivals go back at %s", j.ID)
			}
			last = j.Arrival
		}
	})
}
