package jobmodel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/didyoumean"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/workload"
)

// Options reads importer and generator parameters (the `options:` mapping
// of a scenario's workload) strictly: every reader names its key, values
// may be numbers or strings with human units, and Err reports the first bad
// value or any key nobody asked for, listing the known ones. Readers return
// the default after an error so callers can read every key unconditionally
// and check Err once.
type Options struct {
	path     string // prefix for messages, e.g. "classes[1]."
	m        map[string]any
	asked    []string
	err      *error // shared with nested Options so the first error wins
	children []*Options
}

// NewOptions wraps a decoded options mapping; nil means no options.
func NewOptions(m map[string]any) *Options {
	var err error
	return &Options{m: m, err: &err}
}

// Err returns the first bad value, else the first unknown key (in sorted
// order, so the message does not depend on map iteration).
func (o *Options) Err() error {
	if *o.err != nil {
		return *o.err
	}
	return o.unknown()
}

func (o *Options) unknown() error {
	keys := make([]string, 0, len(o.m))
	for k := range o.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(o.asked, k) {
			known := slices.Clone(o.asked)
			slices.Sort(known)
			return &OptionError{Key: o.path + k, Msg: fmt.Sprintf("unknown option %q%s (known: %s)", o.path+k, didyoumean.Suggest(k, known), strings.Join(known, ", "))}
		}
	}
	for _, c := range o.children {
		if err := c.unknown(); err != nil {
			return err
		}
	}
	return nil
}

// Fail records an error about key (used by callers for cross-key checks).
func (o *Options) Fail(key, format string, args ...any) {
	if *o.err == nil {
		*o.err = &OptionError{Key: o.path + key, Msg: fmt.Sprintf("option %q: %s", o.path+key, fmt.Sprintf(format, args...))}
	}
}

// OptionError is a bad or unknown option; Key is its path in the options
// mapping ("count", "classes[1].median") so a loader can point at its line.
type OptionError struct{ Key, Msg string }

func (e *OptionError) Error() string { return e.Msg }

// OptionKey names the option at fault.
func (e *OptionError) OptionKey() string { return e.Key }

// Has reports whether key was given (and marks it known).
func (o *Options) Has(key string) bool {
	o.ask(key)
	_, ok := o.m[key]
	return ok
}

func (o *Options) ask(key string) {
	if !slices.Contains(o.asked, key) {
		o.asked = append(o.asked, key)
	}
}

// get returns the raw value of key, marking the key known.
func (o *Options) get(key string) (any, bool) {
	o.ask(key)
	v, ok := o.m[key]
	return v, ok && v != nil
}

// Number reads a finite number >= 0.
func (o *Options) Number(key string, def float64) float64 {
	return o.quantity(key, def, "number", parseNumber)
}

// Fraction reads a number in [0, 1].
func (o *Options) Fraction(key string, def float64) float64 {
	v := o.Number(key, def)
	if v > 1 {
		o.Fail(key, "%g is not a fraction in [0, 1]", v)
		return def
	}
	return v
}

// Positive reads a finite number > 0.
func (o *Options) Positive(key string, def float64) float64 {
	v := o.Number(key, def)
	if v == 0 {
		o.Fail(key, "must be greater than 0")
		return def
	}
	return v
}

// Bytes reads a size: a number of bytes or a string such as "64MiB".
func (o *Options) Bytes(key string, def float64) float64 {
	return o.quantity(key, def, "size", units.ParseBytes)
}

// Duration reads seconds or a string such as "1.5s" or "90m".
func (o *Options) Duration(key string, def float64) float64 {
	return o.quantity(key, def, "duration", units.ParseDuration)
}

// Rate reads a speed > 0 in bytes per second, or a string such as "100MB/s".
func (o *Options) Rate(key string, def float64) float64 {
	v := o.quantity(key, def, "rate", units.ParseRate)
	if v == 0 {
		o.Fail(key, "a rate must be greater than 0")
		return def
	}
	return v
}

