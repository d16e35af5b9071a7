// Package textin holds the rules every reader of netsched's text inputs
// (scenarios, sweeps, traces) applies alike.
package textin

import "bytes"

// bom is the UTF-8 byte order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// BOMMessage is what a reader says about a file that starts with a byte
// order mark. netsched rejects it rather than skip it: the same bytes are
// then read the same way by every reader, and nothing invisible ends up in
// the first key or id.
const BOMMessage = "the file starts with a UTF-8 byte order mark (bytes EF BB BF); save it as UTF-8 without one"

// HasBOM reports whether the first bytes of an input are a byte order mark.
func HasBOM(start []byte) bool { return bytes.HasPrefix(start, bom) }
