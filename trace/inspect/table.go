package inspect

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/netsched/netsched/internal/units"
)

// WriteTable prints the statistics for people: sizes and times in human
// units, fractions as percentages.
func (s *Stats) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format+"\n", args...) }
	p("jobs\t%d", s.Jobs)
	if s.Jobs > 0 {
		p("arrivals\t%s .. %s (span %s)", units.FormatDuration(s.FirstArrival), units.FormatDuration(s.LastArrival), units.FormatDuration(s.Span))
		p("arrival rate\t%s jobs/s (mean gap %s)", num(s.Rate), units.FormatDuration(s.MeanGap))
		p("map-only\t%s", pct(s.MapOnly))
		p("dependent jobs\t%s", pct(s.Dependent))
		p("recurring\t%s", pct(s.Recurring))
		p("users / queues\t%d / %d", s.Users, s.Queues)
		p("")
		p("per job\tp10\tp50\tp90\tp99\tmax\ttotal")
		bytesRow(p, "input", s.Input, s.TotalInput)
		bytesRow(p, "shuffle", s.Shuffle, s.TotalShuffle)
		bytesRow(p, "output", s.Output, s.TotalOutput)
		countRow(p, "tasks", s.Tasks, strconv.FormatInt(s.TotalTasks, 10))
		countRow(p, "root-stage tasks", s.Maps, "")
		countRow(p, "other tasks", s.Reduces, "")
		countRow(p, "stages", s.Stages, "")
		where := "(one machine per parent task)"
		if s.Machines > 0 {
			where = fmt.Sprintf("(on %d machines)", s.Machines)
		}
		p("stage transfers	at most %d %s", s.MaxTransfers, where)
		if s.TotalDependent > 0 {
			p("dependent bytes total\t%s", units.FormatBytes(s.TotalDependent))
		}
		p("")
		mix(p, "size classes", s.SizeClasses)
		mix(p, "input (NAS)", s.InputClasses)
		mix(p, "shuffle (NAS)", s.ShuffleClasses)
		if len(s.Labels) > 0 {
			mix(p, "labels", s.Labels)
		}
	}
	if c := s.Coflows; c != nil {
		p("")
		p("coflows\t%d on %d ports, %d flows, %s", c.Coflows, c.Ports, c.Flows, units.FormatBytes(c.TotalBytes))
		p("per coflow\tp10\tp50\tp90\tp99\tmax")
		countRow(p, "mappers", c.Mappers, "")
		countRow(p, "reducers", c.Reducers, "")
		countRow(p, "width (flows)", c.Width, "")
		bytesRow(p, "length (largest flow)", c.Length, -1)
		bytesRow(p, "size", c.Size, -1)
		p("under 100MiB\t%s", pct(c.Under100MB))
		mix(p, "varys bins", c.Bins)
	}
	return tw.Flush()
}

func bytesRow(p func(string, ...any), name string, q Percentiles, total float64) {
	f := units.FormatBytes
	row := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", name, f(q.P10), f(q.P50), f(q.P90), f(q.P99), f(q.Max))
	if total >= 0 {
		row += "\t" + f(total)
	}
	p("%s", row)
}

func countRow(p func(string, ...any), name string, q Percentiles, total string) {
	row := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", name, num(q.P10), num(q.P50), num(q.P90), num(q.P99), num(q.Max))
	if total != "" {
		row += "\t" + total
	}
	p("%s", row)
}

func mix(p func(string, ...any), name string, sh []Share) {
	parts := make([]string, len(sh))
	for i, s := range sh {
		parts[i] = fmt.Sprintf("%s %s", s.Name, pct(s.Fraction))
	}
	p("%s\t%s", name, strings.Join(parts, ", "))
}

func pct(f float64) string { return strconv.FormatFloat(100*f, 'f', 2, 64) + "%" }

func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
