// Package mdblock rewrites a generated block of a Markdown page: the text
// between a begin and an end marker line, which a command owns and a test
// checks, while the rest of the page is written by hand.
package mdblock

import (
	"fmt"
	"strings"
)

// Replace puts content between begin and end in text (named in messages),
// with a blank line on each side; a page without both markers, in order,
// is an error that shows the lines to add.
func Replace(name, text, begin, end, content string) (string, error) {
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s has no generated block; add the two lines\n%s\n%s\nwhere it belongs", name, begin, end)
	}
	return text[:i] + begin + "\n\n" + content + "\n" + text[j:], nil
}
