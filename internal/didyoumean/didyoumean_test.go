package didyoumean

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"racks", "machines_per_rack", "nic"}
	if got := Suggest("rack", known); got != `; did you mean "racks"?` {
		t.Errorf("got %q", got)
	}
	if got := Suggest("NIC", known); got != `; did you mean "nic"?` {
		t.Errorf("got %q", got)
	}
	if got := Suggest("topology", known); got != "" {
		t.Errorf("got %q, want no suggestion", got)
	}
}
