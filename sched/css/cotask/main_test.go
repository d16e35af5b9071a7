package cotask

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the property tests with 1000 cases each unless
// -rapid.checks is given: the cases are small and cheap (about a second in
// all), and the numerical corner cases they look for are rare.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if !given {
		flag.Set("rapid.checks", "1000")
	}
	os.Exit(m.Run())
}
