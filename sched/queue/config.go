package queue

import (
	"fmt"
	"sort"
	"strings"

	"github.com/netsched/netsched/sched"
)

// queueSpec is one entry of the `queues` parameter (see the package doc);
// fair and delay read the first group of keys, capacity the second.
type queueSpec struct {
	Name, Parent string
	Policy       string

	Weight, MinShare, MaxShare float64

	Capacity, MaxCapacity, UserLimitFactor float64
}

// specKeys decode the keys of a queue entry.
var specKeys = map[string]func(s *queueSpec, v any) error{
	"name":              func(s *queueSpec, v any) error { return text(v, &s.Name) },
	"parent":            func(s *queueSpec, v any) error { return text(v, &s.Parent) },
	"policy":            func(s *queueSpec, v any) error { return text(v, &s.Policy) },
	"weight":            func(s *queueSpec, v any) error { return nonNegative(v, &s.Weight) },
	"min_share":         func(s *queueSpec, v any) error { return nonNegative(v, &s.MinShare) },
	"max_share":         func(s *queueSpec, v any) error { return nonNegative(v, &s.MaxShare) },
	"capacity":          func(s *queueSpec, v any) error { return fraction(v, &s.Capacity) },
	"maximum_capacity":  func(s *queueSpec, v any) error { return fraction(v, &s.MaxCapacity) },
	"user_limit_factor": func(s *queueSpec, v any) error { return nonNegative(v, &s.UserLimitFactor) },
}

var (
	fairKeys     = []string{"name", "parent", "weight", "min_share", "max_share", "policy"}
	capacityKeys = []string{"name", "parent", "capacity", "maximum_capacity", "policy", "user_limit_factor"}
)

// parseQueues decodes the `queues` list: each entry starts from def and may
// set the keys listed. Errors name the entry and the key.
func parseQueues(raw any, keys []string, def queueSpec) ([]queueSpec, error) {
	list, ok := raw.([]any)
	if !ok {
		if maps, isMaps := raw.([]map[string]any); isMaps {
			for _, m := range maps {
				list = append(list, m)
			}
		} else {
			return nil, fmt.Errorf("expected a list of queues like [{name: a, ...}], got %v", raw)
		}
	}
	specs := make([]queueSpec, 0, len(list))
	for i, item := range list {
		entry, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("entry %d: expected a mapping like {name: a, ...}, got %v", i+1, item)
		}
		s := def
		for _, k := range sortedKeys(entry) {
			known := false
			for _, want := range keys {
				known = known || k == want
			}
			if !known {
				return nil, fmt.Errorf("entry %d: unknown key %q (known: %s)", i+1, k, strings.Join(keys, ", "))
			}
			if err := specKeys[k](&s, entry[k]); err != nil {
				return nil, fmt.Errorf("entry %d: %s: %v", i+1, k, err)
			}
		}
		if s.Name == "" {
			return nil, fmt.Errorf("entry %d: a queue needs a name", i+1)
		}
		if s.Name == "root" || strings.Contains(s.Name, ".") {
			return nil, fmt.Errorf("queue %q: a name may not be root or contain dots", s.Name)
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// parseWeights decodes user_weights: a mapping of user name to weight.
func parseWeights(raw any) (map[string]float64, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected a mapping of user to weight like {alice: 2}, got %v", raw)
	}
	out := make(map[string]float64, len(m))
	for _, user := range sortedKeys(m) {
		var w float64
		if err := nonNegative(m[user], &w); err != nil {
			return nil, fmt.Errorf("user %q: %v", user, err)
		}
		out[user] = w
	}
	return out, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func text(v any, dst *string) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("got %v, expected a string", v)
	}
	*dst = s
	return nil
}

func nonNegative(v any, dst *float64) error {
	x, ok := sched.Number(v)
	if !ok || x < 0 {
		return fmt.Errorf("got %v, expected a number >= 0", v)
	}
	*dst = x
	return nil
}

func fraction(v any, dst *float64) error {
	x, ok := sched.Number(v)
	if !ok || x < 0 || x > 1 {
		return fmt.Errorf("got %v, expected a fraction between 0 and 1", v)
	}
	*dst = x
	return nil
}