// Int reads a whole number >= 0.
func (o *Options) Int(key string, def int) int {
	v := o.Number(key, float64(def))
	if v != math.Trunc(v) || v > 1<<40 {
		o.Fail(key, "%g is not a whole number (or is too large)", v)
		return def
	}
	return int(v)
}

// Seed reads a 64-bit seed (any non-negative whole number).
func (o *Options) Seed(key string, def uint64) uint64 {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	switch v := raw.(type) {
	case uint64:
		return v
	case int:
		if v >= 0 {
			return uint64(v)
		}
	case int64:
		if v >= 0 {
			return uint64(v)
		}
	case string:
		if s, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64); err == nil {
			return s
		}
	}
	o.Fail(key, "%v is not a seed (a whole number >= 0)", raw)
	return def
}

// Bool reads true or false.
func (o *Options) Bool(key string, def bool) bool {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	switch v := raw.(type) {
	case bool:
		return v
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(v)); err == nil {
			return b
		}
	}
	o.Fail(key, "%v is not true or false", raw)
	return def
}

// String reads a non-empty string.
func (o *Options) String(key, def string) string {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	s, isStr := raw.(string)
	if !isStr || s == "" {
		o.Fail(key, "expected a non-empty string, got %v", raw)
		return def
	}
	return s
}

// Choice reads one of the allowed strings.
func (o *Options) Choice(key, def string, allowed ...string) string {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	s, isStr := raw.(string)
	if !isStr || !slices.Contains(allowed, s) {
		o.Fail(key, "%v is not one of %s", raw, strings.Join(allowed, ", "))
		return def
	}
	return s
}

// Map returns the nested options under key, or nil when absent.
func (o *Options) Map(key string) *Options {
	raw, ok := o.get(key)
	if !ok {
		return nil
	}
	m, isMap := asMap(raw)
	if !isMap {
		o.Fail(key, "expected a mapping, got %v", raw)
		return nil
	}
	return o.child(o.path+key+".", m)
}

// List returns the nested options of a list of mappings under key; ok is
// false when the key is absent.
func (o *Options) List(key string) (items []*Options, ok bool) {
	raw, ok := o.get(key)
	if !ok {
		return nil, false
	}
	list, isList := raw.([]any)
	if !isList {
		o.Fail(key, "expected a list of mappings, got %v", raw)
		return nil, true
	}
	for i, e := range list {
		m, isMap := asMap(e)
		if !isMap {
			o.Fail(fmt.Sprintf("%s[%d]", key, i), "expected a mapping, got %v", e)
			return nil, true
		}
		items = append(items, o.child(fmt.Sprintf("%s%s[%d].", o.path, key, i), m))
	}
	return items, true
}

// Weights reads a mapping of names to non-negative weights, e.g.
// {kmeans: 2, lda: 1}, restricted to the allowed names; the result is in
// the order of allowed, so it never depends on map iteration. ok is false
// when the key is absent.
func (o *Options) Weights(key string, allowed []string) (w []float64, ok bool) {
	sub := o.Map(key)
	if sub == nil {
		return nil, false
	}
	w = make([]float64, len(allowed))
	total := 0.0
	for i, name := range allowed {
		w[i] = sub.Number(name, 0)
		total += w[i]
	}
	if total == 0 && *o.err == nil {
		o.Fail(key, "weights sum to 0; give at least one of %s a positive weight", strings.Join(allowed, ", "))
	}
	return w, true
}

func (o *Options) child(path string, m map[string]any) *Options {
	c := &Options{path: path, m: m, err: o.err}
	o.children = append(o.children, c)
	return c
}

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	}
	return nil, false
}

