package scenario

import (
	"bytes"
	"fmt"
)

// MaxTreeBytes bounds the YAML text the library parses into one tree: a
// whole document, the rest of a document whose job list was cut (split.go),
// or one job of that list. The library's tokens and nodes take up to about
// 450 bytes of memory per byte of dense text (`[1,1,1,...]`), and a job of
// explicit tasks about 160 (100,000 written-out tasks: 6 MB of text, about
// 1 GB); one tree of 4 MiB of dense text peaked at 1.7 GB. Spaces and
// line ends make no nodes and are not counted (a cut list leaves its
// lines empty).
const MaxTreeBytes = 4 << 20

// treeBytes is the size of data as MaxTreeBytes counts it.
func treeBytes(data []byte) int {
	return len(data) - bytes.Count(data, []byte{' '}) - bytes.Count(data, []byte{'\n'})
}

// checkTreeSize rejects YAML text above MaxTreeBytes before the library
// parses it; what names the text (a document, a job) and line is where it
// starts.
func checkTreeSize(name string, line int, what string, data []byte) error {
	n := treeBytes(data)
	if n <= MaxTreeBytes {
		return nil
	}
	return &Error{File: name, Line: line, Column: 1, Msg: fmt.Sprintf(
		"%s holds %d bytes of YAML besides spaces and line ends, above the limit of %d MiB read as one tree (docs/scenario.md#limits): give a stage's tasks with count and distributions, or write the jobs as a native JSONL trace, read one line at a time",
		what, n, MaxTreeBytes>>20)}
}
