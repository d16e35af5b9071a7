package coflowbench

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseSmall(t *testing.T) {
	in := "4 2\n" +
		"a 0 2 0 1 1 3:2.5\n" +
		"\n" + // blank lines are skipped
		"b 1500 1 2 2 0:1 1:0\r\n"
	tr, err := Parse("small.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &Trace{Ports: 4, Coflows: []Coflow{
		{ID: "a", Arrival: 0, Mappers: []int{0, 1}, Reducers: []Reducer{{Port: 3, Bytes: 2.5 * MB}}},
		{ID: "b", Arrival: 1.5, Mappers: []int{2}, Reducers: []Reducer{{Port: 0, Bytes: MB}, {Port: 1, Bytes: 0}}},
	}}
	if !reflect.DeepEqual(tr, want) {
		t.Fatalf("got %+v\nwant %+v", tr, want)
	}
	if got := tr.TotalBytes(); got != 3.5*MB {
		t.Errorf("TotalBytes = %v, want %v", got, 3.5*MB)
	}
	if got := tr.Pairs(); got != 2*1+1*2 {
		t.Errorf("Pairs = %d, want 4", got)
	}
}

func TestDistinct(t *testing.T) {
	c := Coflow{Mappers: []int{5, 1, 5, 3}, Reducers: []Reducer{{Port: 2}, {Port: 0}, {Port: 2}}}
	if got := c.DistinctMappers(); !reflect.DeepEqual(got, []int{1, 3, 5}) {
		t.Errorf("DistinctMappers = %v", got)
	}
	if got := c.DistinctReducers(); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("DistinctReducers = %v", got)
	}
	if !reflect.DeepEqual(c.Mappers, []int{5, 1, 5, 3}) {
		t.Errorf("DistinctMappers modified the coflow: %v", c.Mappers)
	}
}

// Every malformed input is an error that names file, line and field.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
		field    string
		msg      string // substring of the message
	}{
		{"empty file", "", 1, "header", "empty"},
		{"only blank lines", "\n\n  \n", 3, "header", "empty"},
		{"header one field", "150\n", 1, "header", "expected 2 fields"},
		{"header three fields", "150 1 2\n", 1, "header", "expected 2 fields"},
		{"header ports not numeric", "x 1\n", 1, "ports", "not an integer"},
		{"header zero ports", "0 0\n", 1, "ports", "below the minimum 1"},
		{"header negative coflows", "3 -1\n", 1, "coflows", "below the minimum 0"},
		{"fewer coflows than declared", "3 2\n1 0 1 0 1 1:1\n", 1, "coflows", "declares 2 coflows but the file has 1"},
		{"more coflows than declared", "3 1\n1 0 1 0 1 1:1\n2 0 1 0 1 1:1\n", 3, "coflows", "declares 1 coflows"},
		{"truncated after id", "3 1\n1\n", 2, "arrival", "line ends after 1 fields"},
		{"truncated after arrival", "3 1\n1 0\n", 2, "#mappers", "line ends after 2 fields"},
		{"arrival not numeric", "3 1\n1 soon 1 0 1 1:1\n", 2, "arrival", `"soon" is not a finite number`},
		{"arrival NaN", "3 1\n1 NaN 1 0 1 1:1\n", 2, "arrival", "not a finite number"},
		{"arrival negative", "3 1\n1 -5 1 0 1 1:1\n", 2, "arrival", "negative"},
		{"byte order mark", "\ufeff3 1\n1 0 1 0 1 1:1\n", 1, "", "byte order mark"},
		{"arrival beyond the limit", "3 1\n1 1e18 1 0 1 1:1\n", 2, "arrival", "1e18 ms is beyond the limit of 1e+09 s"},
		{"arrival rounds to 0", "3 1\n1 1e-400 1 0 1 1:1\n", 2, "arrival", "below the smallest number"},
		{"arrivals unsorted", "3 2\n1 10 1 0 1 1:1\n2 9 1 0 1 1:1\n", 3, "arrival", "sorted by arrival"},
		{"duplicate id", "3 2\n1 0 1 0 1 1:1\n1 0 1 0 1 1:1\n", 3, "id", "duplicate coflow id \"1\" (first on line 2)"},
		{"id with a control character", "3 2\n1 0 1 0 1 1:1\nc\x01x 0 1 0 1 1:1\n", 3, "id", `coflow id "c\x01x" holds the character U+0001; ids are printable text`},
		{"id with a C1 control character", "3 1\nc\u009fx 0 1 0 1 1:1\n", 2, "id", "holds the character U+009F"},
		{"mapper count not numeric", "3 1\n1 0 one 0 1 1:1\n", 2, "#mappers", "not an integer"},
		{"mapper count zero", "3 1\n1 0 0 1 1:1\n", 2, "#mappers", "below the minimum 1"},
		{"mapper count too large", "3 1\n1 0 3 0 1 1:1\n", 2, "end of line", "#mappers is 3"},
		{"mapper count huge", "3 1\n1 0 9223372036854775807 0 1 1:1\n", 2, "end of line", "#mappers is 9223372036854775807"},
		{"mapper port not numeric", "3 1\n1 0 2 0 x 1 1:1\n", 2, "mapper 2", `"x" is not an integer port`},
		{"mapper port out of range", "3 1\n1 0 2 0 3 1 1:1\n", 2, "mapper 2", "port 3 is out of range [0, 3)"},
		{"mapper port negative", "3 1\n1 0 1 -1 1 1:1\n", 2, "mapper 1", "out of range"},
		{"reducer count not numeric", "3 1\n1 0 1 0 two 1:1 2:1\n", 2, "#reducers", "not an integer"},
		{"reducer count zero", "3 1\n1 0 1 0 0\n", 2, "#reducers", "below the minimum 1"},
		{"reducers truncated", "3 1\n1 0 1 0 2 1:1\n", 2, "end of line", "#reducers is 2 but only 1"},
		{"too many reducers", "3 1\n1 0 1 0 1 1:1 2:1\n", 2, "reducer 2", "#reducers is 1 but 2 reducer entries follow"},
		{"reducer without colon", "3 1\n1 0 1 0 1 1\n", 2, "reducer 1", "is not `port:MB`"},
		{"reducer port not numeric", "3 1\n1 0 1 0 1 a:1\n", 2, "reducer 1 port", "not an integer port"},
		{"reducer port out of range", "3 1\n1 0 1 0 1 7:1\n", 2, "reducer 1 port", "port 7 is out of range [0, 3)"},
		{"reducer size not numeric", "3 1\n1 0 1 0 1 1:big\n", 2, "reducer 1 size", "not a finite number"},
		{"reducer size negative", "3 1\n1 0 1 0 1 1:-2\n", 2, "reducer 1 size", "negative"},
		{"reducer size infinite", "3 1\n1 0 1 0 1 1:Inf\n", 2, "reducer 1 size", "not a finite number"},
		{"reducer size overflows bytes", "3 1\n1 0 1 0 1 1:1e307\n", 2, "reducer 1 size", "beyond the limit of 1e+18 bytes"},
		{"reducer size beyond the limit", "3 1\n1 0 1 0 1 1:1e300\n", 2, "reducer 1 size", "1e300 MB is beyond the limit of 1e+18 bytes"},
		{"reducer size empty", "3 1\n1 0 1 0 1 1:\n", 2, "reducer 1 size", "not a finite number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Parse("bad.txt", strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("no error; parsed %+v", tr)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, not *ParseError", err, err)
			}
			if pe.File != "bad.txt" || pe.Line != tc.line || pe.Field != tc.field || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %+v\nwant line %d field %q msg containing %q", *pe, tc.line, tc.field, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "bad.txt:") {
				t.Errorf("message %q does not start with the file name", err)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope.txt"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not-exist", err)
	}
}

