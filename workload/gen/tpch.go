package gen

import (
	"fmt"
	"slices"
)

// tpchTable is a TPC-H table's size at scale factor 1: the specification's
// cardinality and typical row length (TPC-H standard specification §4.2.5,
// "Estimated Database Size"). Nation and region do not grow with the scale
// factor; splitting a scaled input by these shares gives them a few hundred
// kB instead of a few kB, which changes nothing measurable.
type tpchTable struct {
	name     string
	rows     float64
	rowBytes float64
}

var tpchTables = []tpchTable{
	{"lineitem", 6001215, 112},
	{"orders", 1500000, 104},
	{"partsupp", 800000, 144},
	{"part", 200000, 155},
	{"customer", 150000, 179},
	{"supplier", 10000, 159},
	{"nation", 25, 128},
	{"region", 5, 124},
}

// tpchShare is each table's share of the database bytes (rows x row
// length over the total): lineitem 67.0%, orders 15.6%, partsupp 11.5%,
// part 3.1%, customer 2.7%, supplier 0.16%, nation and region < 0.001%.
var tpchShare = func() map[string]float64 {
	total := 0.0
	for _, t := range tpchTables {
		total += t.rows * t.rowBytes
	}
	m := map[string]float64{}
	for _, t := range tpchTables {
		m[t.name] = t.rows * t.rowBytes / total
	}
	return m
}()

// proj is the share of a row's bytes that a map emits after projecting the
// columns a query uses (assumption: a query touches about a third of a
// row's bytes; Hive's text rows carry every column).
const proj = 0.3

// few is the map output ratio of a scan that Hive aggregates on the map
// side into a handful of groups per task (hive.map.aggr, on by default).
const few = 1e-6

// A tpchJob is one MapReduce job of a query's Hive plan: a join (inner,
// semi, anti or cross), a group-by or an order-by. reads pairs a table with
// its map-side ratio (predicate selectivity from the specification's value
// ranges, noted beside it, times proj); parents name earlier jobs; dep is
// the map-side ratio on the parents' outputs (0 means 1: they are already
// projected); out is reduce output / shuffle (assumption, with the reason
// beside it); key is the shuffle key.
type tpchJob struct {
	name    string
	op      string
	reads   map[string]float64
	parents []string
	dep     float64
	out     float64
	key     string
}

// Date-range selectivities: orders span 1992-01-01 to 1998-08-02 (2,406
// days), so a quarter keeps 91/2406, a year 365/2406, two years 730/2406.
const (
	quarter = 91.0 / 2406
	year    = 365.0 / 2406
	years2  = 730.0 / 2406
)

