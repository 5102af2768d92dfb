// Package cputime reads CPU time (user + system) for the benchmarks: on a
// shared machine they report it beside the wall time, which also waits for
// the other processes. One home for the getrusage calls that the sphere,
// integrate, scene and validation benchmarks share; it builds everywhere
// (0 where the system gives no figure).
package cputime
