package textread

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// zeros is an endless input, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// letters is an endless input without a newline.
type letters struct{}

func (letters) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// newlines is an endless input of blank lines.
type newlines struct{}

func (newlines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

func wantError(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestReadAllEndlessInputStopsAtALimit(t *testing.T) {
	_, err := ReadAll("zero", zeros{})
	wantError(t, err, "zero:1: a NUL byte: not a text file")
	_, err = readAll("a", letters{}, 0, 1<<20, 1<<16)
	wantError(t, err, "a:1: the line is longer than the limit of 64 KiB")
	_, err = readAll("nl", newlines{}, 0, 1<<20, 1<<16)
	wantError(t, err, "nl:1048577: the file is longer than the limit of 1 MiB")
}

func TestReadAllNamesEncodings(t *testing.T) {
	for in, enc := range map[string]string{
		"\xff\xfec\x00l\x00": "UTF-16LE", "\xfe\xff\x00c\x00l": "UTF-16BE",
		"c\x00l\x00": "UTF-16LE", "\x00c\x00l": "UTF-16BE",
		"\xff\xfe\x00\x00c\x00\x00\x00": "UTF-32LE", "\x00\x00\xfe\xff\x00\x00\x00c": "UTF-32BE",
	} {
		_, err := ReadAll("f", strings.NewReader(in))
		wantError(t, err, "f:1: the file is "+enc+" text; netsched reads UTF-8 (convert it, e.g. iconv -f "+enc+" -t UTF-8)")
		l := NewLines("f", strings.NewReader(in))
		if l.Scan() || l.Err() == nil || !strings.Contains(l.Err().Error(), enc) {
			t.Errorf("Lines on %q: err %v, want %s named", in, l.Err(), enc)
		}
	}
}

// A UTF-8 byte order mark is rejected, not skipped, by both readers.
func TestByteOrderMarkIsRejected(t *testing.T) {
	_, err := ReadAll("f", strings.NewReader("\xef\xbb\xbfa: 1\n"))
	wantError(t, err, "f:1: "+BOMMessage)
	l := NewLines("f", strings.NewReader("\xef\xbb\xbfa\n"))
	if l.Scan() {
		t.Fatalf("scanned %q past a byte order mark", l.Bytes())
	}
	wantError(t, l.Err(), "f:1: "+BOMMessage)
}

func TestReadAllNamesTheLineOfANul(t *testing.T) {
	_, err := ReadAll("f", iotest.OneByteReader(strings.NewReader("a\nb\nc\x00\n")))
	wantError(t, err, "f:3: a NUL byte: not a text file")
}

func scanAll(l *Lines) (lines []string, numbers []int) {
	for l.Scan() {
		lines = append(lines, string(l.Bytes()))
		numbers = append(numbers, l.Line())
	}
	return lines, numbers
}

func TestLinesSkipsBlankLinesCountingThem(t *testing.T) {
	in := "\n \t\r\na\r\n\n\n  b\n\n" + strings.Repeat("\n", 100_000) + "c"
	lines, numbers := scanAll(NewLines("f", iotest.HalfReader(strings.NewReader(in))))
	want, wantN := []string{"a\r", "  b", "c"}, []int{3, 6, 100_008}
	if strings.Join(lines, "|") != strings.Join(want, "|") || len(numbers) != 3 || numbers[0] != wantN[0] || numbers[1] != wantN[1] || numbers[2] != wantN[2] {
		t.Fatalf("got %q at %v, want %q at %v", lines, numbers, want, wantN)
	}
}

func TestLinesEndlessInputStopsAtALimit(t *testing.T) {
	l := NewLines("zero", zeros{})
	if l.Scan() {
		t.Fatal("scanned a line of /dev/zero")
	}
	wantError(t, l.Err(), "zero:1: a NUL byte: not a text file")

	l = NewLines("a", io.MultiReader(strings.NewReader("x\n"), letters{}))
	l.SetMaxLine(1000, "a record")
	scanAll(l)
	wantError(t, l.Err(), "a:2: the line is longer than the limit of 1000 bytes: not a record")

	l = NewLines("nl", newlines{})
	l.maxFile = 1 << 20
	scanAll(l)
	wantError(t, l.Err(), "nl:1048577: the file is longer than the limit of 1 MiB")
}

func TestLinesLongLineWithinTheLimitIsWhole(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	lines, _ := scanAll(NewLines("f", strings.NewReader("a\n"+long+"\nb")))
	if len(lines) != 3 || lines[1] != long || lines[2] != "b" {
		t.Fatalf("lines of length %d", len(lines))
	}
}

func TestLinesReportsACutLineAsTheReadError(t *testing.T) {
	cut := io.MultiReader(strings.NewReader("first line\nsec"), iotest.ErrReader(io.ErrUnexpectedEOF))
	l := NewLines("f.gz", cut)
	lines, _ := scanAll(l)
	if len(lines) != 1 || lines[0] != "first line" {
		t.Fatalf("lines %q", lines)
	}
	wantError(t, l.Err(), "f.gz:2: cannot read further: unexpected EOF (truncated or corrupt file?)")
}

func TestExcerptAndCapMessage(t *testing.T) {
	if got := Excerpt("short"); got != "short" {
		t.Errorf("Excerpt = %q", got)
	}
	long := strings.Repeat("é", 100)
	if got := Excerpt(long); len(got) > MaxExcerpt+30 || !strings.HasSuffix(got, "... (200 bytes in all)") {
		t.Errorf("Excerpt = %q", got)
	}
	if got := CapMessage(strings.Repeat("m", 5<<20)); len(got) > MaxMessage+60 {
		t.Errorf("CapMessage kept %d bytes", len(got))
	}
}

func TestReaderStopsEndlessInput(t *testing.T) {
	_, err := io.Copy(io.Discard, NewReader("zero", zeros{}))
	wantError(t, err, "zero:1: a NUL byte: not a text file")
	_, err = io.Copy(io.Discard, NewReader("a", io.MultiReader(strings.NewReader("x\ny\n"), letters{})))
	wantError(t, err, "a:3: the line is longer than the limit of 64 MiB")
	_, err = io.Copy(io.Discard, NewReader("u", strings.NewReader("\xff\xfea\x00")))
	wantError(t, err, "u:1: the file is UTF-16LE text; netsched reads UTF-8 (convert it, e.g. iconv -f UTF-16LE -t UTF-8)")
	b, err := io.ReadAll(NewReader("ok", strings.NewReader("a,b\n1,2\n")))
	if err != nil || string(b) != "a,b\n1,2\n" {
		t.Fatalf("got %q, %v", b, err)
	}
}
