// Package outdir writes netsched's output files. Two rules hold for every
// command that writes:
//
//   - A reader never sees a half-written file: each file is written to a
//     temporary name beside its target and renamed into place only when all
//     files of the write succeeded.
//   - Only netsched's own files are ever replaced or removed. Every
//     directory netsched writes holds a manifest, ManifestFile, listing the
//     files it wrote there; any other file is the user's and is kept (a
//     write that would replace one is refused, naming it).
//
// Commands that write a whole output directory (run, coflow, sweep, compare,
// merge, reproduce) hold it through Open: locked against other netsched
// processes, refused when it holds only the user's files unless forced, and
// cleaned of the temporaries of killed writers.
package outdir

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// File is one output file: a name relative to the directory and its content.
type File struct {
	Name string
	Data []byte
	// Stream, when set, writes the content instead of Data, so that a large
	// file (a full-size day's tasks.csv is over a gigabyte) goes to disk
	// without being held in memory.
	Stream func(w io.Writer) error
}

// Bytes is the file's content, rendered in memory for a streamed file.
func (f File) Bytes() []byte {
	if f.Stream == nil {
		return f.Data
	}
	var b bytes.Buffer
	f.Stream(&b) // writes to memory: cannot fail
	return b.Bytes()
}

// writeTo writes the file's content to w.
func (f File) writeTo(w io.Writer) error {
	if f.Stream == nil {
		_, err := w.Write(f.Data)
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := f.Stream(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// Names lists the file names, sorted, for messages.
func Names(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Name
	}
	sort.Strings(out)
	return out
}

// Write creates dir if needed and writes all files into it, replacing only
// files netsched wrote there before; on any error it removes the
// temporaries it made and leaves the directory as it was. Commands that
// own a whole output directory write through Open's Dir instead.
func Write(dir string, files []File) error {
	return write(dir, files, false)
}

// write is Write; clean also removes the temporaries that killed writers
// left in the subdirectories written (the caller holds the directory).
func write(dir string, files []File, clean bool) error {
	if err := checkNames(files); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if err := checkOwned(dir, files); err != nil {
		return err
	}
	if clean {
		for _, f := range files {
			if sub := filepath.Dir(f.Name); sub != "." {
				removeTemporaries(filepath.Join(dir, sub))
			}
		}
	}
	var temps []string
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		target := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			cleanup()
			return err
		}
		tmp, err := createTemp(target)
		if err != nil {
			cleanup()
			return fmt.Errorf("output %s: %w", target, err)
		}
		temps = append(temps, tmp.Name())
		werr := f.writeTo(tmp)
		if werr == nil {
			werr = tmp.Chmod(0o644) // CreateTemp makes 0600; outputs are for sharing
		}
		cerr := tmp.Close()
		if werr != nil || cerr != nil {
			cleanup()
			return fmt.Errorf("output %s: write failed: %v %v", target, werr, cerr)
		}
	}
	// Recorded before they appear, so that a write killed halfway leaves
	// files the next run knows as its own.
	if err := record(dir, files); err != nil {
		cleanup()
		return err
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			cleanup()
			return fmt.Errorf("output %s: %w", f.Name, err)
		}
	}
	return nil
}

// tempMark is in the name of every temporary: .NAME.tmp-RANDOM.
const tempMark = ".tmp-"

func createTemp(target string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+tempMark+"*")
}

func isTemporary(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMark)
}

// removeTemporaries removes the temporaries in dir: only a writer that
// holds dir calls it, so they are left by writers that were killed.
func removeTemporaries(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type().IsRegular() && isTemporary(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// checkNames rejects names that would leave the directory or could not be
// listed in a manifest (netsched's names are its own, so this is a bug
// check as much as anything).
func checkNames(files []File) error {
	for _, f := range files {
		n := filepath.Clean(f.Name)
		if f.Name == "" || filepath.IsAbs(f.Name) || n == ".." || strings.HasPrefix(n, ".."+string(filepath.Separator)) ||
			strings.ContainsAny(f.Name, "\n\r\x00") || isReserved(filepath.Base(n)) {
			return fmt.Errorf("%q is not a file name netsched can write", f.Name)
		}
	}
	return nil
}

// Rewrite replaces the file at path with data atomically. It is for the
// one file netsched edits by request although it did not write it (a
// documentation page whose generated section it updates); every output
// goes through Write or a Dir.
func Rewrite(path string, data []byte) error {
	tmp, err := createTemp(path)
	if err != nil {
		return err
	}
	werr := File{Data: data}.writeTo(tmp)
	if werr == nil {
		werr = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: %w", path, werr)
	}
	return nil
}
