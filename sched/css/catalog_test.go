package css_test

import (
	"testing"

	"github.com/netsched/netsched/experiment"
)

// The CSS catalog entries load: schedulers, parameters, grid keys and the
// generators' options are checked when a sweep file is read.
func TestCatalogEntriesLoad(t *testing.T) {
	for _, f := range []string{"testbed", "production", "estimation"} {
		if _, err := experiment.LoadCatalog("css/" + f); err != nil {
			t.Errorf("css/%s: %v", f, err)
		}
	}
}
