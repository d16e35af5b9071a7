package claims

import (
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/report"
)

// Target narrows claims to what `reproduce --verify TARGET` names: "all",
// a paper ("css") or an entry ("css/testbed"). It returns the files with
// only the matching claims, and an error when nothing matches.
func Target(files []*File, target string) ([]*File, error) {
	var out []*File
	for _, f := range files {
		g := *f
		g.Claims = nil
		for _, c := range f.Claims {
			if target == "all" || target == f.Paper || target == f.Paper+"/"+c.Entry {
				g.Claims = append(g.Claims, c)
			}
		}
		if len(g.Claims) > 0 {
			out = append(out, &g)
		}
	}
	if len(out) == 0 {
		var names []string
		for _, f := range files {
			names = append(names, f.Paper)
		}
		return nil, fmt.Errorf("no claims for %q: expected all, a paper (%s) or one of their entries", target, strings.Join(names, ", "))
	}
	return out, nil
}

// EvaluateAll judges every claim of files on its entry's table
// (tables[paper/entry]).
func EvaluateAll(files []*File, tables map[string]*report.Table) ([]Result, error) {
	var out []Result
	var errs []string
	for _, f := range files {
		for i := range f.Claims {
			c := &f.Claims[i]
			t := tables[f.Paper+"/"+c.Entry]
			if t == nil {
				errs = append(errs, fmt.Sprintf("%s claim %s: no results for entry %s/%s", f.Paper, c.ID, f.Paper, c.Entry))
				continue
			}
			r, err := Evaluate(f.Paper, c, t)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			out = append(out, r)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%d claims could not be judged:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
	return out, nil
}

// MergeLedger lays fresh results over an existing claims.csv (old may be
// nil): the result is in the order of all (every paper's claims), with a
// fresh row where one was judged now and the old row otherwise; claims
// that are in neither are left out, and so are old rows of claims that no
// longer exist.
func MergeLedger(all []*File, old []byte, fresh []Result) ([]byte, error) {
	oldRows := map[string][]string{}
	if len(old) > 0 {
		recs, err := csv.NewReader(strings.NewReader(string(old))).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("claims.csv: %w", err)
		}
		if len(recs) == 0 || !slices.Equal(recs[0], LedgerColumns) {
			return nil, fmt.Errorf("claims.csv: header is not %v; move the file away to write a new ledger", LedgerColumns)
		}
		for _, r := range recs[1:] {
			oldRows[r[0]+"/"+r[1]] = r
		}
	}
	freshRows := map[string][]string{}
	for _, r := range fresh {
		recs, _ := csv.NewReader(strings.NewReader(string(LedgerCSV([]Result{r})))).ReadAll()
		freshRows[r.Paper+"/"+r.Claim.ID] = recs[1]
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(LedgerColumns)
	for _, f := range all {
		for _, c := range f.Claims {
			k := f.Paper + "/" + c.ID
			if row, ok := freshRows[k]; ok {
				w.Write(row)
			} else if row, ok := oldRows[k]; ok {
				w.Write(row)
			}
		}
	}
	w.Flush()
	return []byte(b.String()), nil
}

// FromLedger reads one paper's judged claims back from claims.csv, in the
// order of its claims file; a claim without a row is an error.
func FromLedger(f *File, ledger []byte) ([]Result, error) {
	recs, err := csv.NewReader(strings.NewReader(string(ledger))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("claims.csv: %w", err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], LedgerColumns) {
		return nil, fmt.Errorf("claims.csv: header is not %v", LedgerColumns)
	}
	rows := map[string][]string{}
	for _, r := range recs[1:] {
		rows[r[0]+"/"+r[1]] = r
	}
	col := func(name string) int { return slices.Index(LedgerColumns, name) }
	var out []Result
	for _, c := range f.Claims {
		r, ok := rows[f.Paper+"/"+c.ID]
		if !ok {
			return nil, fmt.Errorf("claims.csv has no row for %s claim %s: run `netsched reproduce --verify %s/%s --update-docs`", f.Paper, c.ID, f.Paper, c.Entry)
		}
		n, _ := strconv.Atoi(r[col("n")])
		est := Estimate{N: n, Value: parseNum(r[col("netsched")]), Low: parseNum(r[col("low")]), High: parseNum(r[col("high")])}
		out = append(out, Result{Paper: f.Paper, Claim: c, Est: est, Verdict: r[col("verdict")], Commit: r[col("commit")]})
	}
	return out, nil
}

func parseNum(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}
