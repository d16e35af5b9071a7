package report

import (
	"fmt"
	"image/color"
	"os"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GanttMaxTasks is the largest run drawn as a Gantt chart (its tasks.csv
// is kept by default).
const GanttMaxTasks = 5000

// ganttMachines is the most machines a Gantt chart shows; a larger cluster
// is sampled evenly, so the chart stays readable.
const ganttMachines = 24

// firstCell is the run single-run figures show for a scheduler: the first
// seed at the focus point.
func (g *gen) firstCell(s string) *Cell {
	cells := g.r.okCells(s, g.focus, -1)
	if len(cells) == 0 {
		return nil
	}
	return cells[0]
}

// utilization: the network monitor's cross-rack utilization over time, one
// line per scheduler (first seed at the focus point).
func (g *gen) utilization() *Figure {
	p := newPlot("Cross-rack network utilization", "time (s)", "cross-rack utilization")
	drawn := 0
	for i, s := range g.r.Schedulers {
		c := g.firstCell(s)
		if c == nil {
			continue
		}
		samples, err := readTimeline(g.r.cellDir(c))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			g.skip("utilization of %s: %v", s, err)
			continue
		}
		if len(samples) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(samples))
		for k, sm := range samples {
			pts[k] = plotter.XY{X: sm.t, Y: sm.crossRack}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			g.skip("utilization of %s: %v", s, err)
			continue
		}
		l.LineStyle = lineStyle(i, false)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (seed %d)", s, c.Seed), l)
		drawn++
	}
	if drawn == 0 {
		g.skip("network utilization timeline: no cell has timeline samples (set record.timeline: true in the sweep)")
		return nil
	}
	p.Y.Min = 0
	return figure("utilization", "Cross-rack network utilization",
		"Utilization of the rack-to-core links as sampled by the network monitor (smoothed), one run per scheduler."+g.focusText(), p)
}

// gantts: for runs of at most GanttMaxTasks tasks, every slot's tasks over
// time, input phase light and compute phase dark, colored by job.
func (g *gen) gantts() []*Figure {
	var figs []*Figure
	for _, s := range g.r.Schedulers {
		c := g.firstCell(s)
		if c == nil {
			continue
		}
		tasks, err := readTasks(g.r.cellDir(c))
		if os.IsNotExist(err) {
			g.skip("Gantt chart of %s: no tasks.csv (kept for runs of at most %d tasks, or with record.tasks: always)", s, GanttMaxTasks)
			continue
		}
		if err != nil {
			g.skip("Gantt chart of %s: %v", s, err)
			continue
		}
		if len(tasks) == 0 || len(tasks) > GanttMaxTasks {
			g.skip("Gantt chart of %s: %d tasks (drawn for 1 to %d)", s, len(tasks), GanttMaxTasks)
			continue
		}
		tasks, sample := sampleMachines(tasks, ganttMachines)
		figs = append(figs, g.gantt(s, c, tasks, sample))
	}
	return figs
}

// sampleMachines keeps the tasks of at most n machines, evenly spaced over
// those that ran tasks; note says which, or is "" when all are kept.
func sampleMachines(tasks []task, n int) (kept []task, note string) {
	var machines []int
	for _, t := range tasks {
		if !slices.Contains(machines, t.machine) {
			machines = append(machines, t.machine)
		}
	}
	if len(machines) <= n {
		return tasks, ""
	}
	sort.Ints(machines)
	pick := map[int]bool{}
	for i := range n {
		pick[machines[i*len(machines)/n]] = true
	}
	for _, t := range tasks {
		if pick[t.machine] {
			kept = append(kept, t)
		}
	}
	return kept, fmt.Sprintf(" Shown: %d of the %d machines that ran tasks, evenly spaced by number.", n, len(machines))
}

func (g *gen) gantt(s string, c *Cell, tasks []task, sample string) *Figure {
	rows, machineRow := assignSlots(tasks)
	var jobs []string
	gb := &ganttBars{}
	for i, t := range tasks {
		j := slices.Index(jobs, t.job)
		if j < 0 {
			j, jobs = len(jobs), append(jobs, t.job)
		}
		col := seriesColor(j)
		gb.add(rows[i], t.start, t.inputDone, lighten(col, 0.6))
		gb.add(rows[i], t.inputDone, t.finish, col)
	}
	title := fmt.Sprintf("Slots over time: %s", s)
	p := newPlot(title, "time (s)", "machine / slot")
	p.Add(gb)
	var ticks plot.ConstantTicks
	for m, r := range machineRow {
		ticks = append(ticks, plot.Tick{Value: float64(r), Label: fmt.Sprintf("m%d", m)})
	}
	sort.Slice(ticks, func(a, b int) bool { return ticks[a].Value < ticks[b].Value })
	p.Y.Tick.Marker = ticks
	f := figure("gantt-"+fileStem(s), title,
		fmt.Sprintf("Every task of %s's run (seed %d) on its slot: the light part of a bar is the input phase (reading over the network), the dark part the compute phase; one color per job.%s%s", s, c.Seed, sample, g.focusText()), p)
	f.h = vg.Length(min(12, max(3.5, 1.5+0.15*float64(gb.rows)))) * vg.Inch
	return f
}

// assignSlots numbers each machine's slots from what ran: tasks by start
// time go to the lowest slot free at their start (the engine never runs
// more tasks than slots, so this is a valid assignment). It returns each
// task's row and the first row of every machine.
func assignSlots(tasks []task) ([]int, map[int]int) {
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := tasks[order[a]], tasks[order[b]]
		if ta.machine != tb.machine {
			return ta.machine < tb.machine
		}
		return ta.start < tb.start
	})
	slotOf := make([]int, len(tasks))
	slots := map[int][]float64{} // machine -> each slot's busy-until time
	for _, i := range order {
		t := tasks[i]
		free := slots[t.machine]
		k := slices.IndexFunc(free, func(until float64) bool { return until <= t.start })
		if k < 0 {
			k, free = len(free), append(free, 0)
		}
		free[k] = t.finish
		slots[t.machine] = free
		slotOf[i] = k
	}
	var machines []int
	for m := range slots {
		machines = append(machines, m)
	}
	sort.Ints(machines)
	first, next := map[int]int{}, 0
	for _, m := range machines {
		first[m] = next
		next += len(slots[m])
	}
	rows := make([]int, len(tasks))
	for i, t := range tasks {
		rows[i] = first[t.machine] + slotOf[i]
	}
	return rows, first
}

// ganttBars draws one rectangle per task phase.
type ganttBars struct {
	bars []ganttBar
	rows int
	xmax float64
}

type ganttBar struct {
	row    int
	x0, x1 float64
	color  color.Color
}

func (gb *ganttBars) add(row int, x0, x1 float64, c color.Color) {
	gb.rows = max(gb.rows, row+1)
	gb.xmax = max(gb.xmax, x1)
	if x1 > x0 {
		gb.bars = append(gb.bars, ganttBar{row, x0, x1, c})
	}
}

func (gb *ganttBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range gb.bars {
		x0, x1 := trX(b.x0), trX(b.x1)
		y0, y1 := trY(float64(b.row)-0.4), trY(float64(b.row)+0.4)
		c.FillPolygon(b.color, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}

func (gb *ganttBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, gb.xmax, -0.5, float64(gb.rows) - 0.5
}
