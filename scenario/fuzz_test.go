package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// FuzzParse: no input makes Parse panic, and every error is positioned.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	bad, _ := filepath.Glob("testdata/bad/*.yaml")
	for _, p := range append(append(files, bad...), "default.yaml") {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	pos := regexp.MustCompile(`^f\.yaml:[1-9][0-9]*:[1-9][0-9]*: `)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("f.yaml", data, t.TempDir())
		if err != nil && !pos.MatchString(err.Error()) {
			t.Errorf("error without position: %v", err)
		}
	})
}
