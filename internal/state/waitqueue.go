package state

// WaitQueue indexes a stage's waiting tasks so that node offers find a
// local task without scanning: tasks in index order, and for stages that
// read files, tasks by replica machine and by replica rack. Entries are
// removed lazily (a started task is skipped when met).
type WaitQueue struct {
	Order     TaskList
	ByMachine map[int]*TaskList
	ByRack    map[int]*TaskList
	Pinned    map[int]*TaskList
}

type TaskList struct {
	tasks []*Task
	head  int
}

// First is the first task of the list still waiting.
func (l *TaskList) First() *Task {
	for l.head < len(l.tasks) {
		if t := l.tasks[l.head]; t.State == Waiting {
			return t
		}
		l.tasks[l.head] = nil // let the task be collected
		l.head++
	}
	return nil
}

func (l *TaskList) push(t *Task) { l.tasks = append(l.tasks, t) }

func listIn(m map[int]*TaskList, k int) *TaskList {
	l := m[k]
	if l == nil {
		l = &TaskList{}
		m[k] = l
	}
	return l
}

// add indexes a task that just became waiting.
func (q *WaitQueue) Add(t *Task, rackOf []int) {
	if t.Pin >= 0 {
		if q.Pinned == nil {
			q.Pinned = map[int]*TaskList{}
		}
		listIn(q.Pinned, t.Pin).push(t)
		return
	}
	q.Order.push(t)
	if len(t.Replicas) == 0 {
		return
	}
	if q.ByMachine == nil {
		q.ByMachine, q.ByRack = map[int]*TaskList{}, map[int]*TaskList{}
	}
	for i, m := range t.Replicas {
		listIn(q.ByMachine, m).push(t)
		seen := false
		for _, p := range t.Replicas[:i] {
			seen = seen || rackOf[p] == rackOf[m]
		}
		if !seen {
			listIn(q.ByRack, rackOf[m]).push(t)
		}
	}
}

// FirstIn is the first waiting task of list k of m.
func FirstIn(m map[int]*TaskList, k int) *Task {
	if l := m[k]; l != nil {
		return l.First()
	}
	return nil
}
