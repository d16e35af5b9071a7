// Package units parses and formats the human units used in scenario files and
// output: sizes ("128MB", "1.5GiB"), rates ("10Gbps", "1MB/s") and durations
// ("1.5s", "200ms"). Inside netsched every size is bytes and every time is
// seconds, both float64; this package is the only place that knows prefixes.
//
// SI prefixes are decimal (MB = 10^6 bytes, Gbps = 10^9 bit/s), IEC prefixes
// are binary (MiB = 2^20 bytes).
package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
)

var siPrefix = map[string]float64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
var iecPrefix = map[string]float64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50}

// ParseNumber is the one reader of a plain number in netsched's files, in
// any spelling (0.5, 5e-1, .5, +5E-1): decimal digits, a point, a sign and
// an exponent only; finite, and not a non-zero value that rounds to 0 (a
// tiny value must meet the same range checks as any other).
func ParseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.IndexFunc(s, func(c rune) bool { return !strings.ContainsRune("0123456789.eE+-", c) }) >= 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s is beyond the largest number (about 1.8e308)", s)
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", s)
	case v == 0 && nonZeroMantissa(s):
		return 0, fmt.Errorf("%s is below the smallest number (about 4.9e-324)", s)
	}
	return v, nil
}

// nonZeroMantissa reports a non-zero digit before the exponent.
func nonZeroMantissa(s string) bool {
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	return strings.ContainsAny(mant, "123456789")
}

// splitNumber separates a leading decimal number from its unit suffix.
func splitNumber(s string) (float64, string, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] == '.' || s[i] == '-' || s[i] == '+' || s[i] == 'e' && i > 0 || (s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	// Do not swallow an 'e' that starts a unit (no such unit exists, but keep the
	// parser honest): back off while the number does not parse.
	for ; i > 0; i-- {
		if _, err := strconv.ParseFloat(s[:i], 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			continue
		}
		v, err := ParseNumber(s[:i])
		if err != nil {
			return 0, "", fmt.Errorf("%q: %v", s, err)
		}
		return v, strings.TrimSpace(s[i:]), nil
	}
	return 0, "", fmt.Errorf("%q does not start with a number", s)
}

// prefixOf returns the multiplier of a prefix (SI or IEC) and whether it is known.
func prefixOf(p string) (float64, bool) {
	if m, ok := iecPrefix[p]; ok {
		return m, true
	}
	m, ok := siPrefix[p]
	return m, ok
}

// ParseBytes parses a size such as "128MB", "1.5GiB", "4kB" or a bare number
// of bytes. Bits are accepted with a lower-case b ("8Mb" = 1 MB).
func ParseBytes(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("size %w", err)
	}
	if unit == "" {
		return v, nil
	}
	var per float64
	switch {
	case strings.HasSuffix(unit, "B"):
		per, unit = 1, strings.TrimSuffix(unit, "B")
	case strings.HasSuffix(unit, "b"):
		per, unit = 1.0/8, strings.TrimSuffix(unit, "b")
	default:
		return 0, fmt.Errorf("size %q: unit must end in B (bytes) or b (bits), like 128MB or 1GiB", s)
	}
	m, ok := prefixOf(unit)
	if !ok {
		return 0, fmt.Errorf("size %q: unknown prefix %q (use k, M, G, T, P or Ki, Mi, Gi, Ti, Pi)", s, unit)
	}
	return v * m * per, nil
}

// ParseRate parses a speed into bytes per second: "10Gbps", "1Gbit/s",
// "1MB/s", "125MBps", "1GiB/s". A bare number is bytes per second.
func ParseRate(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("rate %w", err)
	}
	if unit == "" {
		return v, nil
	}
	var perByte float64
	var prefix string
	switch {
	case strings.HasSuffix(unit, "bit/s"):
		perByte, prefix = 1.0/8, strings.TrimSuffix(unit, "bit/s")
	case strings.HasSuffix(unit, "bps"):
		perByte, prefix = 1.0/8, strings.TrimSuffix(unit, "bps")
	case strings.HasSuffix(unit, "B/s"):
		perByte, prefix = 1, strings.TrimSuffix(unit, "B/s")
	case strings.HasSuffix(unit, "Bps"):
		perByte, prefix = 1, strings.TrimSuffix(unit, "Bps")
	default:
		return 0, fmt.Errorf("rate %q: unit must be bits (Gbps, Mbit/s) or bytes (MB/s, MBps) per second", s)
	}
	m, ok := prefixOf(prefix)
	if !ok {
		return 0, fmt.Errorf("rate %q: unknown prefix %q (use k, M, G, T or Ki, Mi, Gi, Ti)", s, prefix)
	}
	return v * m * perByte, nil
}

