package dawn_test

import (
	"slices"
	"testing"

	"github.com/netsched/netsched/sched/dawn"
)

// Fig. 8: five jobs at two levels; job 4 reads jobs 1 and 2, job 5 reads
// jobs 2 and 3. The paper gives Next_2 = {job 4, job 5}, Prev_{2,4} =
// {job 1} and Prev_{2,5} = {job 3}; by the definitions, Next_1 = {4},
// Next_3 = {5}, Prev_{1,4} = {2}, Prev_{3,5} = {2}, and level-2 jobs have
// no Next.
func TestFig8NextAndPrev(t *testing.T) {
	g := dawn.NewGraph()
	for _, j := range []struct {
		id      string
		parents []string
	}{{"1", nil}, {"2", nil}, {"3", nil}, {"4", []string{"1", "2"}}, {"5", []string{"2", "3"}}} {
		g.Add(j.id, j.parents)
	}
	for _, c := range []struct {
		got, want []string
		what      string
	}{
		{g.Next("2"), []string{"4", "5"}, "Next_2"},
		{g.Prev("2", "4"), []string{"1"}, "Prev_{2,4}"},
		{g.Prev("2", "5"), []string{"3"}, "Prev_{2,5}"},
		{g.Next("1"), []string{"4"}, "Next_1"},
		{g.Next("3"), []string{"5"}, "Next_3"},
		{g.Prev("1", "4"), []string{"2"}, "Prev_{1,4}"},
		{g.Prev("3", "5"), []string{"2"}, "Prev_{3,5}"},
		{g.Next("4"), nil, "Next_4"},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	g.Remove("2")
	if n := g.Next("2"); n != nil {
		t.Errorf("Next of a removed job: %v", n)
	}
	if p := g.Prev("1", "4"); !slices.Equal(p, []string{"2"}) {
		t.Errorf("job 4 still reads job 2's output: Prev_{1,4} = %v, want [2]", p)
	}
}
