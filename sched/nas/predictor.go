package nas

// Predictor is §III-A's shuffle-size predictor for one job: maps of a job
// have similar output/input ratios, so the job's ratio is the mean ratio of
// its completed maps, and a map's output is predicted as ratio × input
// (eq. 1). Before any map completes the job is unpredicted and the ratio is
// 1 (following ShuffleWatcher). The caller feeds it estimated sizes, so the
// engine's truth stays behind the knowledge model.
type Predictor struct {
	ratioSum float64 // Σ output/input over completed maps with input
	withIn   int     // completed maps with input > 0
	outSum   float64 // Σ output over all completed maps
	done     int     // completed maps
}

// Observe records a completed map's input and output bytes.
func (p *Predictor) Observe(in, out float64) {
	p.done++
	p.outSum += out
	if in > 0 {
		p.ratioSum += out / in
		p.withIn++
	}
}

// Predicted reports whether at least one map has completed.
func (p *Predictor) Predicted() bool { return p.done > 0 }

// Ratio is the learned output/input ratio (1 while unpredicted).
func (p *Predictor) Ratio() float64 {
	if p.withIn == 0 {
		return 1
	}
	return p.ratioSum / float64(p.withIn)
}

// Output predicts the output of a map reading in bytes. A map without input
// (a generated dataset) is predicted as the mean output seen so far.
func (p *Predictor) Output(in float64) float64 {
	if in > 0 || p.done == 0 {
		return p.Ratio() * in
	}
	return p.outSum / float64(p.done)
}

// Class is a job's shuffle class (§IV-A).
type Class int8

const (
	Light  Class = iota // shuffle < light threshold (1 MB)
	Medium              // in between
	Heavy               // shuffle > heavy threshold (100 MB)
)

func (c Class) String() string { return [...]string{"light", "medium", "heavy"}[c] }

// Classify puts a shuffle size in its class.
func Classify(shuffle, light, heavy float64) Class {
	switch {
	case shuffle < light:
		return Light
	case shuffle > heavy:
		return Heavy
	}
	return Medium
}
