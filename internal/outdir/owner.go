package outdir

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ManifestFile, in every directory netsched writes, lists the files it
// wrote there, one name a line. Only those are ever replaced or removed.
const ManifestFile = ".netsched-files"

const manifestHeader = "# files netsched wrote in this directory; it replaces or removes no others\n"

// legacyMarkers are files by which a directory written before manifests
// existed is recognised as netsched's: a run's or a cell's summary.json,
// a sweep's manifest.json or a report's report.html (a shard's
// manifest-I-of-N.json is matched by legacyShardMarker).
var legacyMarkers = []string{"summary.json", "manifest.json", "report.html"}

const legacyShardMarker = "manifest-*-of-*.json"

// isReserved reports whether name is one of netsched's bookkeeping files.
func isReserved(name string) bool {
	return name == ManifestFile || isLockFile(name) || isTemporary(name)
}

// readManifest returns the names listed in dir's manifest; ok is false
// when dir has none.
func readManifest(dir string) (names map[string]bool, ok bool, err error) {
	f, err := os.Open(filepath.Join(dir, ManifestFile))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	names = map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			names[line] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return names, true, nil
}

// hasMarker reports whether dir holds one of legacyMarkers.
func hasMarker(dir string) bool {
	for _, m := range legacyMarkers {
		if st, err := os.Lstat(filepath.Join(dir, m)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	shards, _ := filepath.Glob(filepath.Join(dir, legacyShardMarker))
	return len(shards) > 0
}

// checkOwned refuses a write under root that would replace a file netsched
// did not write: anything but a regular file, or a file not in its
// directory's manifest. A directory without a manifest inside an output
// that holds one of legacyMarkers was written by a netsched that kept no
// manifests: there, the files of the names netsched writes now are taken
// as its own.
func checkOwned(root string, files []File) error {
	rootMarked := hasMarker(root)
	type listing struct {
		names  map[string]bool
		legacy bool
	}
	dirs := map[string]listing{}
	var foreign []string
	for _, f := range files {
		target := filepath.Join(root, f.Name)
		st, err := os.Lstat(target)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("output %s: %w", target, err)
		}
		dir, base := filepath.Split(target)
		l, seen := dirs[dir]
		if !seen {
			names, ok, err := readManifest(dir)
			if err != nil {
				return err
			}
			l = listing{names, !ok && (rootMarked || hasMarker(dir))}
			dirs[dir] = l
		}
		if !st.Mode().IsRegular() || !(l.legacy || l.names[base]) {
			foreign = append(foreign, f.Name)
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	sort.Strings(foreign)
	return fmt.Errorf("output directory %s: netsched did not write %s (not listed in %s) and never replaces files it did not write; move them away, or choose another output directory",
		root, listNames(foreign), ManifestFile)
}

// record adds the files' names to the manifests of their directories. A
// name may be listed twice; readers take the set.
func record(root string, files []File) error {
	byDir := map[string][]string{}
	for _, f := range files {
		dir, base := filepath.Split(filepath.Join(root, f.Name))
		byDir[dir] = append(byDir[dir], base)
	}
	for dir, names := range byDir {
		if err := appendManifest(dir, names); err != nil {
			return err
		}
	}
	return nil
}

// appendManifest appends names in a single write, so that processes
// appending at once (the shards of a sweep sharing a directory) interleave
// whole lines.
func appendManifest(dir string, names []string) error {
	path := filepath.Join(dir, ManifestFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	var b strings.Builder
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		b.WriteString(manifestHeader)
	}
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	_, werr := f.WriteString(b.String())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("output %s: %w", path, werr)
	}
	return nil
}

// writeManifest makes dir's manifest list exactly names.
func writeManifest(dir string, names []string) error {
	sort.Strings(names)
	return Rewrite(filepath.Join(dir, ManifestFile), []byte(manifestHeader+strings.Join(append(names, ""), "\n")))
}

// foreignFiles lists the entries of dir, an existing directory, that are
// not netsched's bookkeeping files or listed in its manifest.
func foreignFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	names, _, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	var foreign []string
	for _, e := range entries {
		if n := e.Name(); !isReserved(n) && !names[n] {
			foreign = append(foreign, n)
		}
	}
	return foreign, nil
}

// listNames shows at most five names, for messages.
func listNames(names []string) string {
	const shown = 5
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}