// fb2010 is the public trace, read from ../shared/traces relative to the
// repository root.
func fb2010(t testing.TB) string {
	path := filepath.Join("..", "..", "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("FB2010 trace not available at %s (%v); it lives in ../shared/traces next to the repository", path, err)
	}
	return path
}

// Golden statistics of FB2010-1Hr-150-0.txt.
func TestFB2010Golden(t *testing.T) {
	tr, err := ReadFile(fb2010(t))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Ports != 150 || len(tr.Coflows) != 526 {
		t.Fatalf("ports %d coflows %d, want 150 and 526", tr.Ports, len(tr.Coflows))
	}
	if got := tr.Pairs(); got != 706397 {
		t.Errorf("mapper x reducer pairs = %d, want 706397", got)
	}
	// The reducer sizes are whole MB summing to 35,533,534 MB (computed with
	// awk over the file); every sum is exact in float64.
	if got, want := tr.TotalBytes(), 35533534.0*MB; got != want {
		t.Errorf("total bytes = %.0f, want %.0f", got, want)
	}
	// First line: "1 0 1 22 1 65:1.0".
	c := tr.Coflows[0]
	if c.ID != "1" || c.Arrival != 0 || !reflect.DeepEqual(c.Mappers, []int{22}) ||
		!reflect.DeepEqual(c.Reducers, []Reducer{{Port: 65, Bytes: MB}}) {
		t.Errorf("first coflow %+v", c)
	}
	// Second line: "2 10833 2 104 132 1 140:48.0".
	c = tr.Coflows[1]
	if c.ID != "2" || c.Arrival != 10.833 || !reflect.DeepEqual(c.Mappers, []int{104, 132}) ||
		!reflect.DeepEqual(c.Reducers, []Reducer{{Port: 140, Bytes: 48 * MB}}) {
		t.Errorf("second coflow %+v", c)
	}
}

func TestReadFileEndlessInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := ReadFile("/dev/zero")
	if err == nil || err.Error() != "/dev/zero:1: a NUL byte: not a text file" {
		t.Fatalf("got %v", err)
	}
}
