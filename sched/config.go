package sched

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/units"
)

// A scheduler's parameters are one typed configuration struct whose value
// with every default filled in is given to Define. Each parameter is an
// exported field tagged with its scenario name:
//
//	type Config struct {
//		M      int     `param:"m" min:"1" help:"controlled concurrency (§4)"`
//		Policy string  `param:"policy" choices:"fair|fifo" help:"queue policy"`
//		Window float64 `param:"rate_window" unit:"s" min:"0" help:"EMA time constant"`
//	}
//
// Field types: int, float64, bool, string, or a type whose pointer
// implements ParamValue (structured values such as queue trees). Tags:
//
//	param    the name in `scheduler.params` (required; "-" skips the field)
//	help     one line for `netsched schedulers`
//	unit     s (a duration: seconds or "1.5s"), B (a size: bytes or
//	         "128MB"), bps (a rate: bytes/s or "10Gbps"); float64 only
//	choices  the allowed strings, separated by |
//	min, max inclusive bounds for numbers
//
// An embedded struct without a param tag contributes its fields in place,
// so schedulers that share parameters share one struct. After decoding, a
// configuration whose pointer has a Validate() error method is checked as a
// whole (cross-field rules); Validate reports a bad field with BadParam.
//
// The defaults are written once, in the value given to Define: `netsched
// schedulers` prints them from there, and a scenario's parameters are
// decoded onto a copy of it.

// ParamValue is a structured parameter: SetParam decodes the scenario's raw
// value (lists and mappings as decoded from YAML) and String renders the
// default for `netsched schedulers`.
type ParamValue interface {
	SetParam(raw any) error
	String() string
}

// ParamError is a bad parameter value; Param names the parameter so that a
// scenario loader can point at its line.
type ParamError struct {
	Param string
	Msg   string
}

func (e *ParamError) Error() string { return "parameter " + e.Param + ": " + e.Msg }

// BadParam reports a value of param that is not what was expected.
func BadParam(param string, got any, want string) error {
	return &ParamError{Param: param, Msg: fmt.Sprintf("got %v, expected %s", got, want)}
}

// ParamErrorf reports a problem with param in the caller's words.
func ParamErrorf(param, format string, args ...any) error {
	return &ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// UnknownParamError names parameters a scheduler does not declare.
type UnknownParamError struct {
	Unknown, Known []string
}

func (e *UnknownParamError) Error() string {
	return fmt.Sprintf("unknown parameter(s) %s (known: %s)", strings.Join(e.Unknown, ", "), strings.Join(e.Known, ", "))
}

// configField is one parameter of a configuration type.
type configField struct {
	index    []int // reflect field index path (through embedded structs)
	info     ParamInfo
	unit     string
	choices  []string
	min, max float64 // NaN: no bound
}

// configSpec is the reflected shape of a configuration type.
type configSpec struct {
	typ    reflect.Type
	fields []configField
	byName map[string]*configField
}

var paramValueType = reflect.TypeFor[ParamValue]()

// specOf reflects C's parameters; a malformed tag is a programming error
// in the scheduler package, so it panics at registration (init time).
func specOf[C any](defaults C) *configSpec {
	t := reflect.TypeFor[C]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("sched: configuration %v is not a struct", t))
	}
	s := &configSpec{typ: t, byName: map[string]*configField{}}
	s.collect(t, nil)
	dv := reflect.New(t).Elem() // addressable, for ParamValue's pointer methods
	dv.Set(reflect.ValueOf(defaults))
	for i := range s.fields {
		f := &s.fields[i]
		if _, dup := s.byName[f.info.Name]; dup {
			panic(fmt.Sprintf("sched: %v declares parameter %q twice", t, f.info.Name))
		}
		s.byName[f.info.Name] = f
		f.info.Default = f.format(dv.FieldByIndex(f.index))
	}
	return s
}

func (s *configSpec) collect(t reflect.Type, prefix []int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		name, tagged := sf.Tag.Lookup("param")
		if !tagged {
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				s.collect(sf.Type, index)
			}
			continue
		}
		if name == "-" {
			continue
		}
		if !sf.IsExported() || name == "" {
			panic(fmt.Sprintf("sched: %v.%s: a parameter must be an exported field with a name", t, sf.Name))
		}
		f := configField{index: index, info: ParamInfo{Name: name, Help: sf.Tag.Get("help")},
			unit: sf.Tag.Get("unit"), min: math.NaN(), max: math.NaN()}
		if c := sf.Tag.Get("choices"); c != "" {
			f.choices = strings.Split(c, "|")
		}
		for _, b := range []struct {
			tag string
			dst *float64
		}{{"min", &f.min}, {"max", &f.max}} {
			if v, ok := sf.Tag.Lookup(b.tag); ok {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					panic(fmt.Sprintf("sched: %v.%s: %s:%q is not a number", t, sf.Name, b.tag, v))
				}
				*b.dst = x
			}
		}
		switch k := sf.Type.Kind(); {
		case reflect.PointerTo(sf.Type).Implements(paramValueType):
		case k == reflect.Float64:
		case k == reflect.Int || k == reflect.Bool || k == reflect.String:
			if f.unit != "" {
				panic(fmt.Sprintf("sched: %v.%s: unit applies to float64 fields only", t, sf.Name))
			}
		default:
			panic(fmt.Sprintf("sched: %v.%s: unsupported parameter type %v", t, sf.Name, sf.Type))
		}
		switch f.unit {
		case "", "s", "B", "bps":
		default:
			panic(fmt.Sprintf("sched: %v.%s: unit %q, expected s, B or bps", t, sf.Name, f.unit))
		}
		s.fields = append(s.fields, f)
	}
}

