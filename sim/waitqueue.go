package sim

// waitQueue indexes a stage's waiting tasks so that node offers find a
// local task without scanning: tasks in index order, and for stages that
// read files, tasks by replica machine and by replica rack. Entries are
// removed lazily (a started task is skipped when met).
type waitQueue struct {
	order     taskList
	byMachine map[int]*taskList
	byRack    map[int]*taskList
	pinned    map[int]*taskList
}

type taskList struct {
	tasks []*Task
	head  int
}

func (l *taskList) first() *Task {
	for l.head < len(l.tasks) {
		if t := l.tasks[l.head]; t.State == Waiting {
			return t
		}
		l.tasks[l.head] = nil // let the task be collected
		l.head++
	}
	return nil
}

func (l *taskList) push(t *Task) { l.tasks = append(l.tasks, t) }

func listIn(m map[int]*taskList, k int) *taskList {
	l := m[k]
	if l == nil {
		l = &taskList{}
		m[k] = l
	}
	return l
}

// add indexes a task that just became waiting.
func (q *waitQueue) add(t *Task, rackOf []int) {
	if t.Pin >= 0 {
		if q.pinned == nil {
			q.pinned = map[int]*taskList{}
		}
		listIn(q.pinned, t.Pin).push(t)
		return
	}
	q.order.push(t)
	if len(t.Replicas) == 0 {
		return
	}
	if q.byMachine == nil {
		q.byMachine, q.byRack = map[int]*taskList{}, map[int]*taskList{}
	}
	for i, m := range t.Replicas {
		listIn(q.byMachine, m).push(t)
		seen := false
		for _, p := range t.Replicas[:i] {
			seen = seen || rackOf[p] == rackOf[m]
		}
		if !seen {
			listIn(q.byRack, rackOf[m]).push(t)
		}
	}
}

func firstIn(m map[int]*taskList, k int) *Task {
	if l := m[k]; l != nil {
		return l.first()
	}
	return nil
}
