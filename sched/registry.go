package sched

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/netsched/netsched/internal/units"
)

// Info describes a registered scheduler for `netsched schedulers` and for
// building it from a scenario.
type Info struct {
	Name        string
	Description string // one line
	Params      []ParamInfo
	New         func(p *Params) (Scheduler, error)
}

// ParamInfo documents one parameter.
type ParamInfo struct {
	Name    string
	Default string
	Help    string
}

var (
	regMu    sync.Mutex
	registry = map[string]Info{}
)

// Register adds a scheduler; scheduler packages call it from init().
func Register(info Info) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[info.Name]; dup {
		panic("sched: scheduler registered twice: " + info.Name)
	}
	registry[info.Name] = info
}

// Schedulers lists registered schedulers sorted by name.
func Schedulers() []Info {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Lookup finds a registered scheduler.
func Lookup(name string) (Info, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	i, ok := registry[name]
	return i, ok
}

// NewScheduler builds a scheduler by name from scenario parameters; unknown
// names and unknown or malformed parameters are errors.
func NewScheduler(name string, params map[string]any) (Scheduler, error) {
	info, ok := Lookup(name)
	if !ok {
		names := make([]string, 0)
		for _, i := range Schedulers() {
			names = append(names, i.Name)
		}
		return nil, fmt.Errorf("unknown scheduler %q (registered: %s)", name, strings.Join(names, ", "))
	}
	return build("scheduler", name, info.Params, params, info.New)
}

// build reads params against the declared ones and calls the constructor.
func build[T any](what, name string, declared []ParamInfo, params map[string]any, newT func(*Params) (T, error)) (T, error) {
	p := &Params{scheduler: name, values: params, known: map[string]bool{}}
	for _, pi := range declared {
		p.known[pi.Name] = true
	}
	s, err := newT(p)
	if err == nil {
		err = p.firstErr
	}
	if err == nil {
		err = p.unknown()
	}
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s %s: %w", what, name, err)
	}
	return s, nil
}

// NetworkInfo describes a registered network policy (Varys, Aalo, priority
// orders): the network side of a run, combined with any task scheduler.
type NetworkInfo struct {
	Name        string
	Description string // one line
	Params      []ParamInfo
	New         func(p *Params) (NetworkPolicy, error)
}

var networks = map[string]NetworkInfo{}

// RegisterNetwork adds a network policy; packages call it from init().
func RegisterNetwork(info NetworkInfo) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := networks[info.Name]; dup {
		panic("sched: network policy registered twice: " + info.Name)
	}
	networks[info.Name] = info
}

// NetworkPolicies lists registered network policies sorted by name.
func NetworkPolicies() []NetworkInfo {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]NetworkInfo, 0, len(networks))
	for _, i := range networks {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// LookupNetwork finds a registered network policy.
func LookupNetwork(name string) (NetworkInfo, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	i, ok := networks[name]
	return i, ok
}

// NewNetworkPolicy builds a network policy by name from its parameters.
func NewNetworkPolicy(name string, params map[string]any) (NetworkPolicy, error) {
	info, ok := LookupNetwork(name)
	if !ok {
		var names []string
		for _, i := range NetworkPolicies() {
			names = append(names, i.Name)
		}
		return nil, fmt.Errorf("unknown network policy %q (registered: %s)", name, strings.Join(names, ", "))
	}
	return build("network policy", name, info.Params, params, info.New)
}

// Params reads a scheduler's parameters with defaults, remembering the first
// error so a constructor can read everything and check once.
type Params struct {
	scheduler string
	values    map[string]any
	known     map[string]bool
	firstErr  error
}

func (p *Params) fail(name string, v any, want string) {
	if p.firstErr == nil {
		p.firstErr = fmt.Errorf("parameter %s: got %v, expected %s", name, v, want)
	}
}

func (p *Params) get(name string) (any, bool) {
	if !p.known[name] {
		panic(fmt.Sprintf("sched: %s reads undeclared parameter %q", p.scheduler, name))
	}
	v, ok := p.values[name]
	return v, ok
}

// Float reads a number.
func (p *Params) Float(name string, def float64) float64 {
	v, ok := p.get(name)
	if !ok {
		return def
	}
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	}
	p.fail(name, v, "a number")
	return def
}

// Int reads an integer.
func (p *Params) Int(name string, def int) int {
	f := p.Float(name, float64(def))
	if f != float64(int(f)) {
		p.fail(name, f, "an integer")
	}
	return int(f)
}

// String reads a string, optionally restricted to choices.
func (p *Params) String(name, def string, choices ...string) string {
	v, ok := p.get(name)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		p.fail(name, v, "a string")
		return def
	}
	if len(choices) > 0 {
		for _, c := range choices {
			if s == c {
				return s
			}
		}
		p.fail(name, s, "one of "+strings.Join(choices, ", "))
		return def
	}
	return s
}

// Bool reads a boolean.
func (p *Params) Bool(name string, def bool) bool {
	v, ok := p.get(name)
	if !ok {
		return def
	}
	b, isBool := v.(bool)
	if !isBool {
		p.fail(name, v, "true or false")
		return def
	}
	return b
}

// Duration reads seconds given as a number or a string like "1.5s".
func (p *Params) Duration(name string, def float64) float64 {
	v, ok := p.get(name)
	if !ok {
		return def
	}
	if s, isStr := v.(string); isStr {
		d, err := units.ParseDuration(s)
		if err != nil {
			p.fail(name, s, "a duration like 1.5s")
			return def
		}
		return d
	}
	return p.Float(name, def)
}

// Size reads bytes given as a number or a string like "128MB".
func (p *Params) Size(name string, def float64) float64 {
	v, ok := p.get(name)
	if !ok {
		return def
	}
	if s, isStr := v.(string); isStr {
		b, err := units.ParseBytes(s)
		if err != nil {
			p.fail(name, s, "a size like 128MB")
			return def
		}
		return b
	}
	return p.Float(name, def)
}

// Raw returns the raw value (for structured parameters such as queue trees).
func (p *Params) Raw(name string) (any, bool) { return p.get(name) }

// Fail records a parameter error found by the scheduler itself.
func (p *Params) Fail(name string, v any, want string) { p.fail(name, v, want) }

func (p *Params) unknown() error {
	var bad []string
	for k := range p.values {
		if !p.known[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	var known []string
	for k := range p.known {
		known = append(known, k)
	}
	sort.Strings(known)
	return fmt.Errorf("unknown parameter(s) %s (known: %s)", strings.Join(bad, ", "), strings.Join(known, ", "))
}
