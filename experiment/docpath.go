package experiment

import (
	"fmt"
	"strconv"
	"strings"
)

// A scenario document is the generic form of a scenario file
// (map[string]any of YAML values). Sweeps edit it by dotted paths before
// the scenario loader validates the result, so that any field can vary.

// pathStep is one step of a dotted path: a mapping key or a list index.
type pathStep struct {
	key   string
	index int // -1 for a key
}

// parsePath splits "workload.jobs[0].stages[1].count" (or
// "workload.jobs.0.stages.1.count") into steps.
func parsePath(p string) ([]pathStep, error) {
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	var steps []pathStep
	for _, seg := range strings.Split(p, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name == "" && rest == "" {
			return nil, fmt.Errorf("path %q has an empty element", p)
		}
		if name != "" {
			if i, err := strconv.Atoi(name); err == nil {
				if i < 0 {
					return nil, fmt.Errorf("path %q: negative index %d", p, i)
				}
				steps = append(steps, pathStep{index: i})
			} else {
				steps = append(steps, pathStep{key: name, index: -1})
			}
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 {
				return nil, fmt.Errorf("path %q: expected [N] with N >= 0 in %q", p, seg)
			}
			steps = append(steps, pathStep{index: i})
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("path %q: unexpected %q after ]", p, after)
			}
			rest = after[1:]
		}
	}
	return steps, nil
}

// setPath stores v at path p in doc, creating missing mappings on the way;
// lists are never grown (an index past the end is an error).
func setPath(doc map[string]any, p string, v any) error {
	steps, err := parsePath(p)
	if err != nil {
		return err
	}
	if steps[0].index >= 0 {
		return fmt.Errorf("path %q must start with a key", p)
	}
	var cur any = doc
	for i, st := range steps {
		last := i == len(steps)-1
		where := describePath(steps[:i])
		switch c := cur.(type) {
		case map[string]any:
			if st.index >= 0 {
				return fmt.Errorf("path %q: %s is a mapping, not a list", p, where)
			}
			if last {
				c[st.key] = v
				return nil
			}
			next, ok := c[st.key]
			if !ok || next == nil {
				next = map[string]any{}
				if steps[i+1].index >= 0 {
					return fmt.Errorf("path %q: %s has no list to index", p, describePath(steps[:i+1]))
				}
				c[st.key] = next
			}
			cur = next
		case []any:
			if st.index < 0 {
				return fmt.Errorf("path %q: %s is a list; use [N] to pick an item", p, where)
			}
			if st.index >= len(c) {
				return fmt.Errorf("path %q: index %d is out of range (%s has %d items)", p, st.index, where, len(c))
			}
			if last {
				c[st.index] = v
				return nil
			}
			cur = c[st.index]
		default:
			return fmt.Errorf("path %q: %s is a value (%v), not a mapping or list", p, where, c)
		}
	}
	return nil
}

func describePath(steps []pathStep) string {
	if len(steps) == 0 {
		return "the document"
	}
	var b strings.Builder
	for i, st := range steps {
		if st.index >= 0 {
			fmt.Fprintf(&b, "[%d]", st.index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(st.key)
	}
	return b.String()
}

// deepCopy copies the maps and lists of a generic YAML value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}
