package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/escape"
)

// Analyzer reports the compiler's heap allocations with cause and advice.
var Analyzer = &analysis.Analyzer{
	Name:     "heapescape",
	Doc:      "report heap allocations decided by the compiler's escape analysis, with cause and advice",
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/heapescape",
	Run:      run,
	Requires: []*analysis.Analyzer{escape.Analyzer, hotpath.Analyzer},
}

var cold bool

func init() {
	Analyzer.Flags.BoolVar(&cold, "cold", true, "also report allocations in cold code (with false, only per-item and hot-loop ones)")
}

// smallStruct is the size up to which a struct is cheap to pass by value.
const smallStruct = 64

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[escape.Analyzer].(*escape.Result)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
	if !res.Available() {
		// The compiler's decisions are unknown (for example the package
		// does not compile, or -escape.off): report nothing rather than
		// guess.
		return nil, nil
	}
	generated := make(map[*token.File]bool)
	files := make(map[*token.File]*ast.File)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		files[tf] = f
		generated[tf] = ast.IsGenerated(f)
	}
	for _, rec := range res.Records() {
		if !rec.Kind.IsHeap() || !rec.TokPos.IsValid() {
			continue
		}
		tf := pass.Fset.File(rec.TokPos)
		if tf == nil || generated[tf] || files[tf] == nil {
			continue
		}
		info := hot.At(rec.TokPos)
		if !cold && info.Tier == hotpath.Cold {
			continue
		}
		msg := message(pass, files[tf], &rec, info)
		pass.Report(analysis.Diagnostic{
			Pos:      rec.TokPos,
			Category: info.Tier.String(),
			Message:  msg,
		})
	}
	return nil, nil
}

// message formats the finding: what escapes, the cause, the compiler's
// flow in short, the suggestion and the tier.
func message(pass *analysis.Pass, f *ast.File, rec *escape.Record, info hotpath.Info) string {
	var b strings.Builder
	if rec.Kind == escape.MovedToHeap {
		fmt.Fprintf(&b, "variable %s is moved to heap: %s", rec.Name, rec.Cause)
	} else {
		fmt.Fprintf(&b, "%s escapes to heap: %s", rec.Name, rec.Cause)
	}
	if _, why, ok := strings.Cut(rec.Explanation, ": "); ok && why != rec.Cause.String() {
		if rec.Cause == escape.CauseInterfaceMethodCall && strings.HasPrefix(why, "passed to ") {
			// "passed to io.Reader.Read (interface method call)" says it all.
			b.Reset()
			fmt.Fprintf(&b, "%s escapes to heap: %s", rec.Name, why)
		} else {
			fmt.Fprintf(&b, " (%s)", why)
		}
	}
	if s := suggest(pass, f, rec, info); s != "" {
		b.WriteString("; ")
		b.WriteString(s)
	}
	fmt.Fprintf(&b, " [%s", info.Tier)
	if info.Reason != "" {
		fmt.Fprintf(&b, ": %s", info.Reason)
	}
	b.WriteString("]")
	return b.String()
}

// suggest returns the change that would keep the value on the stack, or
// make the allocation cheaper, for the record's cause.
func suggest(pass *analysis.Pass, f *ast.File, rec *escape.Record, info hotpath.Info) string {
	var s string
	switch rec.Cause {
	case escape.CauseInterfaceConversion:
		s = "avoid the interface conversion (use the concrete type, a generic function, or a non-interface fast path) so the value need not be boxed"
	case escape.CauseInterfaceMethodCall:
		s = "the compiler cannot see what the dynamic callee does with it; call a concrete type, or reuse one buffer across calls (a field or sync.Pool)"
	case escape.CauseClosure:
		s = "pass the value to the closure as an argument, or do not let the closure outlive the call (store or return it)"
	case escape.CauseReturnedOrStored:
		s = "return or store a value instead of a pointer, or let the caller provide the memory"
		if small, name := smallPointee(pass, f, rec); small {
			s = fmt.Sprintf("%s is small: return or store it by value instead of by pointer", name)
		}
	case escape.CauseTooLarge:
		s = "allocate it once and reuse it, or shrink it below the compiler's stack limit"
	case escape.CauseNonConstantMake:
		s = "preallocate a reusable buffer or use a fixed-size array when the size is bounded"
	case escape.CauseAppend:
		s = "preallocate the slice with make(..., 0, n) when the final size is known, or reuse it across calls"
	case escape.CauseAddressStored:
		s = "do not let the address outlive the function: copy the value instead of storing or returning &" + rec.Name
	case escape.CauseGoDefer:
		s = "move a defer inside a loop into a separate function, and pass values to goroutines as arguments"
	default:
		return ""
	}
	if info.Tier == hotpath.Loop && isAllocExpr(rec.Name) {
		s += ", or hoist the allocation out of the loop and reuse it"
	}
	return s
}

func isAllocExpr(name string) bool {
	return strings.HasPrefix(name, "make(") || strings.HasPrefix(name, "new(") ||
		strings.HasPrefix(name, "&") || strings.HasSuffix(name, "{...}")
}

// smallPointee reports whether rec is "&T{...}" or "new(T)" of a struct
// type T no larger than smallStruct bytes, and returns T's name.
func smallPointee(pass *analysis.Pass, f *ast.File, rec *escape.Record) (bool, string) {
	var n ast.Node
	ast.Inspect(f, func(x ast.Node) bool {
		if n != nil || x == nil || x.Pos() > rec.TokPos || x.End() <= rec.TokPos {
			return n == nil
		}
		if x.Pos() == rec.TokPos {
			switch x := x.(type) {
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					n = x
				}
			case *ast.CallExpr:
				n = x
			}
		}
		return n == nil
	})
	expr, ok := n.(ast.Expr)
	if !ok {
		return false, ""
	}
	t := pass.TypesInfo.TypeOf(expr)
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false, ""
	}
	if _, ok := ptr.Elem().Underlying().(*types.Struct); !ok {
		return false, ""
	}
	if size := pass.TypesSizes.Sizeof(ptr.Elem()); size > smallStruct {
		return false, ""
	}
	return true, types.TypeString(ptr.Elem(), types.RelativeTo(pass.Pkg))
}
