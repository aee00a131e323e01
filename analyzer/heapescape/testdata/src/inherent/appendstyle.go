package inherent

import "strconv"

// appendQuoted is append-style: it grows the buffer its caller passes in
// and returns it, as strconv.AppendQuote does.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"') // want `append\(dst, byte\(34\)\) escapes to heap because append grows it .*; inherent: an append-style function grows the buffer its caller passes in`
	for i := 0; i < len(s); i++ {
		dst = append(dst, s[i]) // want `append\(dst, s\[i\]\) escapes to heap because append grows it .*; inherent: an append-style function grows the buffer its caller passes in`
	}
	return append(dst, '"') // want `inherent: an append-style function`
}

// appendBools starts from an append to the caller's buffer nested in
// another package's append-style function, inlined here.
func appendBools(dst []byte, vs []bool) []byte {
	for _, v := range vs {
		dst = strconv.AppendBool(append(dst, ','), v) // want `append\(dst, byte\(44\)\) escapes to heap .*inherent: an append-style function` `calling strconv.AppendBool allocates \(inlined\): .*"true".*inherent: an append-style function` `calling strconv.AppendBool allocates \(inlined\): .*"false".*inherent: an append-style function`
	}
	return dst
}

type encoder struct{ sep byte }

// encode reuses the caller's buffer from its start.
func (e *encoder) encode(dst []byte, xs []int) []byte {
	dst = dst[:0]
	for _, x := range xs {
		dst = append(strconv.AppendInt(dst, int64(x), 10), e.sep) // want `append\(strconv.AppendInt\(dst, int64\(x\), 10\), e.sep\) escapes to heap .*inherent: an append-style function`
	}
	return dst
}

// hexOf grows a buffer of its own: no caller sized it.
func hexOf(src []byte) []byte {
	out := []byte{'"'} // want `\[\]byte\{\.\.\.\} escapes to heap .*; no known rewrite`
	for _, b := range src {
		out = append(out, "0123456789abcdef"[b>>4], "0123456789abcdef"[b&15]) // want `escapes to heap because append grows it .*; no known rewrite: its final size is not known`
	}
	return append(out, '"') // want `no known rewrite: its final size is not known`
}
