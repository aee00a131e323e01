// Package ext declares a type that package bv returns.
package ext

// Span is a small struct of another package.
type Span struct{ Lo, Hi int }
