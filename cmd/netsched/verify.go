package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/netsched/netsched/claims"
	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/report"
)

type verifyOptions struct {
	run        experiment.Options
	updateDocs bool // write the ledger, reports and page tables into docs/reproductions
	committed  bool // judge the committed results instead of rerunning
}

// verifyClaims judges the claims that target names and writes the ledger.
func verifyClaims(w io.Writer, target string, o verifyOptions) error {
	all, err := claims.Load(experiment.CatalogFS)
	if err != nil {
		return err
	}
	sel, err := claims.Target(all, target)
	if err != nil {
		return err
	}
	root := ""
	if o.committed || o.updateDocs {
		if root, err = experiment.RepoRoot(); err != nil {
			return err
		}
	}
	tables := map[string]*report.Table{}
	commits := map[string]string{}
	var costs []string
	for _, e := range claims.Entries(sel) {
		if o.committed {
			path := filepath.Join(experiment.DocsDir(root, e), "results.csv")
			data, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("claims read entry %s: %w (run `netsched reproduce --verify %s --update-docs` to make it)", e, err, e)
			}
			if tables[e], err = report.ReadCSV(path, data); err != nil {
				return err
			}
			commits[e] = lastCommit(root, path)
			continue
		}
		opts := experiment.ReproduceOptions{Options: o.run}
		if o.updateDocs {
			opts.ReportDir = experiment.DocsDir(root, e)
		}
		start := time.Now()
		r, err := reproduceOne(w, e, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
		cost := time.Since(start)
		costs = append(costs, fmt.Sprintf("%s %d cells %.1fs", e, r.Outcome.Manifest.CellsTotal, cost.Seconds()))
		tables[e] = r.Outcome.Table
		commits[e] = headCommit()
	}
	results, evalErr := claims.EvaluateAll(sel, tables)
	for i := range results {
		results[i].Commit = commits[results[i].Paper+"/"+results[i].Claim.Entry]
	}
	printClaims(w, results)
	if len(costs) > 0 {
		fmt.Fprintf(w, "cost (wall): %s\n", strings.Join(costs, "; "))
	}
	if evalErr != nil {
		return evalErr
	}
	ledgerDir := filepath.Join("out", "reproduce")
	if o.updateDocs {
		ledgerDir = filepath.Join(root, "docs", "reproductions")
	}
	ledgerPath := filepath.Join(ledgerDir, "claims.csv")
	old, err := os.ReadFile(ledgerPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ledger, err := claims.MergeLedger(all, old, results)
	if err != nil {
		return fmt.Errorf("%s: %w", ledgerPath, err)
	}
	// The ledger is merged into the one there (MergeLedger read it): an
	// update in place, as of the pages below, not a new output.
	if err := os.MkdirAll(ledgerDir, 0o755); err != nil {
		return err
	}
	if err := outdir.Rewrite(ledgerPath, ledger); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", ledgerPath)
	if !o.updateDocs {
		return nil
	}
	for _, f := range all {
		if !touches(sel, f.Paper) {
			continue
		}
		if err := updatePage(root, f, ledger); err != nil {
			return err
		}
		fmt.Fprintf(w, "updated %s\n", filepath.Join("docs", "reproductions", f.Page))
	}
	return nil
}

func touches(sel []*claims.File, paper string) bool {
	for _, f := range sel {
		if f.Paper == paper {
			return true
		}
	}
	return false
}

// updatePage rewrites a paper page's generated claims table from the ledger.
func updatePage(root string, f *claims.File, ledger []byte) error {
	rs, err := claims.FromLedger(f, ledger)
	if err != nil {
		return err
	}
	path := filepath.Join(root, "docs", "reproductions", f.Page)
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, err := claims.UpdatePage(path, string(page), claims.PageTable(rs))
	if err != nil {
		return err
	}
	return outdir.Rewrite(path, []byte(text)) // the page is the project's; netsched rewrites its generated table
}

func printClaims(w io.Writer, rs []claims.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "claim\tfigure\tpaper\tnetsched [95%]\tseeds\tverdict")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%s\t%d\t%s\n", r.Paper, r.Claim.ID, r.Claim.Figure, r.PaperShown(), r.Shown(), r.Est.N, r.Verdict)
	}
	tw.Flush()
	fmt.Fprintln(w, claims.Counts(rs))
}

// headCommit names the checked-out commit, with "+changes" when files other
// than docs/ differ from it; "unknown" outside git.
func headCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	dirty, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)docs").Output()
	if err == nil && len(strings.TrimSpace(string(dirty))) > 0 {
		c += "+changes"
	}
	return c
}

// lastCommit names the commit that last changed path, or for results not
// yet committed the checked-out code that made them (headCommit); "unknown"
// outside git.
func lastCommit(root, path string) string {
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--", path).Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		return headCommit()
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%h", "--abbrev=7", "--", path).Output()
	if err != nil || len(strings.TrimSpace(string(out))) == 0 {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
