package inherent

import (
	"fmt"
	"time"
)

var sinkString string

// Stamps names each file with the time: the boxed value is the result of
// a method call, named as the source writes it (time.Now().Format(...)),
// not as the compiler does (time.Time.Format(time.Now(), ...)).
func Stamps(names []string) {
	for range names {
		sinkString = fmt.Sprintf("%-10s.log", time.Now().Format("2006-01-02")) // want `^time\.Now\(\)\.Format\("2006-01-02"\) escapes to heap because it is converted to an interface and passed to fmt\.Sprintf`
	}
}
