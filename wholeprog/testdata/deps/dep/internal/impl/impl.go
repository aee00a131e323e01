// Package impl holds a type of package dep that no exported API shows.
package impl

// Heavy has a Weigh method like the app's Weigher.
type Heavy struct{ N int }

// Weigh weighs.
func (h Heavy) Weigh() int { return h.N + 100 }
