package nas_test

import (
	"testing"

	"github.com/netsched/netsched/experiment"
)

// The NAS catalog entries load: schedulers and parameters are checked when
// a sweep file is read.
func TestCatalogEntriesLoad(t *testing.T) {
	for _, f := range []string{"schedulers", "traffic-threshold", "users", "fullday"} {
		if _, err := experiment.LoadFS(experiment.CatalogFS, "nas/"+f+".yaml"); err != nil {
			t.Errorf("nas/%s: %v", f, err)
		}
	}
}
