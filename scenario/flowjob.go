package scenario

import (
	"strconv"
	"strings"
	"sync"

	"github.com/netsched/netsched/workload"
)

// A list item written on one line in flow style, as generated scenarios
// write them ({id: j1, arrival: 2s, stages: [{id: m, tasks: [...]}]}), is
// decoded here without the YAML library when it uses only the plainest
// forms: known keys, each once; ids made of letters, digits, _ . and -;
// numbers and sizes as digits with a unit; no quotes, no comments, no empty
// lists. Anything else returns ok=false and goes to the library, which
// also reports every error. Tests decode items both ways and compare.

// fnode is a flow value: a scalar, a mapping or a list.
type fnode struct {
	scalar string
	keys   []string
	vals   []fnode
	kind   byte // 's', 'm' or 'l'
}

// flowParser reads one flow value; any form it does not know stops it.
// A parser is reused from item to item (flowParsers), so that the nodes
// of an item cost no allocation: they live in its stacks and arena, which
// are only valid until the next item.
type flowParser struct {
	s   []byte
	i   int
	bad bool

	keys   []string // keys and values of the collections being read
	vals   []fnode
	arena  []fnode // children of the collections read, in the nodes' vals
	karena []string
	words  map[string]string // short scalars seen, shared to save allocations
}

var flowParsers = sync.Pool{New: func() any { return &flowParser{words: map[string]string{}} }}

// maxWords bounds flowParser.words.
const maxWords = 512

func (p *flowParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func isPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '/'
}

// close makes the entries of the collection that started at base in the
// stacks the children of n, and pops them.
func (p *flowParser) close(n *fnode, base int) {
	a := len(p.arena)
	p.arena = append(p.arena, p.vals[base:]...)
	n.vals = p.arena[a:len(p.arena):len(p.arena)]
	if n.kind == 'm' {
		k := len(p.karena)
		p.karena = append(p.karena, p.keys[base:]...)
		n.keys = p.karena[k:len(p.karena):len(p.karena)]
	}
	p.vals, p.keys = p.vals[:base], p.keys[:base]
}

func (p *flowParser) value(depth int) fnode {
	if depth > 8 || p.i >= len(p.s) {
		p.bad = true
		return fnode{}
	}
	switch p.s[p.i] {
	case '{':
		p.i++
		n := fnode{kind: 'm'}
		base := len(p.vals)
		for !p.bad {
			p.space()
			k := p.word()
			if k == "" || p.i+1 >= len(p.s) || p.s[p.i] != ':' || p.s[p.i+1] != ' ' {
				p.bad = true
				break
			}
			for _, seen := range p.keys[base:] {
				if seen == k {
					p.bad = true
				}
			}
			p.i += 2
			p.space()
			p.keys = append(p.keys, k)
			p.vals = append(p.vals, fnode{}) // held while the value is read
			v := p.value(depth + 1)
			p.vals[len(p.vals)-1] = v
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				p.close(&n, base)
				return n
			}
			p.bad = true
		}
		p.close(&n, base)
		return n
	case '[':
		p.i++
		n := fnode{kind: 'l'}
		base := len(p.vals)
		for !p.bad {
			p.space()
			p.keys = append(p.keys, "")
			p.vals = append(p.vals, fnode{})
			v := p.value(depth + 1)
			p.vals[len(p.vals)-1] = v
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				p.close(&n, base)
				return n
			}
			p.bad = true
		}
		p.close(&n, base)
		return n
	}
	w := p.word()
	if w == "" {
		p.bad = true
	}
	return fnode{kind: 's', scalar: w}
}

func (p *flowParser) word() string {
	start := p.i
	for p.i < len(p.s) && isPlain(p.s[p.i]) {
		p.i++
	}
	b := p.s[start:p.i]
	if w, ok := p.words[string(b)]; ok {
		return w
	}
	w := string(b)
	if len(p.words) < maxWords && len(w) <= 16 {
		p.words[w] = w
	}
	return w
}

// decodeFlowJob decodes one item's text (after its dash) into js.
func decodeFlowJob(text []byte, js *JobSpec) bool {
	p := flowParsers.Get().(*flowParser)
	defer flowParsers.Put(p)
	p.s, p.i, p.bad = text, 0, false
	p.keys, p.vals, p.arena, p.karena = p.keys[:0], p.vals[:0], p.arena[:0], p.karena[:0]
	defer func() { p.s = nil }()
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return false
	}
	n := p.value(0)
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '\n' {
		p.i++
	}
	if p.bad || p.i != len(p.s) {
		return false
	}
	return flowJob(n, js)
}

// yamlWords are plain scalars YAML may read as something else than text.
var yamlWords = map[string]bool{"true": true, "false": true, "null": true, "yes": true, "no": true, "on": true, "off": true, "y": true, "n": true,
	"inf": true, "nan": true, "infinity": true}

// flowID is a scalar that is text to YAML: it starts with a letter or _
// and is not a YAML keyword.
func flowID(n fnode) (string, bool) {
	if n.kind != 's' || n.scalar == "" {
		return "", false
	}
	c := n.scalar[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') || yamlWords[strings.ToLower(n.scalar)] || strings.Contains(n.scalar, "/") {
		return "", false
	}
	return n.scalar, true
}

