package fmtcall

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"
)

type id int

type level int

func (l level) String() string { return "level" }

type myErr struct{}

func (myErr) Error() string { return "e" }

func OneValue(n int, n64 int64, u8 uint8, ok bool, s string, b []byte, d id, l level, err error, h [4]byte) []string {
	return []string{
		fmt.Sprintf("%d", n),    // want `^fmt\.Sprintf formats one int .*; write strconv\.Itoa\(n\), which formats it directly \[unknown`
		fmt.Sprint(n64),         // want `write strconv\.FormatInt\(n64, 10\)`
		fmt.Sprintf("%x", u8),   // want `write strconv\.FormatUint\(uint64\(u8\), 16\)`
		fmt.Sprintf("%v", ok),   // want `write strconv\.FormatBool\(ok\)`
		fmt.Sprintf("%s", s),    // want `write s, which`
		fmt.Sprintf("%x", b),    // want `write hex\.EncodeToString\(b\)`
		fmt.Sprintf("%s", b),    // want `write string\(b\)`
		fmt.Sprintf("%d", d),    // want `write strconv\.Itoa\(int\(d\)\)`
		fmt.Sprintf("%x", h),    // want `write hex\.EncodeToString\(h\[:\]\)`
		fmt.Sprintf("%s", l),    // want `write l\.String\(\), which`
		fmt.Sprintf("%v", err),  // want `write err\.Error\(\).*behaviour change: fmt prints <nil> for a nil error.*no automatic fix`
		fmt.Sprintf("%5d", n),   // a width: fmt's work
		fmt.Sprintf("%v", 1.5),  // want `write strconv\.FormatFloat\(1\.5, 'g', -1, 64\)`
		fmt.Sprint(time.Second), // want `write time\.Second\.String\(\)`
		fmt.Sprintf("%q", s),    // want `write strconv\.Quote\(s\)`
		fmt.Sprint(myErr{}),     // want `write myErr\{\}\.Error\(\)`
	}
}

func Concat(user string, uid int, shard uint32) string {
	key := fmt.Sprintf("user:%s/%d", user, uid)  // want `^fmt\.Sprintf only concatenates .*; write "user:" \+ user \+ "/" \+ strconv\.Itoa\(uid\), which builds the same string and allocates only the result`
	key += fmt.Sprintf("%s-%d%%", key, shard)    // want `write key \+ "-" \+ strconv\.FormatUint\(uint64\(shard\), 10\) \+ "%"`
	return key + fmt.Sprintf("%s:%v", user, 1.5) // want `write user \+ ":" \+ strconv\.FormatFloat\(1\.5, 'g', -1, 64\)`
}

// Tags quotes a value and formats a bound, in a loop over buckets.
func Tags(vmrange string, bounds []float64) []string {
	out := []string{fmt.Sprintf("vmrange=%q", vmrange)} // want `write "vmrange=" \+ strconv\.Quote\(vmrange\)`
	for _, ub := range bounds {
		out = append(out, fmt.Sprintf(`le="%g"`, ub)) // want `write "le=\\"" \+ strconv\.FormatFloat\(ub, 'g', -1, 64\) \+ "\\""`
	}
	return out
}

func Errors(name string) []error {
	return []error{
		fmt.Errorf("closed"),       // want `^fmt\.Errorf with a constant format and no arguments: .*; write errors\.New\("closed"\)`
		fmt.Errorf("100%% done"),   // want `write errors\.New\("100% done"\)`
		fmt.Errorf(name),           // want `write errors\.New\(name\).*no automatic fix: the rewrite is not exact: fmt would treat a % in name as a verb`
		fmt.Errorf("bad %s", name), // wraps a value: fmt's work
	}
}

func Written(w io.Writer, buf *bytes.Buffer, name string, n int, f float64) {
	w.Write([]byte(fmt.Sprintf("%s=%.2f\n", name, f))) // want `^fmt\.Sprintf builds a string only for w\.Write to write it; write fmt\.Fprintf\(w, "%s=%\.2f\\n", name, f\)`
	buf.WriteString(fmt.Sprintf("%q", name))           // want `write strconv\.Quote\(name\)`
	io.WriteString(w, fmt.Sprintln(name, f))           // want `write fmt\.Fprintln\(w, name, f\)`
	buf.WriteString(fmt.Sprintf("%d", n))              // want `write strconv\.Itoa\(n\)`
	fmt.Fprintf(w, "%d", n)                            // already direct
}

func Appended(dst []byte, n int, x int64, f float64, s string, buf *bytes.Buffer) []byte {
	dst = append(dst, strconv.Itoa(n)...)                     // want `^strconv\.Itoa allocates a string only for append to copy it; write strconv\.AppendInt\(dst, int64\(n\), 10\)`
	dst = append(dst, strconv.FormatFloat(f, 'g', -1, 64)...) // want `write strconv\.AppendFloat\(dst, f, 'g', -1, 64\)`
	dst = append(dst, strconv.Quote(s)...)                    // want `write strconv\.AppendQuote\(dst, s\)`
	dst = append(dst, fmt.Sprintf("%d:%q", x, s)...)          // want `^fmt\.Sprintf builds a string only for append to copy it; write fmt\.Appendf\(dst, "%d:%q", x, s\)`
	buf.WriteString(strconv.FormatInt(x, 16))                 // want `write buf\.Write\(strconv\.AppendInt\(buf\.AvailableBuffer\(\), x, 16\)\)`
	dst = append(dst, s...)                                   // nothing formatted
	return dst
}

func Joined(names []string, n int) (s string, t string) {
	for _, name := range names {
		s += name + "," // want `^each iteration concatenates to s, copying all it holds so far into a new string; build it in a strings\.Builder`
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			t = t + "," + names[i] // want `concatenates to t`
		}
		t += "x"
	}
	u := ""
	for _, name := range names {
		u += name
		if len(u) > 10 { // u is read: not only built
			break
		}
	}
	for range names {
		w := "" // declared in the loop
		w += "x"
		t += w // want `concatenates to t`
	}
	return s + u, t
}

func Table(w io.Writer, name string, n int) {
	w.Write([]byte(fmt.Sprintf( // want `write fmt\.Fprintf\(w, "%s: "\+ "%5d\\n", name, n\), which`
		"%s: "+
			"%5d\n", name, n)))
}

const blkScan = "%d.blk"

func BlockName(index uint32) string {
	return fmt.Sprintf(blkScan, index) // want `write strconv\.FormatUint\(uint64\(index\), 10\) \+ "\.blk".*no automatic fix: the format is the constant blkScan, which other calls may share`
}

const (
	keyFormat  = "user:%s/%d"
	subjPrefix = "$API.DELETE."
	subjFormat = subjPrefix + "%s"
)

// Shared formats are advised without a fix whatever their shape: a
// concatenation, a constant built of constants, a parenthesized one.
func SharedFormats(ns, stream string, id int) []string {
	return []string{
		fmt.Sprintf(keyFormat, ns, id),    // want `write "user:" \+ ns \+ "/" \+ strconv\.Itoa\(id\).*the format is the constant keyFormat`
		fmt.Sprintf(subjFormat, stream),   // want `write "\$API\.DELETE\." \+ stream.*the format is the constant subjFormat`
		fmt.Sprintf((keyFormat), ns, id),  // want `the format is the constant \(keyFormat\)`
		fmt.Sprintf(keyFormat+"!", ns, 1), // want `the format is the constant keyFormat\+"!"`
	}
}

// A format that is not a constant is fmt's work.
func VariableFormat(format string, n int) string {
	return fmt.Sprintf(format, n)
}
