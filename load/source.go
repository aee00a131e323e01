package load

import (
	"context"

	"golang.org/x/tools/go/packages"
)

// A SourceConfig says how [Source] loads packages.
type SourceConfig struct {
	Dir        string   // directory in which to run the go command ("" for the current one)
	Env        []string // environment of the go command (nil for os.Environ())
	BuildFlags []string // flags for the go command, such as -tags or -gcflags
	Tests      bool     // also load the test variants and external test packages
	Deps       bool     // also load every dependency from source (analyzers with facts need them)
	// SyntaxOnly parses the files without type-checking them: the go
	// command then compiles nothing.
	SyntaxOnly bool
}

// Source loads the packages matching patterns, and with Deps their
// dependencies, parsed and type-checked from source with go/packages,
// test variants included with Tests: what [List] and [Check] do not do.
// It is the one use of go/packages in goadvise. Packages that do not load
// have their Errors set; Source fails only when the go command does.
func Source(ctx context.Context, cfg SourceConfig, patterns ...string) ([]*packages.Package, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax
	if !cfg.SyntaxOnly {
		mode |= packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes | packages.NeedTypesInfo | packages.NeedModule
	}
	if cfg.Deps {
		mode |= packages.NeedImports | packages.NeedDeps
	}
	return packages.Load(&packages.Config{
		Context:    ctx,
		Mode:       mode,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: cfg.BuildFlags,
		Tests:      cfg.Tests,
	}, patterns...)
}
