package register_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
)

// A generator's or importer's bad option is reported at its line in the
// scenario file, though options are read only when the workload opens.
func TestOptionErrorsCiteTheLine(t *testing.T) {
	doc := "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\n" +
		"workload:\n  generate: synthetic\n  options:\n    count: 3\n    cuont: 4\n"
	sc, err := scenario.Parse("opts.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.OpenWorkload()
	want := `opts.yaml:6:12: workload.options.cuont: synthetic options: unknown option "cuont"; did you mean "count"?`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want it to start with %q", err, want)
	}
}
