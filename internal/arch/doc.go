// Package arch holds no code: its tests keep goadvise's architecture as
// docs/architecture.md describes it. TestLayers checks every import
// against the layers' order written there, so that no package imports one
// above it; TestOneLoader checks that only package load lists packages
// (go list, go/packages) and reads go env.
package arch
