package scenario

import (
	"strings"

	"github.com/netsched/netsched/internal/didyoumean"
	"github.com/netsched/netsched/internal/textread"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/netsched/netsched/workload"
)

// Pattern names as written in files.
var patternNames = map[string]workload.Pattern{
	"scatter-gather": workload.ScatterGather,
	"broadcast":      workload.Broadcast,
	"one-to-one":     workload.OneToOne,
}

var depKeys = []string{"stage", "slowstart", "pattern"}

// UnmarshalYAML accepts `after: map`, `after: [map, join]` and lists whose
// entries are stage names or {stage, slowstart, pattern} mappings.
func (l *DepList) UnmarshalYAML(n ast.Node) error {
	n = unwrap(n)
	*l = nil
	if _, isNull := n.(*ast.NullNode); isNull {
		return nil
	}
	if seq, ok := n.(*ast.SequenceNode); ok {
		for _, e := range seq.Values {
			d, err := unmarshalDep(unwrap(e))
			if err != nil {
				return err
			}
			*l = append(*l, d)
		}
		return nil
	}
	d, err := unmarshalDep(n)
	if err != nil {
		return err
	}
	*l = DepList{d}
	return nil
}

func unmarshalDep(n ast.Node) (DepSpec, error) {
	if s, ok := n.(*ast.StringNode); ok {
		if s.Value == "" {
			return DepSpec{}, errAt(n, "expected a stage id, got an empty string")
		}
		return DepSpec{Stage: s.Value}, nil
	}
	m, ok := n.(*ast.MappingNode)
	if !ok {
		if text, isScalar := scalarText(n); isScalar {
			return DepSpec{Stage: text}, nil // a numeric stage id such as `after: 1`
		}
		return DepSpec{}, errAt(n, "expected a stage id or a mapping {stage, slowstart, pattern}, got a %s", n.Type().YAMLName())
	}
	var d DepSpec
	for _, mv := range m.Values {
		k := keyString(mv.Key)
		v := unwrap(mv.Value)
		text, isScalar := scalarText(v)
		switch k {
		case "stage":
			if !isScalar || text == "" {
				return d, errAt(v, "expected a stage id")
			}
			d.Stage = text
		case "slowstart":
			if !isScalar {
				return d, errAt(v, "expected a fraction between 0 and 1, like 0.05")
			}
			f, err := parseNumber(text)
			if err != nil || f < 0 || f > 1 {
				return d, errAt(v, "expected a fraction between 0 and 1, like 0.05, got %s", text)
			}
			d.SlowStart = &f
		case "pattern":
			if _, known := patternNames[text]; !isScalar || !known {
				return d, errAt(v, "expected scatter-gather, broadcast or one-to-one, got %s", describeNode(v))
			}
			d.Pattern = text
		default:
			return d, errAt(mv.Key, "unknown key %q%s (expected one of: %s)", k, didyoumean.Suggest(k, depKeys), strings.Join(depKeys, ", "))
		}
	}
	if d.Stage == "" {
		return d, errAt(m, "a dependency mapping needs `stage:`")
	}
	return d, nil
}

// MarshalYAML writes the shortest form that reads back the same: a bare
// stage id for a single barrier, a list of ids for barriers, mappings for
// entries with a slow-start or a pattern.
func (l DepList) MarshalYAML() (any, error) {
	out := make([]any, len(l))
	for i, d := range l {
		if d.SlowStart == nil && d.Pattern == "" {
			out[i] = d.Stage
			continue
		}
		m := yaml.MapSlice{{Key: "stage", Value: d.Stage}}
		if d.SlowStart != nil {
			m = append(m, yaml.MapItem{Key: "slowstart", Value: *d.SlowStart})
		}
		if d.Pattern != "" {
			m = append(m, yaml.MapItem{Key: "pattern", Value: d.Pattern})
		}
		out[i] = m
	}
	if len(out) == 1 {
		if s, ok := out[0].(string); ok {
			return s, nil
		}
	}
	return out, nil
}

