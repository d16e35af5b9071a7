package gen

import (
	"os"
	"testing"

	"github.com/netsched/netsched/trace/inspect"
)

func TestScratch(t *testing.T) {
	for seed := 1; seed <= 3; seed++ {
		s, err := ParseFB2010(map[string]any{"seed": seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := inspect.Collect(s.Source())
		if err != nil {
			t.Fatal(err)
		}
		st.WriteTable(os.Stdout)
	}
}
