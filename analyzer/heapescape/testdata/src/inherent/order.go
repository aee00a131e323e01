package inherent

import "encoding/binary"

// PutAll writes each value through an interface of another package: the
// message names its method as Go code does (binary.ByteOrder.PutUint32),
// not by the package's path as the compiler does.
func PutAll(order binary.ByteOrder, vs []uint32) int {
	n := 0
	for _, v := range vs {
		b := make([]byte, 4) // want `^make\(\[\]byte, 4\) escapes to heap because it is passed to binary\.ByteOrder\.PutUint32 \(an interface method call\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it \[hot-loop: inside a loop\]$`
		order.PutUint32(b, v)
		n += int(b[0])
	}
	return n
}
