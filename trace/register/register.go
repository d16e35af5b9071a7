// Package register makes the trace importers and workload generators
// available to scenario files: blank-import it where scenarios are loaded.
//
//	workload: {trace: FB-2010.tsv, format: swim}
//	workload: {trace: FB2010-1Hr-150-0.txt, format: coflow-benchmark}
//	workload: {trace: clusterdata-2011-2, format: google2011}
//	workload: {generate: synthetic | fb2010 | workflow | multistage | css-production | terasort}
package register

import (
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/google"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/trace/swim"
	"github.com/netsched/netsched/workload/gen"
)

func init() {
	scenario.RegisterFormat("swim", swim.Open)
	scenario.RegisterFormat("coflow-benchmark", jobmodel.OpenCoflow)
	scenario.RegisterFormat("google2011", google.Open)
	scenario.RegisterGenerator("css-production", google.OpenCSSProduction)
	scenario.RegisterGenerator("synthetic", gen.OpenSynthetic)
	scenario.RegisterGenerator("fb2010", gen.OpenFB2010)
	scenario.RegisterGenerator("workflow", gen.OpenWorkflow)
	scenario.RegisterGenerator("multistage", gen.OpenMultistage)
	scenario.RegisterGenerator("terasort", gen.OpenTerasort)
}
