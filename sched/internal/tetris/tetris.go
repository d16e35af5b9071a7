// Package tetris is the multi-resource packing step of Tetris (Grandl et
// al., SIGCOMM 2014), as shared/design/baselines.md §8 specifies it: an
// item may go into a bin only if its demand fits the bin's free resources
// in every dimension, and among the items that fit the one whose demand is
// best aligned with the free resources (the dot product of the two
// vectors, each normalized by the bin's capacity) is placed first.
//
// JobPacker (§4.3, "batch scenario") uses it to divide a batch of jobs into
// B sub-batches of similar demand: each sub-batch is a bin with a share of
// the cluster's capacity and each job an item demanding its shuffle bytes,
// map tasks and reduce tasks. Only the alignment score is used: Tetris's
// remaining-work term, fairness knob and barrier knob order tasks of
// running jobs on machines over time, which a one-shot division has no use
// for.
package tetris

import "fmt"

// Alignment is Tetris's score of placing demand into a bin with free
// resources free and capacity capacity: sum over dimensions of
// (demand/capacity)·(free/capacity). A dimension of zero capacity adds
// nothing. Example (Tetris footnote, already normalized): free (0.2, 0.3,
// 0.5) and demand (0.1, 0.2, 0.3) score 0.02+0.06+0.15 = 0.23.
func Alignment(demand, free, capacity []float64) float64 {
	s := 0.0
	for d := range demand {
		if capacity[d] > 0 {
			s += demand[d] / capacity[d] * free[d] / capacity[d]
		}
	}
	return s
}

// Fits reports whether demand fits free in every dimension.
func Fits(demand, free []float64) bool {
	for d := range demand {
		if demand[d] > free[d] {
			return false
		}
	}
	return true
}

// Pack divides items (demand vectors of one length) into bins, each of the
// given capacity, and returns each item's bin. Items are placed one at a
// time: the (item, bin) pair that fits with the highest Alignment goes
// first (ties: lower item index, then lower bin index), and the bin's free
// resources shrink by the demand. Items that fit in no bin once the
// packing stops (larger than a bin's share, or left over by fragmentation)
// go, largest first, to the bin with the most free capacity in its
// tightest dimension, which may then run over. Deterministic: no
// randomness, no map iteration.
func Pack(items [][]float64, capacity []float64, bins int) ([]int, error) {
	if bins < 1 {
		return nil, fmt.Errorf("tetris: %d bins, need at least 1", bins)
	}
	for i, it := range items {
		if len(it) != len(capacity) {
			return nil, fmt.Errorf("tetris: item %d has %d dimensions, capacity has %d", i, len(it), len(capacity))
		}
		for _, x := range it {
			if !(x >= 0) {
				return nil, fmt.Errorf("tetris: item %d has a negative or NaN demand %v", i, it)
			}
		}
	}
	free := make([][]float64, bins)
	for b := range free {
		free[b] = append([]float64(nil), capacity...)
	}
	bin := make([]int, len(items))
	for i := range bin {
		bin[i] = -1
	}
	for placed := 0; placed < len(items); placed++ {
		bi, bb, best := -1, -1, -1.0
		for i, it := range items {
			if bin[i] >= 0 {
				continue
			}
			for b := range free {
				if !Fits(it, free[b]) {
					continue
				}
				if s := Alignment(it, free[b], capacity); s > best {
					bi, bb, best = i, b, s
				}
			}
		}
		if bi < 0 {
			break
		}
		assign(bin, free, items, bi, bb)
	}
	for {
		bi, size := -1, -1.0
		for i, it := range items {
			if bin[i] < 0 {
				if s := normSum(it, capacity); s > size {
					bi, size = i, s
				}
			}
		}
		if bi < 0 {
			return bin, nil
		}
		bb, room := 0, 0.0
		for b := range free {
			if r := tightest(free[b], capacity); b == 0 || r > room {
				bb, room = b, r
			}
		}
		assign(bin, free, items, bi, bb)
	}
}

func assign(bin []int, free [][]float64, items [][]float64, i, b int) {
	bin[i] = b
	for d, x := range items[i] {
		free[b][d] -= x
	}
}

// normSum is the size of a demand: the sum of its dimensions relative to
// capacity.
func normSum(demand, capacity []float64) float64 {
	s := 0.0
	for d := range demand {
		if capacity[d] > 0 {
			s += demand[d] / capacity[d]
		}
	}
	return s
}

// tightest is a bin's free share in its fullest dimension.
func tightest(free, capacity []float64) float64 {
	r := 0.0
	first := true
	for d := range free {
		if capacity[d] <= 0 {
			continue
		}
		if x := free[d] / capacity[d]; first || x < r {
			r, first = x, false
		}
	}
	return r
}

// Shares is the capacity of one of bins equal bins holding all items: each
// dimension's total demand divided by bins.
func Shares(items [][]float64, dims, bins int) []float64 {
	c := make([]float64, dims)
	for _, it := range items {
		for d, x := range it {
			c[d] += x
		}
	}
	for d := range c {
		c[d] /= float64(bins)
	}
	return c
}
