// Package main is one of a module's example programs (as nats.go's
// examples): its loops show how to use the module.
package main

func mark(...any) int { return 0 }

func main() {
	for i := range 10 {
		mark(i) // want `cold: example code \(package examples\)`
	}
}
