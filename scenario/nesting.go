package scenario

import "fmt"

// MaxNesting bounds how deeply brackets may nest in a YAML or JSON file.
// The YAML library's cost grows steeply with flow nesting (a 200 KB file of
// nested brackets takes it about a minute and 15 GB), and no scenario,
// sweep or job needs more than a few levels.
const MaxNesting = 64

// CheckNesting rejects data whose flow brackets ([ and {) nest deeper than
// MaxNesting, before any parser sees it. Brackets inside quoted strings and
// comments do not count. The error names the file, line and column of the
// first bracket too deep.
func CheckNesting(name string, data []byte) error {
	depth, line, col := 0, 1, 0
	var quote byte // the open quote, or 0
	comment := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		col++
		if c == '\n' {
			line, col, comment = line+1, 0, false // quoted scalars may span lines
			continue
		}
		switch {
		case comment:
		case quote != 0:
			if c == '\\' && quote == '"' || c == '\'' && quote == '\'' && i+1 < len(data) && data[i+1] == '\'' {
				i++ // an escaped character ("\x" or '') cannot close the string
				col++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			// A quote starts a string only where a scalar can start (a
			// quote inside a plain word, as in don't, is text).
			if i == 0 || isScalarStart(data[i-1]) {
				quote = c
			}
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			comment = true
		case c == '[' || c == '{':
			depth++
			if depth > MaxNesting {
				return &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf("brackets nest deeper than %d levels; no netsched file needs that many", MaxNesting)}
			}
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

func isScalarStart(prev byte) bool {
	switch prev {
	case ' ', '\t', '\n', '\r', '[', '{', ',', ':', '-':
		return true
	}
	return false
}
