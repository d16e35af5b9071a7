package scenario

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
)

// MaxAliasNodes bounds what YAML aliases may add to a document: the nodes
// of every alias's anchored value, counted as the decoder will expand
// them (an alias inside an anchored value counts again each time). A few
// kilobytes of aliases can otherwise stand for millions of tasks (an
// anchor of 2,500 tasks used by 1,900 stages is 4.75 M tasks in 69 KB).
const MaxAliasNodes = 1_000_000

// checkAliases rejects a document whose aliases expand to more than
// MaxAliasNodes nodes, at the alias that crosses the budget.
func checkAliases(src *source, body ast.Node) error {
	c := aliasCounter{anchors: map[string]int{}}
	c.size(body)
	if c.over == nil {
		return nil
	}
	l, col := position(c.over)
	return src.errAtPos(l, col, fmt.Sprintf("the aliases of this document expand to more than %d YAML nodes (the limit; docs/scenario.md#limits): repeat a stage with count or a distribution, not a list of tasks behind an alias", MaxAliasNodes))
}

// aliasCounter walks a document in order, sizing each anchored value as
// expanded, and adds up what the aliases yield.
type aliasCounter struct {
	anchors  map[string]int // anchor name -> nodes of its value, expanded
	expanded int            // nodes the aliases so far yield
	over     ast.Node       // the alias that crossed MaxAliasNodes
}

// size is the number of nodes n stands for once its aliases are expanded,
// saturated just past MaxAliasNodes (nested anchors can double it at
// each level).
func (c *aliasCounter) size(n ast.Node) int {
	if n == nil || c.over != nil {
		return 0
	}
	total := 1
	add := func(k int) { total = min(total+k, MaxAliasNodes+1) }
	switch v := n.(type) {
	case *ast.AliasNode:
		k := c.anchors[aliasName(v)]
		c.expanded = min(c.expanded+k, MaxAliasNodes+1)
		if c.expanded > MaxAliasNodes {
			c.over = v
		}
		add(k)
	case *ast.AnchorNode:
		k := c.size(v.Value)
		if v.Name != nil {
			c.anchors[v.Name.GetToken().Value] = k
		}
		add(k)
	case *ast.TagNode:
		add(c.size(v.Value))
	case *ast.MappingNode:
		for _, mv := range v.Values {
			add(c.size(mv))
		}
	case *ast.MappingValueNode:
		add(c.size(v.Key))
		add(c.size(v.Value))
	case *ast.SequenceNode:
		for _, e := range v.Values {
			add(c.size(e))
		}
	case *ast.DocumentNode:
		add(c.size(v.Body))
	}
	return total
}

func aliasName(a *ast.AliasNode) string {
	if a.Value == nil {
		return ""
	}
	return a.Value.GetToken().Value
}