// format renders a field's value as a scenario would write it.
func (f *configField) format(v reflect.Value) string {
	if pv, ok := v.Addr().Interface().(ParamValue); ok {
		return pv.String()
	}
	switch v.Kind() {
	case reflect.Float64:
		x := v.Float()
		if x < 0 || math.IsInf(x, 0) { // sentinels (-1: automatic) read better bare
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		switch f.unit {
		case "s":
			return units.FormatDuration(x)
		case "B":
			return units.FormatBytes(x)
		case "bps":
			return units.FormatRate(x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case reflect.String:
		if v.String() == "" {
			return "none"
		}
	}
	return fmt.Sprint(v.Interface())
}

// want describes what a field accepts, for error messages.
func (f *configField) want(k reflect.Kind) string {
	var w string
	switch {
	case len(f.choices) > 0:
		return "one of " + strings.Join(f.choices, ", ")
	case k == reflect.Bool:
		return "true or false"
	case k == reflect.String:
		return "a string"
	case k == reflect.Int:
		w = "an integer"
	case f.unit == "s":
		w = "a duration like 1.5s"
	case f.unit == "B":
		w = "a size like 128MB"
	case f.unit == "bps":
		w = "a rate like 10Gbps"
	default:
		w = "a number"
	}
	lo, hi := !math.IsNaN(f.min), !math.IsNaN(f.max)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch {
	case lo && hi:
		w += " in [" + num(f.min) + ", " + num(f.max) + "]"
	case lo:
		w += " >= " + num(f.min)
	case hi:
		w += " <= " + num(f.max)
	}
	return w
}

// Number reads a number as YAML decodes it (int, int64, uint64 or a
// float64 other than NaN), for ParamValue types that hold numbers.
func Number(raw any) (float64, bool) {
	switch x := raw.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}

// number reads a YAML number (or, with a unit, a string like "1.5s").
func (f *configField) number(raw any) (float64, bool) {
	if v, ok := Number(raw); ok {
		return v, true
	}
	switch x := raw.(type) {
	case string:
		var v float64
		var err error
		switch f.unit {
		case "s":
			v, err = units.ParseDuration(x)
		case "B":
			v, err = units.ParseBytes(x)
		case "bps":
			v, err = units.ParseRate(x)
		default:
			return 0, false
		}
		return v, err == nil
	}
	return 0, false
}

// set decodes raw into the field v.
func (f *configField) set(v reflect.Value, raw any) error {
	name := f.info.Name
	if pv, ok := v.Addr().Interface().(ParamValue); ok {
		if err := pv.SetParam(raw); err != nil {
			var pe *ParamError
			if errors.As(err, &pe) {
				return err
			}
			return &ParamError{Param: name, Msg: err.Error()}
		}
		return nil
	}
	bad := BadParam(name, raw, f.want(v.Kind()))
	switch v.Kind() {
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return bad
		}
		v.SetBool(b)
	case reflect.String:
		s, ok := raw.(string)
		if !ok || (len(f.choices) > 0 && !contains(f.choices, s)) {
			return bad
		}
		v.SetString(s)
	case reflect.Int, reflect.Float64:
		x, ok := f.number(raw)
		if !ok || (!math.IsNaN(f.min) && x < f.min) || (!math.IsNaN(f.max) && x > f.max) {
			return bad
		}
		if v.Kind() == reflect.Int {
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return bad
			}
			v.SetInt(int64(x))
		} else {
			v.SetFloat(x)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// decode returns a copy of defaults with params applied and checked.
func decode[C any](s *configSpec, defaults C, params map[string]any) (C, error) {
	// A shallow copy: a ParamValue's SetParam replaces what the field holds
	// rather than mutating it, so the defaults stay untouched.
	c := defaults
	v := reflect.ValueOf(&c).Elem()
	var unknown []string
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names) // the first error reported is the same every run
	for _, k := range names {
		f, ok := s.byName[k]
		if !ok {
			unknown = append(unknown, k)
			continue
		}
		if err := f.set(v.FieldByIndex(f.index), params[k]); err != nil {
			return c, err
		}
	}
	if len(unknown) > 0 {
		known := make([]string, 0, len(s.fields))
		for _, f := range s.fields {
			known = append(known, f.info.Name)
		}
		sort.Strings(known)
		return c, &UnknownParamError{Unknown: unknown, Known: known}
	}
	if ck, ok := any(&c).(interface{ Validate() error }); ok {
		if err := ck.Validate(); err != nil {
			return c, err
		}
	}
	return c, nil
}

func (s *configSpec) params() []ParamInfo {
	out := make([]ParamInfo, len(s.fields))
	for i, f := range s.fields {
		out[i] = f.info
	}
	return out
}

// Define makes a scheduler's registry entry from its configuration type:
// defaults is the configuration with every default set, and build makes
// the scheduler from a decoded and checked configuration.
func Define[C any](name, description string, defaults C, build func(C) (Scheduler, error)) Info {
	s := specOf(defaults)
	return Info{Name: name, Description: description, Params: s.params(),
		decode: func(p map[string]any) (any, error) { return decode(s, defaults, p) },
		build:  func(c any) (Scheduler, error) { return build(c.(C)) }}
}

// DefineNetwork is Define for a network policy.
func DefineNetwork[C any](name, description string, defaults C, build func(C) (NetworkPolicy, error)) NetworkInfo {
	s := specOf(defaults)
	return NetworkInfo{Name: name, Description: description, Params: s.params(),
		decode: func(p map[string]any) (any, error) { return decode(s, defaults, p) },
		build:  func(c any) (NetworkPolicy, error) { return build(c.(C)) }}
}

// NoConfig is the configuration of a scheduler without parameters.
type NoConfig struct{}
