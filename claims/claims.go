// Package claims turns the quantitative statements of the papers that
// netsched reproduces into data, and judges each one against a
// reproduction's results table.
//
// A paper's claims live beside its catalog entries, in
// experiment/catalog/<paper>/claims.yaml. Each claim names a catalog entry,
// a metric, the cells it compares and what the paper says: a ratio between
// two cells (treatment over baseline), a trend along a grid axis (the last
// value over the first), or a value of one cell. Evaluate computes
// netsched's side with package stats (paired by seed, geometric mean with
// its 95% interval) and the verdict by fixed rules (see Verdict), so no
// verdict is typed by hand.
package claims

import (
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// Kinds of claim.
const (
	KindRatio = "ratio" // treatment cell over baseline cell, paired by seed
	KindTrend = "trend" // the same cell's value at the axis' last point over its first
	KindValue = "value" // one cell's mean
)

// Default tolerances (a claim may set its own, with a reason).
const (
	// DefaultEffectTolerance: a ratio or trend is reproduced when netsched's
	// interval of the log-ratio meets the paper's log-ratio within ±50% of
	// its size (a paper's -27% counts for -14.5% to -37.6%).
	DefaultEffectTolerance = 0.5
	// DefaultValueTolerance: a value is reproduced when netsched's interval
	// meets the paper's value within ±10% of it.
	DefaultValueTolerance = 0.1
)

// File is one paper's claims.yaml.
type File struct {
	Paper  string  `yaml:"paper"`  // the catalog directory: css, dawn, jobpacker, nas, pushbox
	Title  string  `yaml:"title"`  // the paper, as cited on its page
	Page   string  `yaml:"page"`   // the page that explains the reproduction, relative to docs/reproductions
	Claims []Claim `yaml:"claims"` // in the page's order
}

// Claim is one quantitative statement of a paper and the cells that test it.
type Claim struct {
	ID     string `yaml:"id"`     // unique within the paper
	Figure string `yaml:"figure"` // "Fig. 4a", "Table 3", "§5.2"
	Entry  string `yaml:"entry"`  // the catalog entry within the paper's directory ("testbed")
	Says   string `yaml:"says"`   // the paper's statement, in one sentence
	Metric string `yaml:"metric"` // a metric of the entry's results.csv
	Kind   string `yaml:"kind"`   // ratio, trend or value

	At      map[string]string `yaml:"at"`      // grid point shared by every cell of the claim
	Cell    Select            `yaml:"cell"`    // the treatment (ratio), the one cell (value, trend)
	Against *Select           `yaml:"against"` // ratio: the baseline
	Along   *Axis             `yaml:"along"`   // trend: the axis and its two ends

	// Paper is what the paper reports: a number (the ratio, the trend's
	// last/first, or the value) or, when the paper gives only a direction,
	// "lower", "higher" or "same". Bound (value claims) is "at-least" or
	// "at-most" when the paper states a bound ("over 96%").
	Paper string `yaml:"paper"`
	Bound string `yaml:"bound"`

	Tolerance    *float64 `yaml:"tolerance"`     // overrides the default of its kind
	ToleranceWhy string   `yaml:"tolerance_why"` // required with Tolerance
	Section      string   `yaml:"section"`       // the page's anchor that explains a difference
	Note         string   `yaml:"note"`          // what differs from the paper's setting, shown beside the verdict
}

// Select picks cells of a results table: a scheduler label and grid values
// (added to the claim's At).
type Select struct {
	Scheduler string            `yaml:"scheduler"`
	At        map[string]string `yaml:"at"`
}

// Axis is a trend's grid parameter and the values it runs from and to, as
// written in results.csv.
type Axis struct {
	Param string `yaml:"param"`
	From  string `yaml:"from"`
	To    string `yaml:"to"`
}

// Parse reads a claims file and checks every field that needs no results.
func Parse(name string, data []byte) (*File, error) {
	var f File
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("%s: %s", name, yaml.FormatError(err, false, true))
	}
	if f.Paper == "" || f.Page == "" || f.Title == "" {
		return nil, fmt.Errorf("%s: paper, title and page are required", name)
	}
	seen := map[string]bool{}
	for i := range f.Claims {
		c := &f.Claims[i]
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: claim %d (%q): %w", name, i+1, c.ID, err)
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("%s: claim id %q appears twice", name, c.ID)
		}
		seen[c.ID] = true
	}
	return &f, nil
}

