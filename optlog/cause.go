package optlog

import (
	"strings"
)

// A flow step is either "flow: dst ← src:" (a value moves from one location
// to another) or "from expr (reason)" (the expression that moves it).

// From splits a "from expr (reason)" step of the flow into the expression
// and the compiler's reason, such as "call parameter". ok is false for
// "flow:" steps.
func (s Step) From() (expr, reason string, ok bool) {
	rest, found := strings.CutPrefix(s.Text, "from ")
	if !found || !strings.HasSuffix(rest, ")") {
		return "", "", false
	}
	i := strings.LastIndex(rest, " (")
	if i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+2 : len(rest)-1], true
}

// IsAllocName reports whether name, as the compiler prints an escaping
// expression, is itself an allocation (rather than an implicit interface
// conversion of a value, which the compiler prints as the value: "T{}"
// in "var v any = T{}"). It is the one rule for the Analyzer's causes and
// for analyzers that advise on allocations.
func IsAllocName(name string) bool {
	switch {
	case strings.HasPrefix(name, "&"),
		strings.HasPrefix(name, "make("),
		strings.HasPrefix(name, "new("),
		strings.HasPrefix(name, "append("),
		strings.HasPrefix(name, "func literal"),
		strings.HasPrefix(name, "([]byte)("),
		strings.HasPrefix(name, "([]rune)("),
		strings.HasPrefix(name, "string("),
		strings.HasPrefix(name, "[]"),
		strings.HasPrefix(name, "map["),
		strings.HasPrefix(name, "..."),
		strings.HasSuffix(name, "{...}"):
		return true
	}
	// A method value such as "r.Read" or a string concatenation "a + b".
	return strings.Contains(name, " + ")
}

// pointerShaped reports whether the escaping allocation name is of a
// pointer, map, channel or function: values stored in an interface without
// being boxed.
func pointerShaped(name string) bool {
	return strings.HasPrefix(name, "&") || strings.HasPrefix(name, "new(") ||
		strings.HasPrefix(name, "map[") || strings.HasPrefix(name, "make(map[") ||
		strings.HasPrefix(name, "make(chan") || name == "func literal"
}

func isGoDefer(expr string) bool {
	return strings.HasPrefix(expr, "go ") || strings.HasPrefix(expr, "defer ")
}

// classify returns the cause of the heap record rec from its name and flow.
// It looks for the step that forces the allocation, in decreasing order of
// specificity. The Analyzer refines CauseInterfaceMethodCall using types
// (see refine).
func classify(rec *Record) Cause {
	var reasons, exprs []string
	for _, s := range rec.Flow {
		if e, r, ok := s.From(); ok {
			exprs = append(exprs, e)
			reasons = append(reasons, r)
		}
	}
	for _, r := range reasons {
		switch r {
		case "too large for stack", "too aligned for stack":
			return CauseTooLarge
		case "non-constant size":
			return CauseNonConstantMake
		}
	}
	if strings.HasPrefix(rec.Name, "append(") {
		return CauseAppend
	}
	if rec.Kind == EscapesToHeap && !IsAllocName(rec.Name) {
		// The compiler names an escaping interface conversion after the
		// converted value ("v escapes to heap").
		return CauseInterfaceConversion
	}
	if rec.Kind == MovedToHeap {
		for i, r := range reasons {
			switch {
			case r == "captured by a closure":
				return CauseClosure
			case isGoDefer(exprs[i]):
				return CauseGoDefer
			}
		}
		return CauseAddressStored
	}
	for i, r := range reasons {
		switch {
		case isGoDefer(exprs[i]):
			return CauseGoDefer
		case r == "captured by a closure":
			return CauseClosure
		case r == "interface-converted" && !pointerShaped(rec.Name):
			// A pointer-shaped allocation converted to an interface is not
			// boxed: where the interface goes is the cause.
			return CauseInterfaceConversion
		case r == "call parameter", r == "callee operand", r == "//go:uintptrescapes":
			return CauseInterfaceMethodCall
		case r == "return":
			return CauseReturnedOrStored
		case r == "key of map put", r == "value of map put", r == "map literal key",
			r == "map literal value", r == "send", r == "appendee slice", r == "appended slice...",
			r == "copied slice":
			return CauseReturnedOrStored
		}
	}
	// The last step stores into a location that outlives the function
	// (a global, or a field of something already on the heap).
	if n := len(reasons); n > 0 {
		switch reasons[n-1] {
		case "assign", "assign-pair", "dot", "dot of pointer", "indirection", "star-dot-equals":
			return CauseReturnedOrStored
		}
	}
	return CauseUnknown
}

