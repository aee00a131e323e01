package pgo

import (
	"slices"
	"sort"

	"github.com/google/pprof/profile"
)

// DefaultHotCDF is the compiler's default threshold for hot call sites:
// the hottest call edges that together make up this percentage of the
// call-edge weight are hot (cmd/compile/internal/inline,
// inlineCDFHotCallSiteThresholdPercent; -d=pgoinlinecdfthreshold).
const DefaultHotCDF = 99.0

// An Edge is a call edge as the compiler's PGO sees it: a call from the
// line at Offset lines after the start of Caller to Callee. Names are
// linker symbol names as in profiles, e.g. "example.com/pkg.(*T).M".
type Edge struct {
	Caller string
	Offset int
	Callee string
	Weight int64
}

type edgeKey struct {
	caller, callee string
	offset         int
}

// Edges are the call edges of a profile, hottest first, in the compiler's
// order.
type Edges struct {
	Edges []Edge
	Total int64 // sum of the weights of all edges
	// StartLine reports whether any frame the compiler looks at has a
	// start line; without, the compiler rejects the profile.
	StartLine bool
}

// CallEdges computes the call edges of p and their weights the way
// go tool preprofile and the compiler do (cmd/internal/pgo.FromPProf): the
// weight of a sample (its samples/count or cpu/nanoseconds value,
// whichever comes first) goes to the calls between the frames, including
// inlined frames, of its last two locations only.
func CallEdges(p *profile.Profile) *Edges {
	return callEdges(p.SampleType, func(f func(*profile.Sample)) {
		for _, s := range p.Sample {
			f(s)
		}
	})
}

func callEdges(types []*profile.ValueType, each func(func(*profile.Sample))) *Edges {
	vi := -1
	for i, st := range types {
		if (st.Type == "samples" && st.Unit == "count") || (st.Type == "cpu" && st.Unit == "nanoseconds") {
			vi = i
			break
		}
	}
	res := &Edges{}
	if vi < 0 {
		return res
	}
	weight := map[edgeKey]int64{}
	each(func(s *profile.Sample) {
		w := s.Value[vi]
		if w == 0 {
			return
		}
		forEachNode(s, func(n node) { res.StartLine = res.StartLine || n.start != 0 })
		forEachEdge(s, func(k edgeKey) {
			weight[k] += w
			res.Total += w
		})
	})
	res.Edges = make([]Edge, 0, len(weight))
	for k, w := range weight {
		res.Edges = append(res.Edges, Edge{Caller: k.caller, Offset: k.offset, Callee: k.callee, Weight: w})
	}
	sort.Slice(res.Edges, func(i, j int) bool {
		ei, ej := res.Edges[i], res.Edges[j]
		if ei.Weight != ej.Weight {
			return ei.Weight > ej.Weight
		}
		if ei.Caller != ej.Caller {
			return ei.Caller < ej.Caller
		}
		if ei.Callee != ej.Callee {
			return ei.Callee < ej.Callee
		}
		return ei.Offset < ej.Offset
	})
	return res
}

// Hot returns the edges the compiler treats as hot at the given CDF
// threshold in percent (DefaultHotCDF by default), and the weight of the
// last of them in percent of the total, which the compiler prints as
// hot-callsite-thres-from-CDF with -d=pgodebug=1.
func (e *Edges) Hot(cdf float64) ([]Edge, float64) {
	var cum int64
	for i, x := range e.Edges {
		cum += x.Weight
		if percent(cum, e.Total) > cdf {
			return e.Edges[:i+1], percent(x.Weight, e.Total)
		}
	}
	return e.Edges, 0
}

func percent(v, total int64) float64 { return float64(v) / float64(total) * 100 }

// A node is a frame as the compiler's profile graph identifies it.
type node struct {
	addr  uint64
	line  int64
	name  string
	start int64
}

// forEachNode calls f for the frames of the last two locations of s,
// from the outermost caller to the leaf.
func forEachNode(s *profile.Sample, f func(node)) {
	i := min(1, len(s.Location)-1)
	for ; i >= 0; i-- {
		l := s.Location[i]
		lines := l.Line
		if len(lines) == 0 {
			f(node{addr: l.Address})
			continue
		}
		for j := len(lines) - 1; j >= 0; j-- {
			ln := lines[j]
			n := node{addr: l.Address}
			if ln.Function != nil {
				n.line, n.name, n.start = ln.Line, ln.Function.Name, ln.Function.StartLine
			}
			f(n)
		}
	}
}

// forEachEdge calls f for each call edge of s the compiler counts, with the
// compiler's rules against counting an edge twice in one sample
// (internal/profile.NewGraph).
func forEachEdge(s *profile.Sample, f func(edgeKey)) {
	var nodesBuf [16]node
	var edgesBuf [16][2]node
	seenNodes, seenEdges := nodesBuf[:0], edgesBuf[:0]
	var parent node
	havePar := false
	forEachNode(s, func(n node) {
		saw := slices.Contains(seenNodes, n)
		if !saw {
			seenNodes = append(seenNodes, n)
		}
		if havePar && n != parent {
			e := [2]node{n, parent}
			if !saw || !slices.Contains(seenEdges, e) {
				seenEdges = append(seenEdges, e)
				f(edgeKey{caller: parent.name, callee: n.name, offset: int(parent.line - parent.start)})
			}
		}
		parent, havePar = n, true
	})
}
