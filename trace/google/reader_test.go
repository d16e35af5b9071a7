package google

import (
	"errors"
	"strings"
	"testing"
)

func readTasks(text string) ([]TaskEvent, error) {
	r := NewTaskEventReader("t.csv", strings.NewReader(text))
	var out []TaskEvent
	for {
		e, ok, err := r.Next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, e)
	}
}

func TestTaskEventReaderGood(t *testing.T) {
	// A full line, a line with every optional column empty, CRLF, blank
	// lines, spaces around fields, the after-the-trace timestamp.
	text := "5611824441,,6251812952,1761,1306108,4,fJYeclskJqPWsAT6TX/r9X5OiIZpSEb2PBGliYAOMxM=,0,0,0.02499,0.07959,0.0003862,1\r\n" +
		"\n" +
		" 0 , 2 ,7,0,,0,,,11,,,,\n" +
		"9223372036854775807,1,7,2147483647,,6,,3,0,1e-3,0,0,0\n"
	got, err := readTasks(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []TaskEvent{
		{Line: 1, Time: 5611824441, Missing: -1, Job: 6251812952, Task: 1761, Machine: 1306108, Type: Finish,
			User: "fJYeclskJqPWsAT6TX/r9X5OiIZpSEb2PBGliYAOMxM=", SchedClass: 0, Priority: 0,
			CPU: 0.02499, Mem: 0.07959, Disk: 0.0003862, DifferentMachine: 1},
		{Line: 3, Time: BeforeTrace, Missing: 2, Job: 7, Task: 0, Machine: -1, Type: Submit, SchedClass: -1, Priority: 11,
			CPU: -1, Mem: -1, Disk: -1, DifferentMachine: -1},
		{Line: 4, Time: AfterTrace, Missing: 1, Job: 7, Task: 2147483647, Machine: -1, Type: Lost, SchedClass: 3,
			CPU: 0.001, DifferentMachine: 0},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events: %+v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestJobEventReader(t *testing.T) {
	r := NewJobEventReader("j.csv", strings.NewReader("0,,3418309,0,70s3v5qRyCO/1PCdI6fVXnrW8FU/w+5CKRSa72xgcIo=,3,IHgtoxEBuUTHNbUeVs4hzptMY4n8rZKLbZg+Jh5fNG4=,wAmgn2H74cdoMuSFwJF3NaUEaudVBTZ0/HaNZBwIpEQ=\n"))
	e, ok, err := r.Next()
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if e.Time != 0 || e.Missing != -1 || e.Job != 3418309 || e.Type != Submit || e.SchedClass != 3 || !strings.HasPrefix(e.Name, "IHgt") || !strings.HasPrefix(e.LogicalName, "wAmg") {
		t.Errorf("got %+v", e)
	}
	if _, ok, err := r.Next(); ok || err != nil {
		t.Errorf("end: %v %v", ok, err)
	}
	_, _, err = NewJobEventReader("j.csv", strings.NewReader("1,,2,9,,,,\n")).Next()
	if err == nil || err.Error() != "j.csv:1: event type: 9 is not an event type (0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING)" {
		t.Errorf("bad type: %v", err)
	}
}

// Every malformed line is an error naming the file, line and column, with
// the exact text a user sees.
func TestTaskEventReaderErrors(t *testing.T) {
	const ok = "1,,2,3,4,1,u,0,9,0.5,0.5,0,0\n"
	for _, c := range []struct {
		name, text, want string
	}{
		{"header line", "time,missing info,job ID,task index,machine ID,event type,user,scheduling class,priority,CPU request,memory request,disk request,different-machine constraint\n",
			`t.csv:1: timestamp: "time" is not a timestamp (whole microseconds); clusterdata-2011 files have no header line`},
		{"truncated line", ok + "1,,2,3,4,1,u,0,9\n",
			"t.csv:2: CPU request: line ends after 9 of 13 fields (truncated?)"},
		{"too many fields", "1,,2,3,4,1,u,0,9,0.5,0.5,0,0,7\n",
			"t.csv:1: expected 13 comma-separated fields (a task_events record), found 14"},
		{"job_events line", "1,,2,0,u,0,n,l\n",
			"t.csv:1: expected 13 comma-separated fields (a task_events record), found 8: is this a job_events file?"},
		{"tabs", "1\t\t2\t3\t4\t1\tu\t0\t9\t0.5\t0.5\t0\t0\n",
			"t.csv:1: expected 13 comma-separated fields (a task_events record), found 1: fields must be separated by commas"},
		{"empty timestamp", ",,2,3,4,1,u,0,9,,,,\n",
			"t.csv:1: timestamp: empty, but the schema makes this field mandatory"},
		{"empty priority", "1,,2,3,4,1,u,0,,,,,\n",
			"t.csv:1: priority: empty, but the schema makes this field mandatory"},
		{"negative timestamp", "-5,,2,3,4,1,u,0,9,,,,\n",
			`t.csv:1: timestamp: "-5" is not a timestamp (whole microseconds)`},
		{"fractional timestamp", "1.5,,2,3,4,1,u,0,9,,,,\n",
			`t.csv:1: timestamp: "1.5" is not a timestamp (whole microseconds)`},
		{"timestamp over 2^63-1", "9223372036854775808,,2,3,4,1,u,0,9,,,,\n",
			"t.csv:1: timestamp: 9223372036854775808 is out of range (a timestamp (whole microseconds), at most 9223372036854775807)"},
		{"job ID over 2^64", "1,,18446744073709551616,3,4,1,u,0,9,,,,\n",
			"t.csv:1: job ID: 18446744073709551616 is out of range (a job ID (a whole number), at most 18446744073709551615)"},
		{"task index too large", "1,,2,2147483648,4,1,u,0,9,,,,\n",
			"t.csv:1: task index: 2147483648 is out of range (a task index (a whole number), at most 2147483647)"},
		{"missing info 3", "1,3,2,3,4,1,u,0,9,,,,\n",
			"t.csv:1: missing info: 3 is not a missing-info code (0, 1 or 2, or empty)"},
		{"event type 9", "1,,2,3,4,9,u,0,9,,,,\n",
			"t.csv:1: event type: 9 is not an event type (0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING)"},
		{"event type name", "1,,2,3,4,FINISH,u,0,9,,,,\n",
			`t.csv:1: event type: "FINISH" is not an event type (0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING)`},
		{"scheduling class 4", "1,,2,3,4,1,u,4,9,,,,\n",
			"t.csv:1: scheduling class: 4 is not a scheduling class (0 to 3, or empty)"},
		{"machine ID text", "1,,2,3,m7,1,u,0,9,,,,\n",
			`t.csv:1: machine ID: "m7" is not a machine ID (a whole number)`},
		{"request not a number", "1,,2,3,4,1,u,0,9,0.5,half,,\n",
			`t.csv:1: memory request: "half" is not a number`},
		{"request NaN", "1,,2,3,4,1,u,0,9,NaN,,,\n",
			`t.csv:1: CPU request: "NaN" is not a number`},
		{"request negative", "1,,2,3,4,1,u,0,9,0.5,0.5,-0.1,\n",
			"t.csv:1: disk request: -0.1 is negative"},
		{"request out of range", "1,,2,3,4,1,u,0,9,1e999,,,\n",
			"t.csv:1: CPU request: 1e999 is out of range"},
		{"constraint 2", "1,,2,3,4,1,u,0,9,,,,2\n",
			"t.csv:1: different-machine constraint: 2 is not 0 or 1 (or empty)"},
		{"long line", strings.Repeat("1", maxLine+1) + "\n",
			"t.csv:1: the line is longer than the limit of 64 KiB: not a task_events record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readTasks(c.text)
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
	r := NewTaskEventReader("t.csv", strings.NewReader("bad\n1,,2,3,4,1,u,0,9,,,,\n"))
	_, _, err1 := r.Next()
	_, ok, err2 := r.Next()
	if err1 == nil || err2 != err1 || ok {
		t.Fatalf("got %v then (%v, %v)", err1, ok, err2)
	}
}

func TestEventTypeString(t *testing.T) {
	if Finish.String() != "FINISH" || UpdateRunning.String() != "UPDATE_RUNNING" || EventType(9).String() != "EventType(9)" {
		t.Error(Finish, UpdateRunning, EventType(9))
	}
}
