// Package experiments is the reproduction catalog: one sweep file per
// figure of a paper, experiments/<paper>/<figure>.yaml, embedded so that
// `netsched reproduce <paper>/<figure>` works from any directory. Catalog
// files give their scenario inline (`base:`) or as `scenario: @default`;
// trace paths in them are relative to the working directory.
package experiments

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed */*.yaml
var files embed.FS

// FS holds the catalog's sweep files as <paper>/<figure>.yaml.
var FS fs.FS = files

// List names every entry as <paper>/<figure>, sorted.
func List() []string {
	paths, _ := fs.Glob(files, "*/*.yaml") // the pattern is valid: no error
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.TrimSuffix(p, ".yaml")
	}
	return out
}
