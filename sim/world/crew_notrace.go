//go:build !crewtrace

package world

// crewTracing: fork–joins are traced item by item (crew_trace.go, build
// tag crewtrace); never in an ordinary build.
const crewTracing = false

func traceRun(int, func(k, lo, hi int)) bool { return false }

func traceChoice(*splitChoice, bool, int64, int, bool) {}
