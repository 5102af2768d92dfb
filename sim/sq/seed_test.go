package sq

import (
	"os"
	"strconv"
)

// seedEnv returns the random seed d, or the value of $SQSEED when set, so the
// randomised tests can be re-run on other samples by hand; CI uses d.
func seedEnv(d int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv("SQSEED"), 10, 64); err == nil {
		return v
	}
	return d
}