func (c *Claim) check() error {
	switch {
	case c.ID == "" || strings.ContainsAny(c.ID, " ,/"):
		return fmt.Errorf("id %q: expected a word of letters, digits and dashes", c.ID)
	case c.Figure == "" || c.Entry == "" || c.Says == "" || c.Metric == "":
		return fmt.Errorf("figure, entry, says and metric are required")
	case c.Cell.Scheduler == "":
		return fmt.Errorf("cell.scheduler is required")
	}
	if c.Tolerance != nil && (c.ToleranceWhy == "" || *c.Tolerance <= 0 || math.IsNaN(*c.Tolerance)) {
		return fmt.Errorf("tolerance %v: expected a positive number with tolerance_why saying why the default does not fit", *c.Tolerance)
	}
	if _, _, err := c.paperValue(); err != nil {
		return err
	}
	switch c.Kind {
	case KindRatio:
		if c.Against == nil || c.Against.Scheduler == "" {
			return fmt.Errorf("a ratio claim needs against.scheduler")
		}
		if c.Along != nil || c.Bound != "" {
			return fmt.Errorf("a ratio claim takes neither along nor bound")
		}
	case KindTrend:
		if c.Along == nil || c.Along.Param == "" || c.Along.From == "" || c.Along.To == "" {
			return fmt.Errorf("a trend claim needs along: {param, from, to}")
		}
		if c.Against != nil || c.Bound != "" {
			return fmt.Errorf("a trend claim takes neither against nor bound")
		}
	case KindValue:
		if c.Against != nil || c.Along != nil {
			return fmt.Errorf("a value claim takes neither against nor along")
		}
		if _, dir, _ := c.paperValue(); dir != 0 || c.Paper == "same" {
			return fmt.Errorf("a value claim needs a number in paper, got %q", c.Paper)
		}
		if c.Bound != "" && c.Bound != "at-least" && c.Bound != "at-most" {
			return fmt.Errorf("bound %q: expected at-least or at-most", c.Bound)
		}
	default:
		return fmt.Errorf("kind %q: expected ratio, trend or value", c.Kind)
	}
	return nil
}

// paperValue is the paper's number (NaN when it gives only a direction)
// and, for a direction word, its sign (-1 lower, +1 higher, 0 same).
func (c *Claim) paperValue() (v float64, dir int, err error) {
	switch c.Paper {
	case "lower":
		return math.NaN(), -1, nil
	case "higher":
		return math.NaN(), 1, nil
	case "same":
		return math.NaN(), 0, nil
	}
	v, err = strconv.ParseFloat(c.Paper, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, 0, fmt.Errorf("paper %q: expected a number, or lower, higher or same", c.Paper)
	}
	if c.Kind != KindValue && v <= 0 {
		return 0, 0, fmt.Errorf("paper %q: a ratio is positive", c.Paper)
	}
	return v, 0, nil
}

// tolerance is the claim's own or its kind's default.
func (c *Claim) tolerance() float64 {
	if c.Tolerance != nil {
		return *c.Tolerance
	}
	if c.Kind == KindValue {
		return DefaultValueTolerance
	}
	return DefaultEffectTolerance
}

// ClaimsFile is the name of a paper's claims in its catalog directory.
const ClaimsFile = "claims.yaml"

// Load reads every <paper>/claims.yaml of a catalog, sorted by paper.
func Load(catalog fs.FS) ([]*File, error) {
	names, err := fs.Glob(catalog, "*/"+ClaimsFile)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []*File
	for _, n := range names {
		data, err := fs.ReadFile(catalog, n)
		if err != nil {
			return nil, err
		}
		f, err := Parse("experiment/catalog/"+n, data)
		if err != nil {
			return nil, err
		}
		if want := path.Dir(n); f.Paper != want {
			return nil, fmt.Errorf("experiment/catalog/%s: paper %q, expected %q (its directory)", n, f.Paper, want)
		}
		out = append(out, f)
	}
	return out, nil
}

// Entries lists the catalog entries (paper/figure) the files' claims read, sorted.
func Entries(files []*File) []string {
	var out []string
	for _, f := range files {
		for _, c := range f.Claims {
			e := f.Paper + "/" + c.Entry
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out
}
