package load

import "testing"

func TestRun(t *testing.T) {
	if err := NewMix(300).Run(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkService is the benchmark whose CPU profile is the demo's
// profile (see scripts/demo-profile.sh).
func BenchmarkService(b *testing.B) {
	m := NewMix(2000)
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
