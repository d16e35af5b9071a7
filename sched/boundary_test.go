package sched_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Schedulers decide from the read-only API only: no scheduler package (nor
// the API itself) may import the engine or its mutable state outside tests,
// and the engine holds no file written for one scheduler.
func TestSchedulersImportOnlyTheAPI(t *testing.T) {
	forbidden := []string{"github.com/netsched/netsched/sim", "github.com/netsched/netsched/internal/state"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if strings.Contains(filepath.ToSlash(path), "internal/schedtest/") {
			return nil // test helpers run the engine
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if p == bad && !(filepath.Dir(path) == "." && bad == forbidden[1]) {
					t.Errorf("%s imports %s; schedulers use package sched only", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := filepath.Glob("../sim/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range engine {
		name := strings.ToLower(filepath.Base(f))
		for _, s := range []string{"pushbox", "nas", "fair", "fifo", "delay", "shufflewatcher", "jobpacker", "dawn", "css", "corral", "varys", "aalo"} {
			if strings.Contains(name, s) {
				t.Errorf("engine file %s is named after a scheduler", f)
			}
		}
	}
}