// ParseDuration parses a Go-style duration ("1.5s", "200ms", "1h30m") or a
// bare number of seconds into seconds. A number with one unit may use any
// spelling of a number ("1e9s", "2.5e-3ms"), like sizes and rates, and is not
// bounded by time.Duration's 292 years: the range checks of the field read
// it.
func ParseDuration(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if _, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		v, err := ParseNumber(s)
		if err != nil {
			return 0, fmt.Errorf("duration %v", err)
		}
		return v, nil
	}
	if v, unit, err := splitNumber(s); err == nil {
		if sec, ok := durationUnits[unit]; ok {
			return scaleDuration(strings.TrimSpace(strings.TrimSuffix(s, unit)), v, sec)
		}
	}
	d, err := time.ParseDuration(s) // several units: 1h30m
	if err != nil {
		return 0, fmt.Errorf("duration %q: expected a number of seconds or a value like 1.5s, 200ms, 2h", s)
	}
	return d.Seconds(), nil
}

// durationUnits are time.ParseDuration's units, in seconds (as the exact
// decimals scaleDuration multiplies by).
var durationUnits = map[string]string{"ns": "1e-9", "us": "1e-6", "µs": "1e-6", "μs": "1e-6", "ms": "1e-3", "s": "1", "m": "60", "h": "3600"}

// scaleDuration is the number num (whose value is v) of units of sec
// seconds, computed exactly and rounded once. A whole number of
// nanoseconds within time.Duration's range is converted as
// time.Duration.Seconds does, so that values time.ParseDuration reads
// exactly keep their bits; any other (an exponent, a fraction of a
// nanosecond, beyond 292 years) is not cut to what a time.Duration holds.
func scaleDuration(num string, v float64, sec string) (float64, error) {
	if v == 0 {
		return 0, nil // and no 10^exponent for "0e999999999"
	}
	r, ok := new(big.Rat).SetString(num)
	unit, _ := new(big.Rat).SetString(sec)
	if !ok || unit == nil {
		return 0, fmt.Errorf("duration: %q is not a number", num)
	}
	r.Mul(r, unit)
	ns := new(big.Rat).Mul(r, big.NewRat(1e9, 1))
	if ns.IsInt() && ns.Num().IsInt64() {
		return time.Duration(ns.Num().Int64()).Seconds(), nil
	}
	out, _ := r.Float64()
	if math.IsInf(out, 0) {
		return 0, fmt.Errorf("duration of %g x %ss is not finite", v, sec)
	}
	return out, nil
}

// FormatBytes renders a size with a decimal prefix, e.g. 1.5e9 -> "1.5GB".
func FormatBytes(b float64) string { return formatSI(b, "B") }

// FormatRate renders bytes per second as bits per second, e.g. 1.25e9 -> "10Gbps".
func FormatRate(bytesPerSec float64) string { return formatSI(bytesPerSec*8, "bps") }

// FormatDuration renders seconds compactly ("1.5s", "250ms", "2h3m"). From
// 10 minutes on it is Go's h/m/s form, with whole hours beyond what a
// time.Duration holds (292 years), so that no value wraps around.
func FormatDuration(sec float64) string {
	switch {
	case sec == 0:
		return "0s"
	case math.IsNaN(sec) || math.IsInf(sec, 0):
		return strconv.FormatFloat(sec, 'g', -1, 64) + "s"
	case math.Abs(sec) < 1:
		return trim(sec*1000) + "ms"
	case math.Abs(sec) < 600:
		return trim(sec) + "s"
	case math.Abs(sec) < maxDurationSeconds:
		return time.Duration(math.Round(sec) * float64(time.Second)).String()
	}
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	rest := math.Mod(sec, 3600) // exact
	h := math.Round((sec - rest) / 3600)
	if rest = math.Round(rest); rest == 3600 { // whole seconds, as time.Duration's form
		h, rest = h+1, 0
	}
	return fmt.Sprintf("%s%.0fh%dm%ds", sign, h, int(rest)/60, int(rest)%60)
}

