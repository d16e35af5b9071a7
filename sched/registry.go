package sched

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Info describes a registered scheduler for `netsched schedulers` and for
// building it from a scenario; make one with Define.
type Info struct {
	Name        string
	Description string      // one line
	Params      []ParamInfo // in declaration order, defaults from the configuration
	decode      func(map[string]any) (any, error)
	build       func(any) (Scheduler, error)
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

// Register adds a scheduler; scheduler packages call it from init() with
// the entry Define made.
func Register(info Info) {
	if info.decode == nil {
		panic("sched: scheduler " + info.Name + " registered without Define")
	}
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
	info, err := lookupScheduler(name)
	if err != nil {
		return nil, err
	}
	c, err := info.decode(params)
	if err != nil {
		return nil, fmt.Errorf("scheduler %s: %w", name, err)
	}
	s, err := info.build(c)
	if err != nil {
		return nil, fmt.Errorf("scheduler %s: %w", name, err)
	}
	return s, nil
}

func lookupScheduler(name string) (Info, error) {
	info, ok := Lookup(name)
	if !ok {
		names := make([]string, 0)
		for _, i := range Schedulers() {
			names = append(names, i.Name)
		}
		return Info{}, fmt.Errorf("unknown scheduler %q (registered: %s)", name, strings.Join(names, ", "))
	}
	return info, nil
}

// NetworkInfo describes a registered network policy (Varys, Aalo, priority
// orders): the network side of a run, combined with any task scheduler.
type NetworkInfo struct {
	Name        string
	Description string // one line
	Params      []ParamInfo
	decode      func(map[string]any) (any, error)
	build       func(any) (NetworkPolicy, error)
}

var networks = map[string]NetworkInfo{}

// RegisterNetwork adds a network policy; packages call it from init().
func RegisterNetwork(info NetworkInfo) {
	if info.decode == nil {
		panic("sched: network policy " + info.Name + " registered without DefineNetwork")
	}
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
	info, err := lookupNetwork(name)
	if err != nil {
		return nil, err
	}
	c, err := info.decode(params)
	if err != nil {
		return nil, fmt.Errorf("network policy %s: %w", name, err)
	}
	np, err := info.build(c)
	if err != nil {
		return nil, fmt.Errorf("network policy %s: %w", name, err)
	}
	return np, nil
}

func lookupNetwork(name string) (NetworkInfo, error) {
	info, ok := LookupNetwork(name)
	if !ok {
		var names []string
		for _, i := range NetworkPolicies() {
			names = append(names, i.Name)
		}
		return NetworkInfo{}, fmt.Errorf("unknown network policy %q (registered: %s)", name, strings.Join(names, ", "))
	}
	return info, nil
}

// SpecError is a problem with one field of a scenario's `scheduler:`
// mapping: Field is "name", "params.<p>", "network" or "network_params.<p>"
// (just "params" or "network_params" when no single parameter is at fault).
type SpecError struct {
	Field string
	Err   error
}

func (e *SpecError) Error() string { return e.Err.Error() }

// SchedulerField is Field (scenario loading points at it).
func (e *SpecError) SchedulerField() string { return e.Field }
func (e *SpecError) Unwrap() error          { return e.Err }

// CheckSpec checks a scenario's scheduler choice without building anything:
// the names are registered and every parameter decodes and passes its
// configuration's checks. Scenario loading calls it (through sched/all) so
// that a bad parameter is reported with its file and line.
func CheckSpec(name string, params map[string]any, network string, networkParams map[string]any) error {
	info, err := lookupScheduler(name)
	if err != nil {
		return &SpecError{Field: "name", Err: err}
	}
	if _, err := info.decode(params); err != nil {
		return &SpecError{Field: fieldOf("params", err), Err: fmt.Errorf("scheduler %s: %w", name, err)}
	}
	if network == "" {
		if len(networkParams) > 0 {
			return &SpecError{Field: "network_params", Err: fmt.Errorf("network_params given without network")}
		}
		return nil
	}
	ninfo, err := lookupNetwork(network)
	if err != nil {
		return &SpecError{Field: "network", Err: err}
	}
	if _, err := ninfo.decode(networkParams); err != nil {
		return &SpecError{Field: fieldOf("network_params", err), Err: fmt.Errorf("network policy %s: %w", network, err)}
	}
	return nil
}

// fieldOf points a decoding error at its parameter.
func fieldOf(section string, err error) string {
	var pe *ParamError
	if errors.As(err, &pe) {
		return section + "." + pe.Param
	}
	var ue *UnknownParamError
	if errors.As(err, &ue) {
		return section + "." + ue.Unknown[0]
	}
	return section
}
