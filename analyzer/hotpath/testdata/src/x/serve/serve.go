// Serve answers requests; its comment does not say it generates
// anything, so its loops are hot.
package main

func mark() {}

func main() {
	for range 3 {
		mark() // want `hot-loop: inside a loop`
	}
}