// tpchQueries are Hive-on-MapReduce plans of the 22 queries, written the
// way the Hive TPC-H scripts (HIVE-600) stage them: every join on a new key
// is a job (common joins, hive.auto.convert.join off: with map joins Hive
// folds small-table joins into a neighbouring job and no query would reach
// Table 4's depths), joins on the same key merge into one job, and every
// GROUP BY and ORDER BY is a job. Joins go left-deep in FROM order.
var tpchQueries = map[int][]tpchJob{
	1: { // depth 2
		{name: "group", op: "group", reads: map[string]float64{"lineitem": few}, out: 1, key: "flag"}, // l_shipdate <= 1998-09-02 keeps 98%; 4 groups
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	2: { // depth 7
		{name: "join-region", op: "join", reads: map[string]float64{"nation": proj, "region": proj}, out: 0.2, key: "regionkey"}, // r_name = 'EUROPE': 1 of 5
		{name: "join-supplier", op: "join", reads: map[string]float64{"supplier": proj}, parents: []string{"join-region"}, out: 0.2, key: "nationkey"},
		{name: "join-partsupp", op: "join", reads: map[string]float64{"partsupp": 0.15}, parents: []string{"join-supplier"}, out: 0.3, key: "suppkey"}, // 3 of 5 narrow columns; 1/5 of rows match, widened
		{name: "join-part", op: "join", reads: map[string]float64{"part": proj / 250}, parents: []string{"join-partsupp"}, out: 0.005, key: "partkey"}, // p_size = 15 (1/50), p_type like '%BRASS' (1/5)
		{name: "group-min", op: "group", parents: []string{"join-part"}, out: 0.3, key: "partkey"},                                                     // min cost per part
		{name: "join-min", op: "join", parents: []string{"join-part", "group-min"}, out: 0.3, key: "partkey"},
		{name: "order", op: "order", parents: []string{"join-min"}, out: 0.001}, // LIMIT 100
	},
	3: { // depth 4
		{name: "join-orders", op: "join", reads: map[string]float64{"customer": proj / 5, "orders": proj * 0.485}, out: 0.2, key: "custkey"}, // c_mktsegment: 1 of 5; o_orderdate < 1995-03-15
		{name: "join-lineitem", op: "join", reads: map[string]float64{"lineitem": proj * 0.54}, parents: []string{"join-orders"}, out: 0.1, key: "orderkey"},
		{name: "group", op: "group", parents: []string{"join-lineitem"}, out: 0.25, key: "orderkey"}, // ~4 lines per order
		{name: "order", op: "order", parents: []string{"group"}, out: 0.001},                         // LIMIT 10
	},
	4: { // depth 4
		{name: "distinct-lineitem", op: "group", reads: map[string]float64{"lineitem": 0.02}, out: 0.6, key: "orderkey"}, // l_commitdate < l_receiptdate (63%), l_orderkey only
		{name: "join-orders", op: "join", reads: map[string]float64{"orders": 0.2 * quarter}, parents: []string{"distinct-lineitem"}, out: 0.1, key: "orderkey"},
		{name: "group", op: "group", parents: []string{"join-orders"}, dep: 0.001, out: 1, key: "priority"}, // 5 priorities
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	5: { // depth 7
		{name: "join-orders", op: "join", reads: map[string]float64{"customer": proj, "orders": proj * year}, out: 0.7, key: "custkey"},
		{name: "join-lineitem", op: "join", reads: map[string]float64{"lineitem": proj}, parents: []string{"join-orders"}, out: 0.18, key: "orderkey"},  // lines of the year's orders
		{name: "join-supplier", op: "join", reads: map[string]float64{"supplier": proj}, parents: []string{"join-lineitem"}, out: 0.05, key: "suppkey"}, // c_nationkey = s_nationkey: 1 in 25
		{name: "join-nation", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-supplier"}, out: 1, key: "nationkey"},
		{name: "join-region", op: "join", reads: map[string]float64{"region": proj}, parents: []string{"join-nation"}, out: 0.2, key: "regionkey"}, // r_name = 'ASIA'
		{name: "group", op: "group", parents: []string{"join-region"}, dep: 0.001, out: 1, key: "n_name"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	6: { // depth 1
		{name: "aggregate", op: "group", reads: map[string]float64{"lineitem": few}, out: 1}, // one sum over 1.9% of lineitem
	},
	7: { // depth 7
		{name: "join-lineitem", op: "join", reads: map[string]float64{"supplier": proj, "lineitem": proj * years2}, out: 0.9, key: "suppkey"},
		{name: "join-orders", op: "join", reads: map[string]float64{"orders": 0.2}, parents: []string{"join-lineitem"}, out: 0.7, key: "orderkey"},
		{name: "join-customer", op: "join", reads: map[string]float64{"customer": 0.2}, parents: []string{"join-orders"}, out: 0.9, key: "custkey"},
		{name: "join-nation1", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-customer"}, out: 0.08, key: "s_nationkey"}, // FRANCE or GERMANY
		{name: "join-nation2", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-nation1"}, out: 0.04, key: "c_nationkey"},  // the other one
		{name: "group", op: "group", parents: []string{"join-nation2"}, dep: 0.001, out: 1, key: "nations-year"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	8: { // depth 9
		{name: "join-lineitem", op: "join", reads: map[string]float64{"part": proj / 150, "lineitem": proj}, out: 0.007, key: "partkey"}, // p_type: 1 of 150
		{name: "join-supplier", op: "join", reads: map[string]float64{"supplier": proj}, parents: []string{"join-lineitem"}, out: 0.7, key: "suppkey"},
		{name: "join-orders", op: "join", reads: map[string]float64{"orders": 0.2 * years2}, parents: []string{"join-supplier"}, out: 0.04, key: "orderkey"},
		{name: "join-customer", op: "join", reads: map[string]float64{"customer": 0.2}, parents: []string{"join-orders"}, out: 0.05, key: "custkey"},
		{name: "join-nation1", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-customer"}, out: 1, key: "c_nationkey"},
		{name: "join-region", op: "join", reads: map[string]float64{"region": proj}, parents: []string{"join-nation1"}, out: 0.2, key: "regionkey"}, // 'AMERICA'
		{name: "join-nation2", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-region"}, out: 1, key: "s_nationkey"},
		{name: "group", op: "group", parents: []string{"join-nation2"}, dep: 0.001, out: 1, key: "year"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	9: { // depth 7
		{name: "join-lineitem", op: "join", reads: map[string]float64{"part": proj * 0.054, "lineitem": proj}, out: 0.05, key: "partkey"}, // p_name like '%green%': 5 of 92 words
		{name: "join-supplier", op: "join", reads: map[string]float64{"supplier": proj}, parents: []string{"join-lineitem"}, out: 0.8, key: "suppkey"},
		{name: "join-partsupp", op: "join", reads: map[string]float64{"partsupp": 0.15}, parents: []string{"join-supplier"}, out: 0.3, key: "part-suppkey"},
		{name: "join-orders", op: "join", reads: map[string]float64{"orders": 0.15}, parents: []string{"join-partsupp"}, out: 0.3, key: "orderkey"},
		{name: "join-nation", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-orders"}, out: 1, key: "nationkey"},
		{name: "group", op: "group", parents: []string{"join-nation"}, dep: 0.001, out: 1, key: "nation-year"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	10: { // depth 5
		{name: "join-orders", op: "join", reads: map[string]float64{"customer": 0.4, "orders": 0.2 * quarter}, out: 0.3, key: "custkey"},
		{name: "join-lineitem", op: "join", reads: map[string]float64{"lineitem": proj * 0.25}, parents: []string{"join-orders"}, out: 0.05, key: "orderkey"}, // l_returnflag = 'R'
		{name: "join-nation", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-lineitem"}, out: 1, key: "nationkey"},
		{name: "group", op: "group", parents: []string{"join-nation"}, out: 0.5, key: "custkey"},
		{name: "order", op: "order", parents: []string{"group"}, out: 0.001}, // LIMIT 20
	},
	11: { // depth 6
		{name: "join-supplier", op: "join", reads: map[string]float64{"partsupp": 0.15, "supplier": proj}, out: 0.9, key: "suppkey"},
		{name: "join-nation", op: "join", reads: map[string]float64{"nation": proj}, parents: []string{"join-supplier"}, out: 0.04, key: "nationkey"}, // 'GERMANY': 1 of 25
		// Level 3: map-side aggregation shrinks the dependent data (Dawn §2.2).
		{name: "group-value", op: "group", parents: []string{"join-nation"}, dep: 0.3, out: 0.5, key: "partkey"},
		{name: "sum-value", op: "group", parents: []string{"group-value"}, dep: 0.001, out: 1},
		{name: "filter", op: "join", parents: []string{"group-value", "sum-value"}, out: 0.01, key: "partkey"}, // value > 0.0001 x total
		{name: "order", op: "order", parents: []string{"filter"}, out: 1},
	},
	12: { // depth 3
		{name: "join-lineitem", op: "join", reads: map[string]float64{"orders": 0.2, "lineitem": proj * 0.014}, out: 0.1, key: "orderkey"}, // 2 of 7 modes, dates: 1.4%
		{name: "group", op: "group", parents: []string{"join-lineitem"}, dep: 0.001, out: 1, key: "shipmode"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	13: { // depth 4
		{name: "outer-join", op: "join", reads: map[string]float64{"customer": 0.05, "orders": 0.15}, out: 1, key: "custkey"}, // keys only; 99% of comments pass
		{name: "group-customer", op: "group", parents: []string{"outer-join"}, out: 0.1, key: "custkey"},                      // ~10 orders per customer
		{name: "group-count", op: "group", parents: []string{"group-customer"}, dep: 0.01, out: 1, key: "c_count"},
		{name: "order", op: "order", parents: []string{"group-count"}, out: 1},
	},
	14: { // depth 2
		{name: "join-part", op: "join", reads: map[string]float64{"lineitem": proj * 0.013, "part": 0.2}, out: 0.3, key: "partkey"}, // one month of shipdates
		{name: "aggregate", op: "group", parents: []string{"join-part"}, dep: 0.001, out: 1},
	},
	15: { // depth 4
		{name: "revenue", op: "group", reads: map[string]float64{"lineitem": 0.2 * quarter * 0.5}, out: 0.05, key: "suppkey"},
		{name: "max-revenue", op: "group", parents: []string{"revenue"}, dep: 0.001, out: 1},
		{name: "join-supplier", op: "join", reads: map[string]float64{"supplier": 0.4}, parents: []string{"revenue", "max-revenue"}, out: 1e-4, key: "suppkey"}, // the top supplier
		{name: "order", op: "order", parents: []string{"join-supplier"}, out: 1},
	},
	16: { // depth 4
		{name: "join-part", op: "join", reads: map[string]float64{"partsupp": 0.1, "part": proj * 0.12}, out: 0.22, key: "partkey"},                           // brand, type, 8 of 50 sizes
		{name: "anti-join-supplier", op: "join", reads: map[string]float64{"supplier": 0.1 * 0.0005}, parents: []string{"join-part"}, out: 1, key: "suppkey"}, // complaints: 0.05%
		{name: "group", op: "group", parents: []string{"anti-join-supplier"}, out: 0.2, key: "brand-type-size"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
	17: { // depth 3
		{name: "avg-quantity", op: "group", reads: map[string]float64{"lineitem": 0.05}, out: 0.1, key: "partkey"},
		// p_partkey = l_partkey = avg.l_partkey: one job (same key).
		{name: "join-part", op: "join", reads: map[string]float64{"part": proj * 0.001, "lineitem": 0.15}, parents: []string{"avg-quantity"}, out: 0.001, key: "partkey"}, // brand 1/25, container 1/40
		{name: "aggregate", op: "group", parents: []string{"join-part"}, dep: 0.001, out: 1},
	},
	18: { // depth 4
		{name: "group-lineitem", op: "group", reads: map[string]float64{"lineitem": 0.025}, out: 1e-5, key: "orderkey"}, // sum(l_quantity) > 300: a few orders
		{name: "join-orders", op: "join", reads: map[string]float64{"customer": proj, "orders": proj}, out: 0.9, key: "custkey"},
		{name: "join-lineitem", op: "join", reads: map[string]float64{"lineitem": 0.1}, parents: []string{"join-orders", "group-lineitem"}, out: 1e-5, key: "orderkey"},
		{name: "group", op: "group", parents: []string{"join-lineitem"}, out: 0.2, key: "orderkey"},
		{name: "order", op: "order", parents: []string{"group"}, out: 0.001}, // LIMIT 100
	},
	19: { // depth 2
		{name: "join-part", op: "join", reads: map[string]float64{"lineitem": proj * 0.07, "part": proj * 0.1}, out: 0.01, key: "partkey"}, // AIR modes, IN PERSON; 3 brands
		{name: "aggregate", op: "group", parents: []string{"join-part"}, dep: 0.001, out: 1},
	},
	20: { // depth 6
		{name: "forest-parts", op: "group", reads: map[string]float64{"part": 0.05 / 92}, out: 1, key: "partkey"},                                       // p_name like 'forest%': 1 of 92
		{name: "sum-quantity", op: "group", reads: map[string]float64{"lineitem": 0.1 * year}, out: 0.5, key: "part-suppkey"},                           // one year of shipdates
		{name: "join-partsupp", op: "join", reads: map[string]float64{"partsupp": 0.15}, parents: []string{"forest-parts"}, out: 0.011, key: "partkey"}, // forest parts only
		{name: "join-quantity", op: "join", parents: []string{"sum-quantity", "join-partsupp"}, out: 0.02, key: "part-suppkey"},                         // availqty > half the sum
		{name: "distinct-supplier", op: "group", parents: []string{"join-quantity"}, out: 0.5, key: "suppkey"},
		{name: "join-nation", op: "join", reads: map[string]float64{"supplier": 0.4, "nation": proj / 25}, out: 0.04, key: "nationkey"}, // 'CANADA'
		{name: "join-supplier", op: "join", parents: []string{"join-nation", "distinct-supplier"}, out: 0.5, key: "suppkey"},
		{name: "order", op: "order", parents: []string{"join-supplier"}, out: 1},
	},
	21: { // depth 5
		{name: "suppliers-per-order", op: "group", reads: map[string]float64{"lineitem": 0.03}, out: 0.8, key: "orderkey"},
		{name: "late-suppliers", op: "group", reads: map[string]float64{"lineitem": 0.02}, out: 0.8, key: "orderkey"}, // l_receiptdate > l_commitdate: 63%
		{name: "join-supplier", op: "join", reads: map[string]float64{"lineitem": 0.1 * 0.63, "supplier": proj}, out: 1, key: "suppkey"},
		{name: "join-nation", op: "join", reads: map[string]float64{"nation": proj / 25}, parents: []string{"join-supplier"}, out: 0.04, key: "nationkey"}, // 'SAUDI ARABIA'
		// o_orderkey = l1.l_orderkey = both temporaries' keys: one job.
		{name: "join-orders", op: "join", reads: map[string]float64{"orders": 0.1 * 0.49}, parents: []string{"join-nation", "suppliers-per-order", "late-suppliers"}, out: 0.05, key: "orderkey"}, // o_orderstatus = 'F'
		{name: "group", op: "group", parents: []string{"join-orders"}, dep: 0.1, out: 0.5, key: "s_name"},
		{name: "order", op: "order", parents: []string{"group"}, out: 0.001}, // LIMIT 100
	},
	22: { // depth 5
		{name: "avg-balance", op: "group", reads: map[string]float64{"customer": few}, out: 1},                                                             // one average
		{name: "order-customers", op: "group", reads: map[string]float64{"orders": 0.025}, out: 0.7, key: "custkey"},                                       // distinct o_custkey
		{name: "anti-join", op: "join", reads: map[string]float64{"customer": 0.2 * 0.28}, parents: []string{"order-customers"}, out: 0.1, key: "custkey"}, // 7 of 25 country codes
		{name: "cross-join", op: "join", parents: []string{"anti-join", "avg-balance"}, out: 0.5, key: "custkey"},                                          // c_acctbal > average
		{name: "group", op: "group", parents: []string{"cross-join"}, dep: 0.01, out: 1, key: "cntrycode"},
		{name: "order", op: "order", parents: []string{"group"}, out: 1},
	},
}

// tpchShape turns query q's plan into a shape.
func tpchShape(q int) []shapeJob {
	plan := tpchQueries[q]
	index := map[string]int{}
	js := make([]shapeJob, 0, len(plan))
	for i, pj := range plan {
		s := shapeJob{name: fmt.Sprintf("q%d-%s", q, pj.name), role: pj.op, dep: pj.dep, out: pj.out, key: pj.key, join: pj.op == "join"}
		if s.dep == 0 {
			s.dep = 1
		}
		for _, p := range pj.parents {
			s.parents = append(s.parents, index[p])
		}
		tables := make([]string, 0, len(pj.reads))
		for t := range pj.reads {
			tables = append(tables, t)
		}
		// Map iteration order is random; the table order is fixed by size
		// (tpchTables), so the shapes are deterministic.
		slices.SortFunc(tables, func(a, b string) int { return tableIndex(a) - tableIndex(b) })
		for _, t := range tables {
			s.reads = append(s.reads, tableRead{table: t, share: tpchShare[t], sel: pj.reads[t]})
		}
		index[pj.name] = i
		js = append(js, s)
	}
	return js
}

func tableIndex(name string) int {
	return slices.IndexFunc(tpchTables, func(t tpchTable) bool { return t.name == name })
}
