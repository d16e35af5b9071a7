package scenario

import (
	"github.com/netsched/netsched/internal/didyoumean"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/workload"
)

// BytesDist, DurationDist and NumberDist are distributions written either as
// a constant ("128MB", "2s", 1.5) or as a mapping such as
// {dist: uniform, min: 64MB, max: 256MB}. Sizes and durations take human
// units; sigma, shape and exponent are plain numbers. The zero value is the
// constant 0 and means "not given".
type (
	BytesDist    workload.Dist
	DurationDist workload.Dist
	NumberDist   workload.Dist
)

// quantity is what the values of one kind of distribution measure.
type quantity struct {
	what   string  // for messages
	max    float64 // the largest value accepted (workload's limits)
	parse  func(string) (float64, error)
	format func(float64) any
	zipf   bool // rank weights only make sense for unitless shares
}

var (
	sizeQ     = quantity{what: "size", max: workload.MaxBytes, parse: units.ParseBytes, format: func(v float64) any { return exactBytes(v) }}
	durationQ = quantity{what: "duration", max: workload.MaxSeconds, parse: units.ParseDuration, format: func(v float64) any { return exactDuration(v) }}
	numberQ   = quantity{what: "number", max: workload.MaxShare, parse: parseNumber, format: func(v float64) any { return v }, zipf: true}
)

// parseNumber reads a plain number with units.ParseNumber, the one reader
// of every spelling of a number.
func parseNumber(s string) (float64, error) { return units.ParseNumber(s) }

// distParams lists, per family, the YAML keys that set A and B ("" = unused)
// and whether each is a quantity (true) or a plain number (false).
var distParams = map[workload.DistKind][2]struct {
	key      string
	quantity bool
}{
	workload.Const:       {{"value", true}, {"", false}},
	workload.Uniform:     {{"min", true}, {"max", true}},
	workload.Exponential: {{"mean", true}, {"", false}},
	workload.LogNormal:   {{"median", true}, {"sigma", false}},
	workload.Pareto:      {{"scale", true}, {"shape", false}},
	workload.Zipf:        {{"exponent", false}, {"", false}},
}

var distKinds = []workload.DistKind{workload.Const, workload.Uniform, workload.Exponential, workload.LogNormal, workload.Pareto, workload.Zipf}

var distKeys = []string{"dist", "value", "min", "max", "mean", "median", "sigma", "scale", "shape", "exponent"}

func (d *BytesDist) UnmarshalYAML(n ast.Node) error {
	return unmarshalDist((*workload.Dist)(d), n, sizeQ)
}

func (d *DurationDist) UnmarshalYAML(n ast.Node) error {
	return unmarshalDist((*workload.Dist)(d), n, durationQ)
}

func (d *NumberDist) UnmarshalYAML(n ast.Node) error {
	return unmarshalDist((*workload.Dist)(d), n, numberQ)
}

func (d BytesDist) MarshalYAML() (any, error) { return marshalDist(workload.Dist(d), sizeQ), nil }
func (d DurationDist) MarshalYAML() (any, error) {
	return marshalDist(workload.Dist(d), durationQ), nil
}
func (d NumberDist) MarshalYAML() (any, error) { return marshalDist(workload.Dist(d), numberQ), nil }

// IsZero lets `omitempty` drop a distribution that was not given.
func (d BytesDist) IsZero() bool    { return d == BytesDist{} }
func (d DurationDist) IsZero() bool { return d == DurationDist{} }
func (d NumberDist) IsZero() bool   { return d == NumberDist{} }

func unmarshalDist(d *workload.Dist, n ast.Node, q quantity) error {
	n = unwrap(n)
	if m, ok := n.(*ast.MappingNode); ok {
		return unmarshalDistMap(d, m, q)
	}
	text, ok := scalarText(n)
	if !ok {
		return errAt(n, "expected a %s or a mapping like {dist: uniform, min: ..., max: ...}, got a %s", q.what, n.Type().YAMLName())
	}
	v, err := parseQuantity(n, text, q)
	if err != nil {
		return err
	}
	*d = workload.Dist{Kind: workload.Const, A: v}
	return nil
}

