package experiment

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/report"
	"github.com/netsched/netsched/scenario"
)

// The reproduction catalog: one sweep file per figure of a paper,
// catalog/<paper>/<figure>.yaml, embedded so that `netsched reproduce
// <paper>/<figure>` works from any directory. Catalog files give their
// scenario inline (`base:`) or as `scenario: @default`; trace paths in them
// are relative to the repository root when the command runs inside a
// checkout, and to the working directory otherwise.
//
//go:embed catalog/*/*.yaml
var catalogFiles embed.FS

// claimsFile is the name of a paper's claims beside its entries.
const claimsFile = "claims.yaml"

// CatalogFS holds the catalog's sweep files as <paper>/<figure>.yaml.
var CatalogFS fs.FS = mustSub(catalogFiles, "catalog")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // dir is a constant that names an embedded directory
	}
	return sub
}

// Catalog lists the reproduction catalog's entries as <paper>/<figure>, sorted.
func Catalog() []string {
	paths, _ := fs.Glob(CatalogFS, "*/*.yaml") // the pattern is valid: no error
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if path.Base(p) == claimsFile {
			continue // a paper's claims, not a sweep (package claims reads them)
		}
		out = append(out, strings.TrimSuffix(p, ".yaml"))
	}
	return out
}

// DataEnv names the environment variable that says where the catalog's
// traces are: a directory holding the files that the entries name as
// ../shared/traces/<file>. Unset, they are read relative to the
// repository root (the shared traces beside the checkout).
const DataEnv = "NETSCHED_DATA"

// LoadCatalog reads one catalog entry.
func LoadCatalog(name string) (*Sweep, error) {
	if !slices.Contains(Catalog(), name) {
		return nil, fmt.Errorf("no experiment %q in the catalog (have: %s)", name, strings.Join(Catalog(), ", "))
	}
	sw, err := LoadFS(CatalogFS, name+".yaml")
	if err != nil {
		return nil, err
	}
	// Catalog trace paths are relative to the repository root, wherever
	// the command runs inside the checkout.
	if root, err := RepoRoot(); err == nil && sw.BaseDir == "." {
		sw.BaseDir = root
	}
	sw.DataDir = os.Getenv(DataEnv)
	return sw, nil
}

// checkTraces fails when the trace of a catalog entry cannot be read,
// naming the file and where it was looked for, before any cell runs.
func checkTraces(name string, sw *Sweep) error {
	w, _ := sw.Base["workload"].(map[string]any)
	trace, _ := w["trace"].(string)
	if trace == "" {
		return nil
	}
	where := "relative to the repository root"
	if sw.BaseDir == "." {
		where = "relative to the working directory, which is not inside a netsched checkout"
	}
	if sw.DataDir != "" {
		where = "in the data directory " + sw.DataDir
	}
	if _, err := os.Stat(scenario.TracePath(trace, sw.BaseDir, sw.DataDir)); err != nil {
		return fmt.Errorf("%s reads the trace %s (%s): %w; put the shared traces beside the checkout (../shared/traces), or name the directory that holds %s with --data or %s", name, trace, where, err, filepath.Base(trace), DataEnv)
	}
	return nil
}

// ReproduceOptions say where a reproduction writes.
type ReproduceOptions struct {
	Options          // Out: the sweep's results (default out/reproduce/<paper>/<figure>)
	ReportDir string // default <Out>/report; DocsDir(name) to update the committed report
}

// DocsDir is where the committed report of a catalog entry lives, under
// the repository root.
func DocsDir(root, name string) string {
	return filepath.Join(root, "docs", "reproductions", filepath.FromSlash(name))
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
		opts.ReportDir = filepath.Join(opts.Out, "report")
	}
	if err := checkTraces(name, sw); err != nil {
		return nil, err
	}
	if !opts.Shard.Whole() {
		return nil, fmt.Errorf("reproduce runs the whole sweep; for shards use `netsched sweep` on experiment/catalog/%s.yaml, then merge and report", name)
	}
	d, err := openOut(opts.Options)
	if err != nil {
		return nil, err
	}
	defer d.Close() // after the report, written into it by default
	opts.held = d
	out, err := Run(sw, opts.Options)
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(CatalogFS, name+".yaml")
	if err != nil {
		return nil, err
	}
	res := report.NewResults(opts.Out, out.Table)
	rep, err := report.Generate(res, report.Options{
		Out: opts.ReportDir, Baseline: sw.Report.Baseline, At: sw.Report.At,
		Title: "Reproduction " + name + ": " + sw.Name, Description: sw.Description,
		Extra: []outdir.File{{Name: "results.csv", Data: out.Table.CSV()}, {Name: "sweep.yaml", Data: src}},
	})
	if err != nil {
		return nil, err
	}
	return &Reproduction{Sweep: sw, Outcome: out, Report: rep}, nil
}
