package graph

import "container/heap"

// csr is a compressed adjacency list: the successors of node i are
// adj[start[i]:start[i+1]].
type csr struct {
	start []int32
	adj   []int32
}

func successors(n int, edges [][2]int) csr {
	c := csr{start: make([]int32, n+1), adj: make([]int32, len(edges))}
	for _, e := range edges {
		c.start[e[0]+1]++
	}
	for i := 0; i < n; i++ {
		c.start[i+1] += c.start[i]
	}
	// edges are sorted by producer, so they fill adj in order.
	for i, e := range edges {
		c.adj[i] = int32(e[1])
	}
	return c
}

// order fills Topo or Cycle. Dumps are almost always written in execution
// order, so the common case is checked first in one pass.
func (g *Graph) order() {
	inOrder := true
	for _, e := range g.Edges {
		if e[0] >= e[1] {
			inOrder = false
			break
		}
	}
	if inOrder {
		g.Topo = make([]int, g.N)
		for i := range g.Topo {
			g.Topo[i] = i
		}
		return
	}
	succ := successors(g.N, g.Edges)
	indeg := make([]int32, g.N)
	for _, e := range g.Edges {
		indeg[e[1]]++
	}
	ready := &intHeap{}
	for i := 0; i < g.N; i++ {
		if indeg[i] == 0 {
			*ready = append(*ready, int32(i))
		}
	}
	heap.Init(ready)
	topo := make([]int, 0, g.N)
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int32)
		topo = append(topo, int(v))
		for _, w := range succ.adj[succ.start[v]:succ.start[v+1]] {
			indeg[w]--
			if indeg[w] == 0 {
				heap.Push(ready, w)
			}
		}
	}
	if len(topo) == g.N {
		g.Topo = topo
		return
	}
	g.Cycle = findCycle(g.N, succ, indeg)
}

// findCycle runs an iterative depth-first search over the nodes Kahn's
// algorithm could not order (indeg > 0) and returns the first cycle found.
func findCycle(n int, succ csr, indeg []int32) []int {
	const (
		white = 0
		grey  = 1
		black = 2
	)
	colour := make([]uint8, n)
	parent := make([]int32, n)
	type frame struct {
		v    int32
		next int32
	}
	for s := 0; s < n; s++ {
		if indeg[s] == 0 || colour[s] != white {
			continue
		}
		stack := []frame{{v: int32(s), next: succ.start[s]}}
		colour[s] = grey
		parent[s] = -1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == succ.start[top.v+1] {
				colour[top.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := succ.adj[top.next]
			top.next++
			if indeg[w] == 0 {
				continue // ordered by Kahn: cannot be on a cycle
			}
			switch colour[w] {
			case white:
				colour[w] = grey
				parent[w] = top.v
				stack = append(stack, frame{v: w, next: succ.start[w]})
			case grey:
				// Back edge top.v → w closes a cycle w → ... → top.v → w.
				var rev []int
				for x := top.v; x != w; x = parent[x] {
					rev = append(rev, int(x))
				}
				cycle := []int{int(w)}
				for i := len(rev) - 1; i >= 0; i-- {
					cycle = append(cycle, rev[i])
				}
				return append(cycle, int(w))
			}
		}
	}
	return nil
}

type intHeap []int32

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int32)) }
func (h *intHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}
