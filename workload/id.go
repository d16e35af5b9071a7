package workload

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// CheckID rejects a job or stage id (what names it) that is empty, not
// UTF-8, or holds a control character (NUL, a tab, a newline) or a byte
// order mark: such an id cannot be told apart in a message or a CSV file,
// and a BOM or NUL inside one is a sign of a misread file.
func CheckID(what, id string) error {
	if id == "" {
		return fmt.Errorf("a %s needs a non-empty id", what)
	}
	if !utf8.ValidString(id) {
		return fmt.Errorf("%s id %q is not valid UTF-8", what, id)
	}
	for _, r := range id {
		if unicode.IsControl(r) || r == '\uFEFF' {
			return fmt.Errorf("%s id %q holds the character %U; ids are printable text", what, id, r)
		}
	}
	return nil
}
