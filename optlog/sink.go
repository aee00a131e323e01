package optlog

import "strings"

// A Sink is where the escape flow of a heap allocation ends: what makes
// the value outlive the function, as the compiler explains it. Advice is
// chosen by the sink (a value returned is removed by other changes than
// one passed to an interface method), so every heap record has one.
type Sink int

const (
	SinkUnknown     Sink = iota // the flow names none of the below
	SinkReturn                  // returned to the caller
	SinkDynamicCall             // passed to an interface method or a function value, which the compiler cannot see
	SinkCallee                  // passed to a static function whose parameter leaks (it keeps or passes the value on)
	SinkClosure                 // captured by a closure that outlives the call
	SinkField                   // stored through a pointer: a field of, or the value behind, a pointer
	SinkElement                 // stored in an element of a slice, an array or a map
	SinkMap                     // put in a map as a key or value
	SinkGlobal                  // stored in a package-level variable
	SinkChannel                 // sent on a channel
	SinkGoDefer                 // used by a go or defer statement
	SinkContainer               // stored in another allocation that escapes (a composite literal's storage)
	SinkInterface               // boxed in an interface value that escapes (its own record says where)
	SinkSize                    // too large for the stack, or of a size known only at run time: not a flow
)

var sinkNames = [...]string{
	SinkUnknown:     "unknown",
	SinkReturn:      "return",
	SinkDynamicCall: "dynamic-call",
	SinkCallee:      "callee",
	SinkClosure:     "closure",
	SinkField:       "field",
	SinkElement:     "element",
	SinkMap:         "map",
	SinkGlobal:      "global",
	SinkChannel:     "channel",
	SinkGoDefer:     "go-defer",
	SinkContainer:   "container",
	SinkInterface:   "interface",
	SinkSize:        "size",
}

// String returns the sink's name, as findings carry it: "return",
// "dynamic-call", "callee", "closure", "field", "element", "map",
// "global", "channel", "go-defer", "container", "interface", "size" or
// "unknown".
func (s Sink) String() string {
	if int(s) < len(sinkNames) {
		return sinkNames[s]
	}
	return "unknown"
}

// sinkOf returns the sink of a heap record's flow, the expression of the
// step that reaches it ("return &h, err", "r.Read(b)", "t.p = &x") and
// where that step is. A call's sink is SinkCallee until refine, which has
// types, tells a dynamic call from a static one.
func sinkOf(rec *Record) (Sink, string, Position) {
	type step struct {
		expr, reason string
		pos          Position
		flowDst      string // the destination of the "flow:" line the step explains
	}
	var steps []step
	dst := ""
	for _, s := range rec.Flow {
		if rest, ok := strings.CutPrefix(s.Text, "flow: "); ok {
			dst, _, _ = strings.Cut(strings.TrimSuffix(rest, ":"), " ← ")
			continue
		}
		if e, r, ok := s.From(); ok {
			steps = append(steps, step{e, r, s.Pos, dst})
		}
	}
	for _, s := range steps {
		switch s.reason {
		case "too large for stack", "too aligned for stack", "non-constant size":
			return SinkSize, s.expr, s.pos
		case "captured by a closure":
			// The closure holds it; where the closure goes is the
			// closure's own record.
			return SinkClosure, s.expr, s.pos
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		switch s.reason {
		case "return":
			return SinkReturn, s.expr, s.pos
		case "call parameter":
			if isGoDefer(s.expr) {
				return SinkGoDefer, s.expr, s.pos
			}
			return SinkCallee, s.expr, s.pos
		case "callee operand":
			return SinkDynamicCall, s.expr, s.pos
		case "key of map put", "value of map put", "map literal key", "map literal value":
			return SinkMap, s.expr, s.pos
		case "send":
			return SinkChannel, s.expr, s.pos
		case "appended to slice", "appendee slice", "appended slice...", "copied slice":
			return SinkElement, s.expr, s.pos
		case "interface-converted":
			if i == len(steps)-1 && strings.HasPrefix(s.flowDst, "{storage for ") {
				return SinkInterface, s.expr, s.pos
			}
		case "assign", "assign-pair", "star-equals", "star-dot-equals":
			if i != len(steps)-1 || s.flowDst != "{heap}" {
				continue
			}
			lhs, _, ok := strings.Cut(s.expr, " = ")
			if !ok {
				continue
			}
			lhs = strings.TrimSpace(lhs)
			switch {
			case strings.HasSuffix(lhs, "]"):
				return SinkElement, s.expr, s.pos
			case strings.HasPrefix(lhs, "*") || strings.Contains(lhs, "."):
				return SinkField, s.expr, s.pos
			}
			return SinkGlobal, s.expr, s.pos
		}
	}
	if n := len(steps); n > 0 && strings.HasPrefix(steps[n-1].flowDst, "{storage for ") {
		return SinkContainer, steps[n-1].expr, steps[n-1].pos
	}
	return SinkUnknown, "", Position{}
}
