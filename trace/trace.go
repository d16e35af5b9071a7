// Package trace holds what every trace importer shares; the importers live
// in its subpackages (swim, coflowbench, jobs) and register with package
// scenario through trace/register.
package trace

import "github.com/netsched/netsched/internal/textread"

// ParseError is a problem at one place of a trace file. Line is 1-based;
// Field names the offending field or column, or is empty for a whole-line
// or whole-file problem. It is the error of the shared text reader, so a
// reader's errors, limits included, are all of one type.
type ParseError = textread.Error
