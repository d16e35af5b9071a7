// Package outdir writes a run's output files so that a reader never sees a
// half-written result: every file is written to a temporary name in the
// target directory first and renamed into place only when all succeeded.
package outdir

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
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

// Write creates dir if needed and writes all files; on any error it removes
// the temporaries it made and leaves the directory as it was.
func Write(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
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
		tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(f.Name)+".tmp-*")
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
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			cleanup()
			return fmt.Errorf("output %s: %w", f.Name, err)
		}
	}
	return nil
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

// Marker is the file whose presence says a directory holds one netsched
// run's results (summary.json), which Replace may replace as a whole.
const Marker = "summary.json"

// CheckReplace reports whether Replace may write dir: it does not exist,
// is empty, holds a previous run (Marker), or force is set. Commands call
// it before a long run so a refusal comes first.
func CheckReplace(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return fmt.Errorf("output directory %s: %w", dir, err)
	case len(entries) == 0 || force:
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err == nil {
		return nil
	}
	return fmt.Errorf("output directory %s exists and does not hold a netsched run (no %s); choose another --out, or pass --force to replace it", dir, Marker)
}

// Replace writes files as the whole content of dir: into a fresh directory
// beside it, which then takes dir's place, so the result never mixes two
// runs' files and a failure leaves the previous content as it was. dir must
// pass CheckReplace(dir, force).
func Replace(dir string, files []File, force bool) error {
	if err := CheckReplace(dir, force); err != nil {
		return err
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	fresh, err := os.MkdirTemp(parent, "."+base+".new-*")
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if err := Write(fresh, files); err != nil {
		os.RemoveAll(fresh)
		return err
	}
	if err := os.Chmod(fresh, 0o755); err != nil { // MkdirTemp makes 0700
		os.RemoveAll(fresh)
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	var old string
	if _, err := os.Stat(dir); err == nil {
		if old, err = os.MkdirTemp(parent, "."+base+".old-*"); err != nil {
			os.RemoveAll(fresh)
			return fmt.Errorf("output directory %s: %w", dir, err)
		}
		os.Remove(old) // only its unique name is wanted
		if err := os.Rename(dir, old); err != nil {
			os.RemoveAll(fresh)
			return fmt.Errorf("output directory %s: %w", dir, err)
		}
	}
	if err := os.Rename(fresh, dir); err != nil {
		if old != "" {
			os.Rename(old, dir) // put the previous run back
		}
		os.RemoveAll(fresh)
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
