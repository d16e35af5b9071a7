package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/report"
)

// MergeError lists what prevents a merge: shards (and so cells) that are
// missing, and shards or cells found more than once.
type MergeError struct {
	MissingShards []int
	MissingCells  []int // cell indices no part covers
	Duplicates    []string
}

func (e *MergeError) Error() string {
	var parts []string
	if len(e.MissingShards) > 0 {
		parts = append(parts, fmt.Sprintf("missing shard(s) %s", joinInts(e.MissingShards)))
	}
	if len(e.MissingCells) > 0 {
		parts = append(parts, fmt.Sprintf("missing %d cell(s): %s", len(e.MissingCells), joinInts(e.MissingCells)))
	}
	for _, d := range e.Duplicates {
		parts = append(parts, "duplicate "+d)
	}
	return "merge: " + strings.Join(parts, "; ")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// part is one shard's output found in a directory.
type part struct {
	dir  string
	file string // the manifest's path
	m    *Manifest
}

// Merge joins the shard parts found in dirs into out: results.csv,
// results.parquet, cells.jsonl and manifest.json, byte-identical to an
// unsharded run of the same sweep, plus every cell's run files (copied
// into out when they live elsewhere). A missing or repeated shard or cell
// is a *MergeError and nothing is written; so are parts with repeated or
// non-finite rows, and parts that would replace results in out of another
// sweep, or newer than they are. force is outdir.Options.Force for out.
func Merge(dirs []string, out string, force bool) (*Manifest, error) {
	parts, err := findParts(dirs)
	if err != nil {
		return nil, err
	}
	first := parts[0].m
	for _, p := range parts[1:] {
		if err := sameSweep(first, p.m); err != nil {
			return nil, fmt.Errorf("merge: %s and %s: %v", parts[0].file, p.file, err)
		}
	}
	byCell, merr := coverage(parts)
	if merr != nil {
		return nil, merr
	}
	tbl := &report.Table{Params: slices.Clone(first.Grid)}
	var jsonl bytes.Buffer
	m := *first
	m.Shard, m.Table, m.CellsFile, m.Cells = nil, "results.csv", "cells.jsonl", nil
	rowsOf, linesOf := map[string][]report.Row{}, map[int][]byte{}
	for _, p := range parts {
		if err := readPart(p, tbl.Params, rowsOf, linesOf); err != nil {
			return nil, err
		}
	}
	d, err := outdir.Open(out, outdir.Options{Force: force})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	for i := range first.CellsTotal {
		p, c := byCell[i].p, byCell[i].c
		rows, ok := rowsOf[c.ID]
		if !ok {
			return nil, fmt.Errorf("merge: %s lists cell %s but %s has no rows for it", p.file, c.ID, p.m.Table)
		}
		line, ok := linesOf[i]
		if !ok {
			return nil, fmt.Errorf("merge: %s lists cell %d but %s has no line for it", p.file, i, p.m.CellsFile)
		}
		tbl.Rows = append(tbl.Rows, rows...)
		jsonl.Write(line)
		jsonl.WriteByte('\n')
		m.Cells = append(m.Cells, c)
	}
	files, err := outputFilesMerged(tbl, &m, jsonl.Bytes())
	if err != nil {
		return nil, err
	}
	if err := checkReplacedResults(out, parts, files); err != nil {
		return nil, err
	}
	for i := range first.CellsTotal {
		cell, err := cellCopy(byCell[i].p.dir, out, byCell[i].c.ID)
		if err == nil {
			err = d.Write(cell)
		}
		if err != nil {
			return nil, err
		}
	}
	return &m, d.Write(files)
}

// checkReplacedResults refuses to replace out's results (manifest.json and
// the files beside it) with the merge of parts unless they are of the same
// sweep and no part is older than them; results equal to the merge are
// replaced by themselves (merging twice is harmless).
func checkReplacedResults(out string, parts []part, merged []outdir.File) error {
	path := filepath.Join(out, "manifest.json")
	st, err := os.Stat(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	have, err := readManifestFile(path)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if p := parts[0]; have.Fingerprint != p.m.Fingerprint {
		return fmt.Errorf("merge: %s holds the results of another sweep (%s, fingerprint %s) than the parts (%s, fingerprint %s, in %s); merging would replace them: merge into another --out, or remove the parts of the other sweep",
			path, have.Sweep, have.Fingerprint, p.m.Sweep, p.m.Fingerprint, p.file)
	}
	if sameContent(out, merged) {
		return nil
	}
	for _, p := range parts {
		if pst, err := os.Stat(p.file); err == nil && pst.ModTime().Before(st.ModTime()) {
			return fmt.Errorf("merge: %s is older than the results it would replace (%s, written %s), which differ from the merge of the parts; remove the old parts (or the results) and merge again",
				p.file, path, st.ModTime().Format(time.DateTime))
		}
	}
	return nil
}

// sameContent reports whether dir holds files exactly.
func sameContent(dir string, files []outdir.File) bool {
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(b, f.Bytes()) {
			return false
		}
	}
	return true
}

func outputFilesMerged(tbl *report.Table, m *Manifest, jsonl []byte) ([]outdir.File, error) {
	files, err := tbl.Files("results")
	if err != nil {
		return nil, err
	}
	man, err := m.encode()
	if err != nil {
		return nil, err
	}
	return append(files, outdir.File{Name: "cells.jsonl", Data: jsonl}, outdir.File{Name: "manifest.json", Data: man}), nil
}

func findParts(dirs []string) ([]part, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("merge: no directories given")
	}
	var parts []part
	for _, d := range dirs {
		found, err := filepath.Glob(filepath.Join(d, "manifest-*-of-*.json"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("merge: %s has no shard manifest (manifest-I-of-N.json); was it written by `netsched sweep --shard`?", d)
		}
		sort.Strings(found)
		for _, f := range found {
			m, err := readManifestFile(f)
			if err != nil {
				return nil, fmt.Errorf("merge: %w", err)
			}
			if m.Shard == nil {
				return nil, fmt.Errorf("merge: %s has no shard field", f)
			}
			parts = append(parts, part{dir: d, file: f, m: m})
		}
	}
	return parts, nil
}

// sameSweep checks that two shards come from the same sweep file.
func sameSweep(a, b *Manifest) error {
	switch {
	case a.Fingerprint != b.Fingerprint:
		return fmt.Errorf("different sweeps (fingerprints %s and %s)", a.Fingerprint, b.Fingerprint)
	case a.Shard.Count != b.Shard.Count:
		return fmt.Errorf("split into %d and %d shards", a.Shard.Count, b.Shard.Count)
	case !slices.Equal(a.Metrics, b.Metrics):
		return fmt.Errorf("different metrics (%v and %v)", a.Metrics, b.Metrics)
	}
	return nil
}

type cellSource struct {
	p *part
	c CellStatus
}

// coverage maps every cell index to the part holding it, or explains what
// is missing or repeated.
func coverage(parts []part) (map[int]cellSource, *MergeError) {
	e := &MergeError{}
	n := parts[0].m.Shard.Count
	seenShard := map[int]string{}
	for _, p := range parts {
		if prev, dup := seenShard[p.m.Shard.Index]; dup {
			e.Duplicates = append(e.Duplicates, fmt.Sprintf("shard %d/%d: in %s and %s", p.m.Shard.Index, n, prev, p.file))
			continue
		}
		seenShard[p.m.Shard.Index] = p.file
	}
	for i := range n {
		if _, ok := seenShard[i]; !ok {
			e.MissingShards = append(e.MissingShards, i)
		}
	}
	byCell := map[int]cellSource{}
	for k := range parts {
		p := &parts[k]
		for _, c := range p.m.Cells {
			if prev, dup := byCell[c.Index]; dup {
				if prev.p.m.Shard.Index != p.m.Shard.Index { // a repeated shard is reported once, above
					e.Duplicates = append(e.Duplicates, fmt.Sprintf("cell %d (%s): in %s and %s", c.Index, c.ID, prev.p.file, p.file))
				}
				continue
			}
			byCell[c.Index] = cellSource{p, c}
		}
	}
	for i := range parts[0].m.CellsTotal {
		if _, ok := byCell[i]; !ok {
			e.MissingCells = append(e.MissingCells, i)
		}
	}
	if len(e.MissingShards)+len(e.MissingCells)+len(e.Duplicates) > 0 {
		return nil, e
	}
	return byCell, nil
}

func readPart(p part, params []string, rowsOf map[string][]report.Row, linesOf map[int][]byte) error {
	path := filepath.Join(p.dir, p.m.Table)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	t, err := report.ReadCSV(path, data)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if !slices.Equal(t.Params, params) {
		return fmt.Errorf("merge: %s has parameter columns %v, expected %v", path, t.Params, params)
	}
	listed := map[string]bool{}
	for _, c := range p.m.Cells {
		listed[c.ID] = true
	}
	for _, r := range t.Rows {
		if !listed[r.CellID] {
			return fmt.Errorf("merge: %s:%d: row for cell %s, which %s does not list", path, r.Line, r.CellID, p.file)
		}
		rowsOf[r.CellID] = append(rowsOf[r.CellID], r)
	}
	jpath := filepath.Join(p.dir, p.m.CellsFile)
	jl, err := os.ReadFile(jpath)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for n, line := range bytes.Split(bytes.TrimSuffix(jl, []byte{'\n'}), []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		var head struct {
			Index *int `json:"index"`
		}
		if err := json.Unmarshal(line, &head); err != nil || head.Index == nil {
			return fmt.Errorf("merge: %s:%d: not a cell line (%v)", jpath, n+1, err)
		}
		if _, dup := linesOf[*head.Index]; dup {
			return fmt.Errorf("merge: %s:%d: cell %d again", jpath, n+1, *head.Index)
		}
		linesOf[*head.Index] = line
	}
	return nil
}

// cellCopy returns a cell's run files, named relative to out, to copy into
// out; none when they are already there.
func cellCopy(from, out, id string) ([]outdir.File, error) {
	src, dst := filepath.Join(from, CellDir(id)), filepath.Join(out, CellDir(id))
	if same, _ := sameDir(src, dst); same {
		return nil, nil
	}
	entries, err := os.ReadDir(src)
	if os.IsNotExist(err) {
		return nil, nil // the table is complete without them; reports that need them say so
	}
	if err != nil {
		return nil, err
	}
	var files []outdir.File
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, outdir.File{Name: e.Name(), Data: data})
	}
	// summary.json last, as when the cell ran: it marks the cell done.
	sort.SliceStable(files, func(a, b int) bool { return files[b].Name == "summary.json" && files[a].Name != "summary.json" })
	return inDir(CellDir(id), files), nil
}

func sameDir(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}
