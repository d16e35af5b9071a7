package swim

import (
	"errors"
	"strings"
	"testing"
)

// readAll parses text completely.
func readAll(text string) ([]Record, error) {
	r := NewReader("t.tsv", strings.NewReader(text))
	var out []Record
	for {
		rec, ok, err := r.Next()
		if err != nil {
			return out, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, rec)
	}
}

func TestReaderGood(t *testing.T) {
	// CRLF endings, blank lines and spaces around fields are tolerated;
	// decimal and exponent notation parse.
	text := "\njob0\t9\t9\t1762\t0\t14347\r\n\n job1 \t18\t9\t970\t609\t697\njob2\t18.5\t0.5\t1e3\t0\t0\n"
	got, err := readAll(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Line: 2, ID: "job0", Submit: 9, Gap: 9, Input: 1762, Shuffle: 0, Output: 14347},
		{Line: 4, ID: "job1", Submit: 18, Gap: 9, Input: 970, Shuffle: 609, Output: 697},
		{Line: 5, ID: "job2", Submit: 18.5, Gap: 0.5, Input: 1000},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Every malformed input is an error naming file, line and field, with the
// exact text a user sees.
func TestReaderErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"empty file", "",
			"t.tsv:1: file has no jobs: expected lines of 6 tab-separated fields (id, submit, gap, input, shuffle, output)"},
		{"only blank lines", "\n\n  \n",
			"t.tsv:3: file has no jobs: expected lines of 6 tab-separated fields (id, submit, gap, input, shuffle, output)"},
		{"unsorted arrivals", "job0\t10\t10\t1\t0\t1\njob1\t5\t0\t1\t0\t1\n",
			"t.tsv:2: submit: 5 s is earlier than the previous job's 10 s: SWIM files must be sorted by submit time"},
		{"negative", "job0\t10\t10\t1\t-5\t1\n",
			"t.tsv:1: shuffle: -5 is negative"},
		{"non-numeric", "job0\t10\t10\t12a\t0\t1\n",
			`t.tsv:1: input: "12a" is not a number`},
		{"nan", "job0\t10\t10\t1\t0\tNaN\n",
			`t.tsv:1: output: "NaN" is not a number`},
		{"hex", "job0\t0x10\t10\t1\t0\t1\n",
			`t.tsv:1: submit: "0x10" is not a number`},
		{"byte order mark", "\ufeffjob0\t0\t0\t1\t0\t1\n",
			"t.tsv:1: the file starts with a UTF-8 byte order mark (bytes EF BB BF); save it as UTF-8 without one"},
		{"NUL in an id", "jo\x00b0\t0\t0\t1\t0\t1\n",
			`t.tsv:1: a NUL byte: not a text file`}, // the shared reader's rule, before any field
		{"control character in an id", "jo\x01b0\t0\t0\t1\t0\t1\n",
			`t.tsv:1: id: job id "jo\x01b0" holds the character U+0001; ids are printable text`},
		{"rounds to 0", "job0\t0\t0\t1e-400\t0\t1\n",
			"t.tsv:1: input: 1e-400 is below the smallest number (about 4.9e-324)"},
		{"out of range", "job0\t1\t1\t1e999\t0\t1\n",
			"t.tsv:1: input: 1e999 is out of range"},
		{"beyond the byte limit", "job0\t1\t1\t1e300\t0\t1\n",
			"t.tsv:1: input: 1e300 is beyond the limit 1e+18 (netsched's bounds on one job, docs/scenario.md#limits)"},
		{"beyond the time limit", "job0\t1e10\t1\t1\t0\t1\n",
			"t.tsv:1: submit: 1e10 is beyond the limit 1e+09 (netsched's bounds on one job, docs/scenario.md#limits)"},
		{"truncated line", "job0\t9\t9\t1\t0\t1\njob1\t18\t9\t1762",
			"t.tsv:2: shuffle: line ends after 4 of 6 fields (truncated?)"},
		{"truncated after id", "job0\n",
			"t.tsv:1: submit: line ends after 1 of 6 fields (truncated?)"},
		{"too many columns", "job0\t9\t9\t1\t0\t1\t7\n",
			"t.tsv:1: expected 6 tab-separated fields (id, submit, gap, input, shuffle, output), found 7"},
		{"spaces instead of tabs", "job0 9 9 1 0 1\n",
			"t.tsv:1: expected 6 tab-separated fields (id, submit, gap, input, shuffle, output), found 1: fields must be separated by tabs"},
		{"empty field", "job0\t9\t\t1\t0\t1\n",
			"t.tsv:1: gap: empty field"},
		{"empty id", "\t9\t9\t1\t0\t1\n",
			"t.tsv:1: id: empty job id"},
		{"duplicate id", "job0\t9\t9\t1\t0\t1\n\njob0\t10\t1\t1\t0\t1\n",
			`t.tsv:3: id: duplicate job id "job0" (first on line 1)`},
		{"long line", strings.Repeat("x", maxLine+1),
			"t.tsv:1: the line is longer than the limit of 1 MiB: not a SWIM record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(c.text)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got %q\nwant %q", err.Error(), c.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error is %T, not *ParseError", err)
			}
		})
	}
}

// After an error the reader stays failed instead of resuming mid-file.
func TestReaderStaysFailed(t *testing.T) {
	r := NewReader("t.tsv", strings.NewReader("bad\njob1\t1\t1\t1\t1\t1\n"))
	_, _, err1 := r.Next()
	_, ok, err2 := r.Next()
	if err1 == nil || err2 != err1 || ok {
		t.Fatalf("got %v then (%v, %v)", err1, ok, err2)
	}
}
