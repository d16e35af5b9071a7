package experiment

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/netsched/netsched/experiments"
	"github.com/netsched/netsched/outdir"
	"github.com/netsched/netsched/report"
)

// Catalog lists the reproduction catalog's entries as <paper>/<figure>.
func Catalog() []string { return experiments.List() }

// LoadCatalog reads one catalog entry.
func LoadCatalog(name string) (*Sweep, error) {
	if !slices.Contains(Catalog(), name) {
		return nil, fmt.Errorf("no experiment %q in the catalog (have: %s)", name, strings.Join(Catalog(), ", "))
	}
	return LoadFS(experiments.FS, name+".yaml")
}

// ReproduceOptions say where a reproduction writes.
type ReproduceOptions struct {
	Options          // Out: the sweep's results (default out/reproduce/<paper>/<figure>)
	ReportDir string // default docs/reproductions/<paper>/<figure>
}

// Reproduction is what Reproduce did.
type Reproduction struct {
	Sweep   *Sweep
	Outcome *Outcome
	Report  *report.Output
}

// Reproduce runs a catalog entry and writes its report, with a copy of the
// tidy table and the sweep file, into the report directory.
func Reproduce(name string, opts ReproduceOptions) (*Reproduction, error) {
	sw, err := LoadCatalog(name)
	if err != nil {
		return nil, err
	}
	if opts.Out == "" {
		opts.Out = filepath.Join("out", "reproduce", filepath.FromSlash(name))
	}
	if opts.ReportDir == "" {
		opts.ReportDir = filepath.Join("docs", "reproductions", filepath.FromSlash(name))
	}
	if !opts.Shard.Whole() {
		return nil, fmt.Errorf("reproduce runs the whole sweep; for shards use `netsched sweep` on experiments/%s.yaml, then merge and report", name)
	}
	out, err := Run(sw, opts.Options)
	if err != nil {
		return nil, err
	}
	res := report.NewResults(opts.Out, out.Table)
	rep, err := report.Generate(res, report.Options{
		Out: opts.ReportDir, Baseline: sw.Report.Baseline, At: sw.Report.At,
		Title: "Reproduction " + name + ": " + sw.Name, Description: sw.Description,
	})
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(experiments.FS, name+".yaml")
	if err != nil {
		return nil, err
	}
	extra := []outdir.File{{Name: "results.csv", Data: out.Table.CSV()}, {Name: "sweep.yaml", Data: src}}
	if err := outdir.Write(opts.ReportDir, extra); err != nil {
		return nil, err
	}
	rep.Files = append(rep.Files, outdir.Names(extra)...)
	return &Reproduction{Sweep: sw, Outcome: out, Report: rep}, nil
}