func unmarshalDistMap(d *workload.Dist, m *ast.MappingNode, q quantity) error {
	vals := map[string]ast.Node{}
	var order []string
	for _, mv := range m.Values {
		k := keyString(mv.Key)
		if !contains(distKeys, k) {
			return errAt(mv.Key, "unknown key %q%s (expected one of: %s)", k, didyoumean.Suggest(k, distKeys), strings.Join(distKeys, ", "))
		}
		vals[k] = mv.Value
		order = append(order, k)
	}
	kn, ok := vals["dist"]
	if !ok {
		return errAt(m, "a distribution mapping needs `dist:` (one of %s)", kindList())
	}
	ks, _ := scalarText(unwrap(kn))
	kind := workload.DistKind(ks)
	params, known := distParams[kind]
	if !known {
		return errAt(kn, "unknown distribution %q (expected one of %s)", ks, kindList())
	}
	if kind == workload.Zipf && !q.zipf {
		return errAt(kn, "zipf gives rank weights and is only allowed for share")
	}
	for _, k := range order {
		if k != "dist" && k != params[0].key && k != params[1].key {
			return errAt(vals[k], "%s does not apply to the %s distribution (it takes %s)", k, kind, paramNames(kind))
		}
	}
	var ab [2]float64
	var texts [2]string
	for i, p := range params {
		if p.key == "" {
			continue
		}
		pn, ok := vals[p.key]
		if !ok {
			return errAt(m, "the %s distribution needs %s", kind, paramNames(kind))
		}
		text, ok := scalarText(unwrap(pn))
		if !ok {
			return errAt(pn, "expected a %s, got a %s", pq(p.quantity, q).what, pn.Type().YAMLName())
		}
		v, err := parseQuantity(pn, text, pq(p.quantity, q))
		if err != nil {
			return err
		}
		ab[i], texts[i] = v, text
	}
	if kind == workload.Uniform && ab[0] > ab[1] {
		return errAt(m, "uniform needs min <= max, got min %s > max %s", texts[0], texts[1])
	}
	*d = workload.Dist{Kind: kind, A: ab[0], B: ab[1]}
	if err := d.Validate(); err != nil {
		return errAt(m, "%v", err)
	}
	return nil
}

func parseQuantity(n ast.Node, text string, q quantity) (float64, error) {
	v, err := q.parse(text)
	if err != nil {
		return 0, errAt(n, "%v", err)
	}
	if v < 0 {
		return 0, errAt(n, "%s %s is negative; expected a value >= 0", q.what, text)
	}
	if v > q.max {
		return 0, errAt(n, "%s %s is beyond the limit %g; expected a value <= %g", q.what, text, q.max, q.max)
	}
	return v, nil
}

// pq is the quantity of a parameter: the distribution's own, or a number.
func pq(isQuantity bool, q quantity) quantity {
	if isQuantity {
		return q
	}
	return numberQ
}

func paramNames(k workload.DistKind) string {
	p := distParams[k]
	if p[1].key == "" {
		return p[0].key
	}
	return p[0].key + " and " + p[1].key
}

func kindList() string {
	s := make([]string, len(distKinds))
	for i, k := range distKinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

func marshalDist(d workload.Dist, q quantity) any {
	if d.Kind == "" || d.Kind == workload.Const {
		return q.format(d.A)
	}
	p := distParams[d.Kind]
	out := yaml.MapSlice{{Key: "dist", Value: string(d.Kind)}}
	for i, v := range []float64{d.A, d.B} {
		if p[i].key == "" {
			continue
		}
		if p[i].quantity {
			out = append(out, yaml.MapItem{Key: p[i].key, Value: q.format(v)})
		} else {
			out = append(out, yaml.MapItem{Key: p[i].key, Value: v})
		}
	}
	return out
}

// unwrap looks through tags and anchors to the value node.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return n
		}
	}
}

// scalarText returns a scalar's text; ok is false for collections and null.
func scalarText(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return n.GetToken().Value, true
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exactBytes formats a size in human units when that reads back exactly,
// otherwise as a plain number of bytes, so that encoding never loses data.
func exactBytes(v float64) string {
	if s := units.FormatBytes(v); roundTrips(s, v, units.ParseBytes) {
		return s
	}
	// Binary sizes (64MiB block sizes) are common too.
	for _, p := range []struct {
		name string
		mul  float64
	}{{"Pi", 1 << 50}, {"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if v >= p.mul {
			if s := strconv.FormatFloat(v/p.mul, 'f', -1, 64) + p.name + "B"; len(s) <= 12 && roundTrips(s, v, units.ParseBytes) {
				return s
			}
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func exactDuration(v float64) string {
	if s := units.FormatDuration(v); roundTrips(s, v, units.ParseDuration) {
		return s
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func exactRate(v float64) string {
	if s := units.FormatRate(v); roundTrips(s, v, units.ParseRate) {
		return s
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "B/s"
}

func roundTrips(s string, v float64, parse func(string) (float64, error)) bool {
	back, err := parse(s)
	return err == nil && back == v
}
