package hotpath

import "testing"

// TestDemoPackage checks that only the import path below the module's
// path names example and benchmark code.
func TestDemoPackage(t *testing.T) {
	for _, tc := range []struct{ path, mod, want string }{
		{"github.com/nats-io/nats.go/examples/docs/basics", "github.com/nats-io/nats.go", "example code (package examples)"},
		{"google.golang.org/grpc/benchmark/worker", "google.golang.org/grpc", "a benchmark harness (package benchmark)"},
		{"log/slog/internal/benchmarks", "", "a benchmark harness (package benchmarks)"},
		{"github.com/examples/lib", "github.com/examples/lib", ""},
		{"github.com/acme/bench", "github.com/acme/bench", ""},
		{"github.com/acme/bench/codec", "github.com/acme/bench", ""},
		{"github.com/acme/x/benchstat", "github.com/acme/x", ""},
		{"github.com/acme/x/exampleapi", "github.com/acme/x", ""},
	} {
		if got := demoPackage(tc.path, tc.mod); got != tc.want {
			t.Errorf("demoPackage(%q, %q) = %q, want %q", tc.path, tc.mod, got, tc.want)
		}
	}
}

// TestSupportFile checks which file names mark mocks, fakes and test helpers.
func TestSupportFile(t *testing.T) {
	for name, want := range map[string]bool{
		"/m/sarama/mockbroker.go":    true,
		"/m/sarama/mockresponses.go": true,
		"mock_store.go":              true,
		"store_mock.go":              true,
		"fake_clock.go":              true,
		"clock-fakes.go":             true,
		"fakeip.go":                  false,
		"broker.go":                  false,
		"unmock.go":                  false,
		"store_mocking.go":           false,
		"test_utils.go":              true,
		"testutil.go":                true,
		"testutil_server.go":         true,
		"test.go":                    false,
		"contest.go":                 false,
		"latest_version.go":          false,
	} {
		if got := supportFile(name); got != want {
			t.Errorf("supportFile(%q) = %v, want %v", name, got, want)
		}
	}
}
