package calibrate

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadGenericWithUnits(t *testing.T) {
	in := "kind,bytes,seconds\nmap,128MB,2.28s\nmap, 0 ,1\n\nreduce,1GiB,500ms\n"
	var fit Fitter
	format, n, err := Read(strings.NewReader(in), "g.csv", &fit)
	if err != nil || format != Generic || n != 3 {
		t.Fatalf("format %v, %d tasks, %v", format, n, err)
	}
	fs := fit.Fits()
	if len(fs) != 2 || fs[0].Kind != "map" || fs[1].Kind != "reduce" {
		t.Fatalf("%+v", fs)
	}
	if m := fs[0]; abs(m.Overhead-1) > 1e-12 || abs(m.Rate-100e6) > 1e-3 {
		t.Fatalf("map fit %+v, want 1 s and 100 MB/s", m)
	}
	if r := fs[1]; r.MinBytes != 1<<30 || r.Overhead != 0.5 {
		t.Fatalf("reduce fit %+v", r)
	}
}

func abs(v float64) float64 { return max(v, -v) }

func TestReadTasksCSVColumns(t *testing.T) {
	// Columns in netsched's order; compute = finish - input_done.
	in := "job_id,stage,index,machine,ready,start,input_done,finish,input_bytes,output_bytes\n" +
		"j,map,0,0,0,0,1,3,0,0\n" +
		"j,map,1,0,0,0,1,4,1e8,0\n" +
		"j,join,0,0,0,4,5,9,5,0\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tasks.csv"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	var fit Fitter
	format, n, err := ReadFile(dir, &fit) // a run directory
	if err != nil || format != TasksCSV || n != 3 {
		t.Fatalf("format %v, %d tasks, %v", format, n, err)
	}
	fs := fit.Fits()
	if fs[0].Kind != "map" || abs(fs[0].Overhead-2) > 1e-12 || abs(fs[0].Rate-100e6) > 1e-3 {
		t.Fatalf("%+v", fs[0])
	}
	if fs[1].Kind != "join" || fs[1].Overhead != 4 {
		t.Fatalf("%+v", fs[1])
	}
}

func TestReadErrorsNameFileLineField(t *testing.T) {
	tasksHead := "job_id,stage,index,machine,ready,start,input_done,finish,input_bytes\n"
	for _, c := range []struct{ in, want string }{
		{"", "x.csv: empty file, expected a header"},
		{"a,b,c\n1,2,3\n", `x.csv:1: header: expected netsched's tasks.csv (columns stage, input_done, finish, input_bytes) or the columns kind,bytes,seconds; found "a,b,c"`},
		{"kind,bytes,seconds\n", "x.csv: no tasks after the header"},
		{"kind,bytes,seconds\nmap,1MB,1s\nmap,12XB,1s\n", `x.csv:3: bytes: "12XB", expected a size >= 0 such as 134217728 or 128MB`},
		{"kind,bytes,seconds\nmap,-5,1s\n", `x.csv:2: bytes: "-5", expected a size >= 0`},
		{"kind,bytes,seconds\nmap,5,soon\n", `x.csv:2: seconds: "soon", expected a duration >= 0 such as 12.5 or 1.5s`},
		{"kind,bytes,seconds\nmap,5,-1s\n", `x.csv:2: seconds: "-1s", expected a duration >= 0`},
		{"kind,bytes,seconds\n,5,1\n", "x.csv:2: kind: empty, expected a task kind such as map or reduce"},
		{"kind,bytes,seconds\nmap,5\n", "x.csv:2: seconds: missing (the line has 2 fields, the header 3)"},
		{"kind,bytes,seconds\nmap,\"5,1\n", "x.csv:2: extraneous or missing \" in quoted-field"},
		{tasksHead + "j,map,0,0,0,0,1,3,NaN\n", `x.csv:2: input_bytes: "NaN", expected a finite number >= 0`},
		{tasksHead + "j,map,0,0,0,0,1,3,5\nj,map,1,0,0,0,4,3,5\n", "x.csv:3: finish: 3 is before input_done 4, expected finish >= input_done"},
		{tasksHead + "j,,0,0,0,0,1,3,5\n", "x.csv:2: stage: empty, expected a stage name"},
	} {
		var fit Fitter
		_, _, err := Read(strings.NewReader(c.in), "x.csv", &fit)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("input %q: error %v, want %q", c.in, err, c.want)
		}
	}
	var fit Fitter
	if _, _, err := ReadFile(filepath.Join(t.TempDir(), "none.csv"), &fit); err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadStreams reads a log far larger than any buffer line by line:
// memory stays flat (the fitter holds moments, not rows).
func TestReadStreams(t *testing.T) {
	const rows = 200000
	r := &repeatReader{head: "kind,bytes,seconds\n", row: "map,100MB,2s\nmap,200MB,3s\n", n: rows / 2}
	var fit Fitter
	_, n, err := Read(r, "big.csv", &fit)
	if err != nil || n != rows {
		t.Fatalf("%d tasks, %v", n, err)
	}
	f := fit.Fits()[0]
	if abs(f.Overhead-1) > 1e-9 || abs(f.Rate-100e6) > 1e-2 {
		t.Fatalf("%+v", f)
	}
}

// repeatReader yields a header then n copies of row without building them.
type repeatReader struct {
	head, row string
	n         int
	buf       []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		switch {
		case r.head != "":
			r.buf, r.head = []byte(r.head), ""
		case r.n > 0:
			r.buf = []byte(r.row)
			r.n--
		default:
			return 0, io.EOF
		}
	}
	k := copy(p, r.buf)
	r.buf = r.buf[k:]
	return k, nil
}
