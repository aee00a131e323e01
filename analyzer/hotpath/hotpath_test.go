package hotpath_test

import (
	"go/ast"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// marker reports the hot-path estimate at every call of a function named mark.
var marker = &analysis.Analyzer{
	Name:     "marker",
	Doc:      "report hotpath results at calls of mark",
	Requires: []*analysis.Analyzer{hotpath.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "mark" {
						info := hot.At(call.Pos())
						msg := info.Tier.String()
						if info.Reason != "" {
							msg += ": " + info.Reason
						}
						pass.Reportf(call.Pos(), "%s", msg)
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

func TestHotpath(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), marker, "h", "m", "o", "e", "x/e2e", "sig", "x/corpus-test", "x/contest", "x/examples/chat", "x/benchmark", "x/mocks", "x/promqltest", "x/latest", "x/internal/ztest", "x/internal/fastest", "x/gen/readme", "x/serve", "testing/quick2", "example.com/mod/test", "d", "web", "srv", "local")
}

func TestPerItemName(t *testing.T) {
	for name, want := range map[string]bool{
		"Next": true, "ServeHTTP": true, "HandleConn": true, "ProcessEnvelope": true,
		"ParseRequest": true, "Parse": true, "ProcessArguments": true,
		"ProcessSignal": false, "ProcessConfigFile": false, "ParseConfig": false,
		"ParseConfigWithOptions": false, "HandleFlags": false, "ParseDSN": false,
		"ParseEnv": false, "Nexts": false, "HandlerFor": false, "Processor": false,
		"HandleFunc": false, "Handle": true, "Parse2": true, "ProcessBatch": true,
	} {
		if got := hotpath.PerItemName(name); got != want {
			t.Errorf("PerItemName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestTierNames checks that the tiers' names are those findings carry
// (kind.Tiers, which the configuration file and the reports list), in the
// same order.
func TestTierNames(t *testing.T) {
	var names []string
	for tier := hotpath.Loop; tier >= hotpath.Cold; tier-- {
		names = append(names, tier.String())
	}
	if !slices.Equal(names, kind.Tiers) {
		t.Errorf("tiers %v, kind.Tiers %v", names, kind.Tiers)
	}
}
