package scenario

import (
	"strings"
	"testing"
)

func TestCheckNesting(t *testing.T) {
	deep := "cluster: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	_, err := Parse("deep.yaml", []byte(deep), ".")
	if err == nil || err.Error() != "deep.yaml:1:74: brackets nest deeper than 64 levels; no netsched file needs that many" {
		t.Fatalf("error %v", err)
	}
	for _, ok := range []string{
		"a: [[[1]]]\n",
		"a: \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n", // quoted
		"a: 1 # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n", // comment
		"a: don't [x]\n",
		"a: 'it''s " + strings.Repeat("[", 70) + "'\n", // '' inside single quotes
	} {
		if err := CheckNesting("ok.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	at64 := "a: " + strings.Repeat("[", 64) + strings.Repeat("]", 64)
	if err := CheckNesting("x", []byte(at64)); err != nil {
		t.Errorf("64 levels rejected: %v", err)
	}
	if err := CheckNesting("x", []byte("\n\n  "+strings.Repeat("[", 64)+"{")); err == nil || !strings.Contains(err.Error(), "x:3:") {
		t.Errorf("65 levels: %v", err)
	}
}
