// Package costbench holds only a benchmark: every scheduler's
// own time per decision on the busy scenario with 1,000, 20,000 and
// 100,000 mostly-waiting active jobs. See docs/performance.md.
package costbench
