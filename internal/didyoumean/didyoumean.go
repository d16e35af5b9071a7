// Package didyoumean proposes the closest known name for a likely typo, so
// that every "unknown key" message in netsched can end the same helpful way.
package didyoumean

import (
	"fmt"
	"strings"
)

// Suggest returns `; did you mean "x"?` for the known name within edit
// distance 2 of k (case-insensitive), or "" when none is that close.
func Suggest(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if d := editDistance(strings.ToLower(k), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance with two rolling rows.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