// quantity reads a non-negative finite value that may be a bare number or
// a string parsed by parse.
func (o *Options) quantity(key string, def float64, what string, parse func(string) (float64, error)) float64 {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	v, err := toQuantity(raw, parse)
	if err != nil {
		o.Fail(key, "%v", err)
		return def
	}
	if v < 0 {
		o.Fail(key, "%s %v is negative", what, raw)
		return def
	}
	return v
}

func toQuantity(raw any, parse func(string) (float64, error)) (float64, error) {
	var v float64
	switch x := raw.(type) {
	case float64:
		v = x
	case float32:
		v = float64(x)
	case int:
		v = float64(x)
	case int64:
		v = float64(x)
	case uint64:
		v = float64(x)
	case string:
		p, err := parse(x)
		if err != nil {
			return 0, err
		}
		v = p
	default:
		return 0, fmt.Errorf("expected a number or a string, got %v", raw)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%v is not finite", raw)
	}
	return v, nil
}

func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// Quantity says what the values of a distribution option measure.
type Quantity int

const (
	Size     Quantity = iota // bytes, "64MB"
	Time                     // seconds, "2s"
	Unitless                 // plain numbers (ratios, shares); the only kind that allows zipf
)

// Dist reads a distribution written as the native format writes one: a
// constant ("128MB", 2) or a mapping such as {dist: lognormal, median: 2s,
// sigma: 1.1}. Keys: value (const), min/max (uniform), mean (exponential),
// median/sigma (lognormal), scale/shape (pareto), exponent (zipf).
func (o *Options) Dist(key string, q Quantity, def workload.Dist) workload.Dist {
	raw, ok := o.get(key)
	if !ok {
		return def
	}
	d, err := parseDist(raw, q)
	if err != nil {
		o.Fail(key, "%v", err)
		return def
	}
	return d
}

var distParams = map[workload.DistKind][2]struct {
	key      string
	quantity bool // measured in the option's unit (else a plain number)
}{
	workload.Const:       {{"value", true}, {"", false}},
	workload.Uniform:     {{"min", true}, {"max", true}},
	workload.Exponential: {{"mean", true}, {"", false}},
	workload.LogNormal:   {{"median", true}, {"sigma", false}},
	workload.Pareto:      {{"scale", true}, {"shape", false}},
	workload.Zipf:        {{"exponent", false}, {"", false}},
}

func parseDist(raw any, q Quantity) (workload.Dist, error) {
	parse := map[Quantity]func(string) (float64, error){Size: units.ParseBytes, Time: units.ParseDuration, Unitless: parseNumber}[q]
	m, isMap := asMap(raw)
	if !isMap {
		v, err := toQuantity(raw, parse)
		if err != nil {
			return workload.Dist{}, err
		}
		d := workload.ConstDist(v)
		return d, d.Validate()
	}
	kindRaw, ok := m["dist"].(string)
	kind := workload.DistKind(kindRaw)
	params, known := distParams[kind]
	if !ok || !known {
		return workload.Dist{}, fmt.Errorf("a distribution mapping needs dist: const, uniform, exponential, lognormal, pareto or zipf")
	}
	if kind == workload.Zipf && q != Unitless {
		return workload.Dist{}, fmt.Errorf("zipf gives rank weights and only applies to shares")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "dist" && k != params[0].key && k != params[1].key {
			return workload.Dist{}, fmt.Errorf("key %q does not apply to a %s distribution", k, kind)
		}
	}
	var ab [2]float64
	for i, p := range params {
		if p.key == "" {
			continue
		}
		v, ok := m[p.key]
		if !ok {
			return workload.Dist{}, fmt.Errorf("a %s distribution needs %q", kind, p.key)
		}
		pp := parseNumber
		if p.quantity {
			pp = parse
		}
		x, err := toQuantity(v, pp)
		if err != nil {
			return workload.Dist{}, fmt.Errorf("%s: %v", p.key, err)
		}
		ab[i] = x
	}
	d := workload.Dist{Kind: kind, A: ab[0], B: ab[1]}
	return d, d.Validate()
}