// explain returns a short explanation of a flow, such as
// "buf escapes: passed to r.Read (call parameter)". It names the steps that
// move the value out of the function and skips local moves, except a final
// store ("stored in G").
func explain(name, verb string, flow []Step) string {
	var phrases []string
	n := 0
	for _, s := range flow {
		if _, _, ok := s.From(); ok {
			n++
		}
	}
	i := 0
	for _, s := range flow {
		expr, reason, ok := s.From()
		if !ok {
			continue
		}
		i++
		var ph string
		switch reason {
		case "assign", "assign-pair", "assign-pair-dot-type", "assign-pair-mapr",
			"assign-pair-receive", "star-equals", "star-dot-equals":
			if i < n || !strings.Contains(expr, " = ") {
				continue
			}
			lhs, _, _ := strings.Cut(expr, " = ")
			ph = "stored in " + strings.TrimSpace(lhs)
		case "spill", "reference", "dot", "slice", "indirection", "dot of pointer",
			"slice-literal-element", "struct literal element", "array literal element",
			"fixed-array-index-of", "range", "range-deref", "switch case",
			"slice-to-array", "reflect.Header.Data":
			// Moves within the function: a type switch's bound variable, a
			// comma-ok assignment's temporaries, an element of a literal.
			continue
		case "key of map put", "value of map put", "map literal key", "map literal value":
			ph = "stored in a map"
		case "send":
			ph = "sent on a channel"
		case "appended to slice", "appendee slice", "appended slice...":
			ph = "appended to a slice"
		case "copied slice":
			ph = "copied into a slice"
		case "conversion to unsafe.Pointer":
			ph = "converted to unsafe.Pointer"
		case "call parameter":
			if isGoDefer(expr) {
				ph = "used by a " + firstWord(expr) + " statement"
			} else {
				ph = "passed to " + callee(expr)
			}
		case "callee operand":
			ph = "called as a function value"
		case "return":
			ph = "returned"
		case "interface-converted":
			if pointerShaped(name) {
				continue // a pointer in an interface is not boxed
			}
			ph = "converted to an interface"
		case "captured by a closure":
			ph = "captured by a closure"
		case "address-of":
			ph = "its address is taken"
		case "too large for stack", "too aligned for stack":
			ph = reason
		default:
			// A reason this list does not know yet: the compiler's words,
			// without its hyphens, and the expression.
			ph = strings.ReplaceAll(reason, "-", " ") + " (" + expr + ")"
		}
		if len(phrases) == 0 || phrases[len(phrases)-1] != ph {
			phrases = append(phrases, ph)
		}
	}
	if len(phrases) == 0 {
		return name + " " + verb
	}
	if len(phrases) > 3 {
		phrases = append(phrases[:1], phrases[len(phrases)-2:]...)
	}
	return name + " " + verb + ": " + strings.Join(phrases, ", then ")
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

// callee returns the called function of a call expression "f(x, y)", or
// of a method expression the compiler writes for a method call,
// "(*T).m(x, y)".
func callee(call string) string {
	start := 0
	if strings.HasPrefix(call, "(") {
		start = strings.IndexByte(call, ')') + 1 // past the receiver type
	}
	if i := strings.IndexByte(call[start:], '('); i >= 0 && start+i > 0 {
		return call[:start+i]
	}
	return call
}
