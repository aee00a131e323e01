// Package demo is a small key-value service used to demonstrate goadvise.
//
// It is deliberately written the way real services often are: it works,
// but it pays small costs on every request that goadvise finds. The wire
// package decodes length-prefixed messages; the kv package stores values
// and serves them over HTTP; cmd/demoserver wires them together.
//
// Run goadvise on it from the repository root:
//
//	go run ./cmd/goadvise check ./testdata/demo/...
package demo