// toDeps converts the file form to the job model: an entry with a
// slow-start is a finishes-before edge, any other a barrier.
func (l DepList) toDeps() []workload.Dep {
	if len(l) == 0 {
		return nil
	}
	out := make([]workload.Dep, len(l))
	for i, d := range l {
		out[i] = workload.Dep{Stage: d.Stage, Kind: workload.StartsAfter, Pattern: patternNames[d.Pattern]}
		if d.SlowStart != nil {
			out[i].Kind = workload.FinishesBefore
			out[i].SlowStart = *d.SlowStart
		}
	}
	return out
}

func fromDeps(deps []workload.Dep) DepList {
	if len(deps) == 0 {
		return nil
	}
	out := make(DepList, len(deps))
	for i, d := range deps {
		out[i] = DepSpec{Stage: d.Stage}
		if d.Kind == workload.FinishesBefore {
			s := d.SlowStart
			out[i].SlowStart = &s
		}
		if d.Pattern != workload.ScatterGather {
			out[i].Pattern = d.Pattern.String()
		}
	}
	return out
}

func describeNode(n ast.Node) string {
	if text, ok := scalarText(n); ok {
		return `"` + textread.Excerpt(text) + `"`
	}
	return "a " + n.Type().YAMLName()
}

// UnmarshalYAML accepts `scheduler: fair` or `scheduler: {name: fair, params: {...}}`.
func (s *SchedulerSpec) UnmarshalYAML(n ast.Node) error {
	n = unwrap(n)
	if text, ok := scalarText(n); ok {
		if text == "" {
			return errAt(n, "expected a scheduler name, got an empty string (leave the key out for %s)", DefaultScheduler)
		}
		*s = SchedulerSpec{Name: text}
		return nil
	}
	m, ok := n.(*ast.MappingNode)
	if !ok {
		return errAt(n, "expected a scheduler name or a mapping {name, params}, got a %s", n.Type().YAMLName())
	}
	*s = SchedulerSpec{}
	for _, mv := range m.Values {
		k := keyString(mv.Key)
		v := unwrap(mv.Value)
		switch k {
		case "name":
			text, ok := scalarText(v)
			if !ok || text == "" {
				return errAt(v, "expected a scheduler name")
			}
			s.Name = text
		case "network":
			text, ok := scalarText(v)
			if !ok || text == "" {
				return errAt(v, "expected a network policy name (netsched schedulers lists them)")
			}
			s.Network = text
		case "params", "network_params":
			if _, isNull := v.(*ast.NullNode); isNull {
				continue
			}
			if _, isMap := v.(*ast.MappingNode); !isMap {
				return errAt(v, "expected a mapping of parameter names to values, got a %s", v.Type().YAMLName())
			}
			var p map[string]any
			if err := yaml.NodeToValue(v, &p); err != nil {
				return errAt(v, "%v", err)
			}
			if k == "params" {
				s.Params = p
			} else {
				s.NetworkParams = p
			}
		default:
			keys := []string{"name", "params", "network", "network_params"}
			return errAt(mv.Key, "unknown key %q%s (expected one of: %s)", k, didyoumean.Suggest(k, keys), strings.Join(keys, ", "))
		}
	}
	if s.Name == "" {
		return errAt(m, "a scheduler mapping needs `name:`")
	}
	return nil
}

// MarshalYAML writes a bare name when there are no parameters.
func (s SchedulerSpec) MarshalYAML() (any, error) {
	if len(s.Params) == 0 && s.Network == "" {
		return s.Name, nil
	}
	out := yaml.MapSlice{{Key: "name", Value: s.Name}}
	if len(s.Params) > 0 {
		out = append(out, yaml.MapItem{Key: "params", Value: s.Params})
	}
	if s.Network != "" {
		out = append(out, yaml.MapItem{Key: "network", Value: s.Network})
	}
	if len(s.NetworkParams) > 0 {
		out = append(out, yaml.MapItem{Key: "network_params", Value: s.NetworkParams})
	}
	return out, nil
}