// maxDurationSeconds is the longest span a time.Duration holds, 2^63 ns.
const maxDurationSeconds = float64(math.MaxInt64) / 1e9

func formatSI(v float64, unit string) string {
	for _, p := range []struct {
		name string
		mul  float64
	}{{"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if math.Abs(v) >= p.mul {
			return trim(v/p.mul) + p.name + unit
		}
	}
	return trim(v) + unit
}

// trim keeps at most four decimals and drops trailing zeros so output stays readable.
func trim(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Bytes is a size in bytes that reads "128MB"-style strings or bare numbers
// from YAML; negative sizes are rejected.
type Bytes float64

// Rate is a speed in bytes per second that reads "10Gbps"-style strings.
type Rate float64

// Duration is a time in seconds that reads "1.5s"-style strings or bare seconds.
type Duration float64

func (b *Bytes) UnmarshalText(t []byte) error {
	v, err := ParseBytes(string(t))
	if err == nil && v < 0 {
		err = fmt.Errorf("size %q is negative; expected a size >= 0 like 128MB", t)
	}
	*b = Bytes(v)
	return err
}

func (r *Rate) UnmarshalText(t []byte) error {
	v, err := ParseRate(string(t))
	if err == nil && v <= 0 {
		err = fmt.Errorf("rate %q must be positive, like 10Gbps or 1MB/s", t)
	}
	*r = Rate(v)
	return err
}

func (d *Duration) UnmarshalText(t []byte) error {
	v, err := ParseDuration(string(t))
	if err == nil && v < 0 {
		err = fmt.Errorf("duration %q is negative; expected a duration >= 0 like 1.5s", t)
	}
	*d = Duration(v)
	return err
}

// The YAML hooks below exist so that a bad value is reported with its line
// and column, which the YAML library drops for plain text unmarshalers.
func (b *Bytes) UnmarshalYAML(n ast.Node) error    { return atNode(n, b.UnmarshalText) }
func (r *Rate) UnmarshalYAML(n ast.Node) error     { return atNode(n, r.UnmarshalText) }
func (d *Duration) UnmarshalYAML(n ast.Node) error { return atNode(n, d.UnmarshalText) }

// PosError is a value error at a place in a YAML document.
type PosError struct {
	Line, Column int
	Msg          string
}

func (e *PosError) Error() string { return fmt.Sprintf("[%d:%d] %s", e.Line, e.Column, e.Msg) }

func atNode(n ast.Node, parse func([]byte) error) error {
	var text string
	switch v := n.(type) {
	case *ast.StringNode:
		text = v.Value
	case *ast.IntegerNode, *ast.FloatNode:
		text = n.String()
	default:
		text = n.String()
		if _, isScalar := n.(ast.ScalarNode); !isScalar {
			return posError(n, fmt.Sprintf("expected a scalar value, got %s", n.Type()))
		}
	}
	if err := parse([]byte(text)); err != nil {
		return posError(n, err.Error())
	}
	return nil
}

func posError(n ast.Node, msg string) error {
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return fmt.Errorf("%s", msg)
	}
	return &PosError{Line: tk.Position.Line, Column: tk.Position.Column, Msg: msg}
}

// Marshalling writes the human form when it reads back exactly and a plain
// number otherwise, so that echoing a scenario never changes a value.
func (b Bytes) MarshalText() ([]byte, error) {
	return exact(float64(b), FormatBytes, ParseBytes), nil
}

func (r Rate) MarshalText() ([]byte, error) { return exact(float64(r), FormatRate, ParseRate), nil }

func (d Duration) MarshalText() ([]byte, error) {
	return exact(float64(d), FormatDuration, ParseDuration), nil
}

func exact(v float64, format func(float64) string, parse func(string) (float64, error)) []byte {
	s := format(v)
	if back, err := parse(s); err == nil && back == v {
		return []byte(s)
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64))
}
