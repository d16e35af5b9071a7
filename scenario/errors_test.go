package scenario

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/bad/*.golden from the current messages")

// TestBadScenarios loads every testdata/bad/*.yaml and compares the error
// with the .golden file next to it: the messages are part of the interface.
func TestBadScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad scenarios: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		t.Run(name, func(t *testing.T) {
			_, err := Load(path)
			if err == nil {
				t.Fatal("loaded without error")
			}
			got := err.Error()
			pos := regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `:[1-9][0-9]*:[1-9][0-9]*: \S`)
			if !pos.MatchString(got) || strings.Contains(got, "\n") {
				t.Errorf("message is not one line starting with FILE:LINE:COL: %q", got)
			}
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestBadScenarios -update)", err)
			}
			if got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("error\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

// An error quotes at most an excerpt of the input, however long the
// value it is about.
func TestErrorsQuoteAnExcerpt(t *testing.T) {
	_, err := Parse("s.yaml", []byte(strings.Repeat("x", 1<<20)), "")
	want := `s.yaml:1:1: expected a mapping of keys to values, got "` + strings.Repeat("x", 80) + `... (1048576 bytes in all)"`
	if err == nil || err.Error() != want {
		t.Errorf("got %.300v\nwant %s", err, want)
	}
	long := &Error{File: "f", Line: 1, Column: 1, Msg: strings.Repeat("m", 1<<20)}
	if n := len(long.Error()); n > 1100 {
		t.Errorf("a message of 1 MB prints %d bytes", n)
	}
}
