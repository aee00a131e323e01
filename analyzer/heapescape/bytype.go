package heapescape

import (
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
)

// byValueOK reports whether values of type t may be suggested to be
// returned or stored by value (see bycopy.Small).
func byValueOK(t types.Type, sizes types.Sizes) (int64, bool) {
	return bycopy.Small(t, sizes)
}
