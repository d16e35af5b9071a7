package jobpacker_test

import (
	"testing"

	"github.com/netsched/netsched/experiment"
)

// Every JobPacker catalog entry loads: schedulers, parameters and grid
// keys are checked when a sweep file is read.
func TestCatalogEntriesLoad(t *testing.T) {
	for _, f := range []string{"batch", "online", "mix", "shuffle-error", "arrival-error", "slowstart", "overprovision", "interval", "subbatches", "fullsize"} {
		if _, err := experiment.LoadFS(experiment.CatalogFS, "jobpacker/"+f+".yaml"); err != nil {
			t.Errorf("jobpacker/%s: %v", f, err)
		}
	}
}
