package dawn_test

import (
	"testing"

	"github.com/netsched/netsched/experiment"
)

// The Dawn catalog entries load: schedulers, parameters and grid keys are
// checked when a sweep file is read.
func TestCatalogEntriesLoad(t *testing.T) {
	for _, f := range []string{"motivation", "fig9", "ml-physical", "ml-virtual", "query-physical", "query-virtual", "fig15", "fig16", "fig17", "compute-rate"} {
		if _, err := experiment.LoadFS(experiment.CatalogFS, "dawn/"+f+".yaml"); err != nil {
			t.Errorf("dawn/%s: %v", f, err)
		}
	}
}