// flowNumber is a scalar of decimal digits with at most one point.
func flowNumber(n fnode) (string, bool) {
	s := n.scalar
	if n.kind != 's' || s == "" || s[0] < '0' || s[0] > '9' {
		return "", false
	}
	if len(s) > 1 && s[0] == '0' && s[1] != '.' {
		return "", false // octal to some readers
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i+1 < len(s):
			dot = true
		default:
			return "", false
		}
	}
	return s, true
}

// flowQuantity is a number with an optional unit of letters and /.
func flowQuantity(n fnode) (string, bool) {
	s := n.scalar
	if n.kind != 's' || s == "" || s[0] < '0' || s[0] > '9' {
		return "", false
	}
	k := 0
	for k < len(s) && (s[k] >= '0' && s[k] <= '9' || s[k] == '.') {
		k++
	}
	if _, ok := flowNumber(fnode{kind: 's', scalar: s[:k]}); !ok {
		return "", false
	}
	for _, c := range s[k:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/') {
			return "", false
		}
	}
	return s, true
}

func flowFloat(n fnode, v *float64) bool {
	s, ok := flowNumber(n)
	if !ok {
		return false
	}
	f, err := parseNumber(s)
	*v = f
	return err == nil
}

func flowInt(n fnode, v *int) bool {
	s, ok := flowNumber(n)
	if !ok || strings.Contains(s, ".") || len(s) > 9 {
		return false
	}
	i, err := strconv.Atoi(s)
	*v = i
	return err == nil
}

func flowUnit(n fnode, u interface{ UnmarshalText([]byte) error }) bool {
	s, ok := flowQuantity(n)
	return ok && u.UnmarshalText([]byte(s)) == nil
}

func flowDist(n fnode, d *workload.Dist, q quantity) bool {
	s, ok := flowQuantity(n)
	if !ok {
		return false
	}
	v, err := q.parse(s)
	if err != nil || v < 0 || v > q.max {
		return false
	}
	*d = workload.Dist{Kind: workload.Const, A: v}
	return true
}

func flowIDs(n fnode) ([]string, bool) {
	if n.kind != 'l' || len(n.vals) == 0 {
		return nil, false
	}
	out := make([]string, len(n.vals))
	for i, v := range n.vals {
		id, ok := flowID(v)
		if !ok {
			return nil, false
		}
		out[i] = id
	}
	return out, true
}

func flowJob(n fnode, js *JobSpec) bool {
	if n.kind != 'm' {
		return false
	}
	for i, k := range n.keys {
		v, ok := n.vals[i], false
		switch k {
		case "id":
			js.ID, ok = flowID(v)
		case "arrival":
			ok = flowUnit(v, &js.Arrival)
		case "user":
			js.User, ok = flowID(v)
		case "queue":
			js.Queue, ok = flowID(v)
		case "class":
			js.Class, ok = flowID(v)
		case "after":
			js.After, ok = flowIDs(v)
		case "recurring":
			ok = v.kind == 's' && (v.scalar == "true" || v.scalar == "false")
			js.Recurring = v.scalar == "true"
		case "stages":
			if v.kind != 'l' || len(v.vals) == 0 {
				return false
			}
			js.Stages = make([]StageSpec, len(v.vals))
			ok = true
			for k := range v.vals {
				ok = ok && flowStage(v.vals[k], &js.Stages[k])
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func flowStage(n fnode, s *StageSpec) bool {
	if n.kind != 'm' {
		return false
	}
	for i, k := range n.keys {
		v, ok := n.vals[i], false
		switch k {
		case "id":
			s.ID, ok = flowID(v)
		case "after":
			var ids []string
			if id, one := flowID(v); one {
				ids, ok = []string{id}, true
			} else {
				ids, ok = flowIDs(v)
			}
			for _, id := range ids {
				s.After = append(s.After, DepSpec{Stage: id})
			}
		case "tasks":
			if v.kind != 'l' || len(v.vals) == 0 {
				return false
			}
			s.Tasks = make([]TaskSpec, len(v.vals))
			ok = true
			for k := range v.vals {
				ok = ok && flowTask(v.vals[k], &s.Tasks[k])
			}
		case "count":
			ok = flowInt(v, &s.Count)
		case "input":
			ok = flowDist(v, (*workload.Dist)(&s.Input), sizeQ)
		case "share":
			ok = flowDist(v, (*workload.Dist)(&s.Share), numberQ)
		case "compute":
			ok = flowDist(v, (*workload.Dist)(&s.Compute), durationQ)
		case "output":
			ok = flowDist(v, (*workload.Dist)(&s.Output), sizeQ)
		case "rate":
			ok = flowUnit(v, &s.Rate)
		case "output_ratio":
			ok = flowFloat(v, &s.OutputRatio)
		}
		if !ok {
			return false
		}
	}
	return true
}

func flowTask(n fnode, t *TaskSpec) bool {
	if n.kind != 'm' {
		return false
	}
	for i, k := range n.keys {
		v, ok := n.vals[i], false
		switch k {
		case "input":
			ok = flowUnit(v, &t.Input)
		case "share":
			var share float64
			if ok = flowFloat(v, &share); ok {
				t.Share = &share
			}
		case "compute":
			ok = flowUnit(v, &t.Compute)
		case "rate":
			ok = flowUnit(v, &t.Rate)
		case "output":
			ok = flowUnit(v, &t.Output)
		case "output_ratio":
			ok = flowFloat(v, &t.OutputRatio)
		case "pin":
			var pin int
			if ok = flowInt(v, &pin); ok {
				t.Pin = &pin
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
