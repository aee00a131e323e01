// Command corpus-test checks a decoder against a corpus (as brotli's
// corpus-test does): a compound of "test" names test support.
package main

func mark(...any) int { return 0 }

func main() {
	for range 3 {
		mark() // want `cold: runs only in tests: in a test-support package \(corpus-test\)`
	}
}
