package experiment

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/scenario"
)

// BuiltinDefault in `scenario:` names the embedded default scenario.
const BuiltinDefault = "@default"

// opener reads the scenario a sweep file refers to: its bytes, the name for
// messages and the directory its relative trace paths start from.
type opener func(ref string) (data []byte, name, baseDir string, err error)

// Load reads a sweep file; paths in it (`scenario:`, and the traces of an
// inline `base:`) are relative to the file.
func Load(file string) (*Sweep, error) {
	data, err := textread.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data, filepath.Dir(file))
}

// Parse reads a sweep file held in memory; name is used in messages and dir
// anchors its relative paths. Every error names the file, a line and a
// column (a *scenario.Error), or the scenario file it refers to.
func Parse(name string, data []byte, dir string) (*Sweep, error) {
	return parse(name, data, dir, func(ref string) ([]byte, string, string, error) {
		p := ref
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, ref)
		}
		data, err := textread.ReadFile(p)
		return data, p, filepath.Dir(p), err
	})
}

// LoadFS reads a sweep file from fsys (the embedded catalog): its
// `scenario:` path is relative to the file inside fsys, and trace paths
// are relative to the working directory (the repository root, for the
// catalog).
func LoadFS(fsys fs.FS, file string) (*Sweep, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, err
	}
	return parse(file, data, ".", func(ref string) ([]byte, string, string, error) {
		p := path.Join(path.Dir(file), ref)
		data, err := fs.ReadFile(fsys, p)
		return data, p, ".", err
	})
}

// sweepKeys are the keys a sweep file may have.
var sweepKeys = []string{"name", "description", "scenario", "base", "schedulers", "seeds", "grid", "metrics", "record", "report"}

// parse reads a sweep file; inline bases resolve traces from baseDir and
// open reads a referenced scenario.
func parse(name string, data []byte, baseDir string, open opener) (*Sweep, error) {
	d, err := parseYAML(name, data)
	if err != nil {
		return nil, err
	}
	if d.body == nil {
		return nil, d.errAt(nil, "", "the file is empty; expected a mapping with scenario (or base), schedulers, seeds and grid")
	}
	entries, err := d.mapping(d.body, "")
	if err != nil {
		return nil, err
	}
	sw := &Sweep{Path: name, Record: Record{Tasks: "auto", Timeline: true}}
	byKey := map[string]entry{}
	for _, e := range entries {
		if !slices.Contains(sweepKeys, e.key) {
			return nil, d.errAt(e.keyN, e.key, "unknown key %q (expected one of: %s)", e.key, strings.Join(sweepKeys, ", "))
		}
		byKey[e.key] = e
	}
	if err := sw.parseBase(d, byKey, baseDir, open); err != nil {
		return nil, err
	}
	steps := []struct {
		key   string
		parse func(*doc, ast.Node) error
	}{
		{"name", func(d *doc, n ast.Node) (err error) { sw.Name, err = d.scalar(n, "name", "a name"); return }},
		{"description", func(d *doc, n ast.Node) (err error) {
			sw.Description, err = d.scalar(n, "description", "a line of text")
			return
		}},
		{"schedulers", sw.parseSchedulers},
		{"seeds", sw.parseSeeds},
		{"grid", sw.parseGrid},
		{"metrics", sw.parseMetrics},
		{"record", sw.parseRecord},
		{"report", sw.parseReport},
	}
	for _, st := range steps {
		if e, ok := byKey[st.key]; ok {
			if err := st.parse(d, e.value); err != nil {
				return nil, err
			}
		}
	}
	if sw.Name == "" {
		sw.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	if len(sw.Metrics) == 0 {
		sw.Metrics = slices.Clone(DefaultMetrics)
	}
	return sw, nil
}

func (sw *Sweep) parseBase(d *doc, byKey map[string]entry, baseDir string, open opener) error {
	ref, hasRef := byKey["scenario"]
	base, hasBase := byKey["base"]
	switch {
	case hasRef && hasBase:
		return d.errAt(base.keyN, "base", "give either scenario (a file) or base (an inline scenario), not both")
	case !hasRef && !hasBase:
		return d.errAt(d.body, "", "missing scenario: expected `scenario: path/to/scenario.yaml` (or %s) or an inline `base:` scenario", BuiltinDefault)
	case hasBase:
		v, err := d.value(base.value, "base")
		if err != nil {
			return err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return d.errAt(base.value, "base", "expected a scenario mapping, got %s", describe(base.value))
		}
		sw.Base, sw.BaseName, sw.BaseDir = m, d.name+" (base)", baseDir
		return nil
	}
	file, err := d.scalar(ref.value, "scenario", "a scenario file path")
	if err != nil {
		return err
	}
	var data []byte
	if file == BuiltinDefault {
		data, sw.BaseName, sw.BaseDir = scenario.DefaultYAML(), "default.yaml", ""
	} else if data, sw.BaseName, sw.BaseDir, err = open(file); err != nil {
		return d.errAt(ref.value, "scenario", "cannot read the scenario: %v", err)
	}
	// Check the base where its errors have true line numbers: in its file.
	if _, err := scenario.ParseFile(sw.BaseName, data); err != nil {
		return err
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("%s: %w", sw.BaseName, err)
	}
	sw.Base = m
	return nil
}
