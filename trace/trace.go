// Package trace holds what every trace importer shares; the importers live
// in its subpackages (swim, coflowbench, jobs) and register with package
// scenario through trace/register.
package trace

import "fmt"

// ParseError is a problem at one place of a trace file. Line is 1-based;
// Field names the offending field or column, or is empty for a whole-line
// or whole-file problem.
type ParseError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
}
