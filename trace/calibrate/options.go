package calibrate

import (
	"math"
	"strconv"
	"strings"
)

// Options renders the map and reduce fits as the SWIM importer's options,
// a YAML flow mapping ready to paste under workload: ("options: {...}").
// A kind without a finite fitted rate (bytes all equal, or time not
// growing with bytes) is left out: the importer needs a finite rate, and
// its overhead alone would pair with the default rate it was not fitted
// with. ok is false when nothing could be written.
func Options(fits []Fit) (line string, ok bool) {
	var parts []string
	for _, f := range fits {
		if (f.Kind != "map" && f.Kind != "reduce") || !f.Separable() {
			continue
		}
		parts = append(parts, f.Kind+"_rate: "+RateString(f.Rate), f.Kind+"_overhead: "+SecondsString(f.Overhead))
	}
	if len(parts) == 0 {
		return "", false
	}
	return "options: {" + strings.Join(parts, ", ") + "}", true
}

// RateString writes bytes per second as MB/s (10^6 bytes, the unit of the
// importer's documentation) with six significant digits, in a form the
// scenario reader parses back.
func RateString(bytesPerSec float64) string {
	return plain(bytesPerSec/1e6) + "MB/s"
}

// SecondsString writes seconds with six significant digits and no
// exponent (Go durations have none).
func SecondsString(sec float64) string { return plain(sec) + "s" }

// plain rounds to six significant digits and prints without an exponent.
func plain(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}
