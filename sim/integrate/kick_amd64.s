//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// The sphere path's translational loops (explicit_spheres.go's kickRunGo
// and driftRunGo) on SSE2, one sphere a turn, its X and Y coordinates in
// the two lanes of a register and Z in a third; each lane the same IEEE
// operations in the same order as the Go code (so the same bits; and the
// operands in the order the compiler puts them in the Go twins, which
// decides which NaN a result is when both are: x86 returns the first
// operand's, and Go leaves it unspecified): the product then the sum of
// addScaled, (x² + y²) + z² (norm2), (½m)·v²
// (sphereKE), m·((gx·x + gy·y) + gz·z) (spherePE), ekin + … and egrav − …
// in sphere order, fsum + ((fx + fy) + fz) in sphere order (the force
// test's sum, SphereAccept.FSum), and the maxima as SphereMax.Keep's `>` (MAXPD d, s is
// d > s ? d : s: a NaN v² or f² leaves the maximum alone). Each loop stops
// at the first sphere of another species than cur and returns the number
// done; n ≥ 1 (the count is tested at the bottom of the loop). sphere.Lin:
// X at 0, V at 24, F at 48, 72 bytes.

// DRIFT_SPHERE is the drift's arithmetic for the sphere at SI (the
// accepted sphere.Lin) with (hm, hm) in X8 and (dt, dt) in X9: the half
// kick v = F·hm + v to (X0: vx, vy; X1: vz) and the drift x = v·dt + x to
// (X6: x, y; X7: z); X2 scratch. The scalar sums take their second
// operand from memory (ADDSD has no alignment rule; ADDPD's would fault on
// every other sphere.Lin, which is 8-byte aligned): the same operands in
// the same order. driftSSE2 and driftNTSSE2 differ only
// in their stores.
#define DRIFT_AT(o) \
	MOVUPD ((o)+48)(SI), X0; \
	MOVSD  ((o)+64)(SI), X1; \
	MOVUPD ((o)+24)(SI), X2; \
	MULPD  X8, X0; \
	ADDPD  X2, X0; \
	MULSD  X8, X1; \
	ADDSD  ((o)+40)(SI), X1; \
	MOVAPD X0, X6; \
	MULPD  X9, X6; \
	MOVUPD ((o)+0)(SI), X2; \
	ADDPD  X2, X6; \
	MOVAPD X1, X7; \
	MULSD  X9, X7; \
	ADDSD  ((o)+16)(SI), X7

#define DRIFT_SPHERE DRIFT_AT(0)

// DRIFT_ARGS loads the drift's arguments (driftSSE2's and driftNTSSE2's
// frame): tl → DI, al → SI, X → R9, spec → R10, n → CX, cur → BX,
// (hm, hm) → X8, (dt, dt) → X9, mg → DX.
#define DRIFT_ARGS \
	MOVQ   tl+0(FP), DI; \
	MOVQ   al+8(FP), SI; \
	MOVQ   X+16(FP), R9; \
	MOVQ   spec+24(FP), R10; \
	MOVQ   n+32(FP), CX; \
	MOVL   cur+40(FP), BX; \
	MOVSD  hm+48(FP), X8; \
	UNPCKLPD X8, X8; \
	MOVSD  dt+56(FP), X9; \
	UNPCKLPD X9, X9; \
	MOVQ   mg+64(FP), DX

// KICK_ARGS loads the kick's arguments (kickSSE2's and kick1SSE2's
// frame): tl → SI, spec → DI, n → CX, cur → BX, (hm, hm) → X8, ½m → X10,
// (gx, gy) → X13, gz → X14, s → R8 and the sums: ekin → X11, egrav → X12,
// (V2, F2) → X9, fsum → X15.
#define KICK_ARGS \
	MOVQ   tl+0(FP), SI; \
	MOVQ   spec+8(FP), DI; \
	MOVQ   n+16(FP), CX; \
	MOVL   cur+24(FP), BX; \
	MOVSD  hm+32(FP), X8; \
	UNPCKLPD X8, X8; \
	MOVSD  $(0.5), X10; \
	MULSD  m+40(FP), X10; \
	MOVQ   grav+48(FP), DX; \
	MOVUPD 0(DX), X13; \
	MOVSD  16(DX), X14; \
	MOVQ   s+56(FP), R8; \
	MOVSD  0(R8), X11; \
	MOVSD  8(R8), X12; \
	MOVUPD 16(R8), X9; \
	MOVSD  32(R8), X15

// KICK_V is the kick's work on the sphere at SI (the trial sphere.Lin)
// with KICK_ARGS's registers up to the squares: fsum + ((fx + fy) + fz),
// the half kick v = f·hm + v stored, and (v², f²) = (vz², fz²) + ((vy², fy²)
// + (vx², fx²)) to X5. X0, X2–X4 and X6 scratch (vz + … takes its second
// operand from memory: the same operands in the same order).
#define KICK_VAT(o, R) \
	MOVUPD ((o)+24)(SI), X0; \
	MOVUPD ((o)+48)(SI), X2; \
	MOVSD  ((o)+64)(SI), X3; \
	MOVSD  ((o)+48)(SI), X6; \
	ADDSD  ((o)+56)(SI), X6; \
	ADDSD  X3, X6; \
	ADDSD  X6, X15; \
	MOVAPD X2, X4; \
	MULPD  X8, X4; \
	ADDPD  X0, X4; \
	MOVAPD X3, R; \
	MULSD  X8, R; \
	ADDSD  ((o)+40)(SI), R; \
	MOVUPD X4, ((o)+24)(SI); \
	MOVSD  R, ((o)+40)(SI); \
	MOVAPD X4, X0; \
	UNPCKLPD X2, X0; \
	UNPCKHPD X2, X4; \
	UNPCKLPD X3, R; \
	MULPD  X0, X0; \
	MULPD  X4, X4; \
	ADDPD  X0, X4; \
	MULPD  R, R; \
	ADDPD  X4, R

#define KICK_V KICK_VAT(0, X5)

// KICK_MAX keeps the maxima (Keep) of (v², f²) in X5 in X9.
#define KICK_MAX \
	MAXPD  X9, X5; \
	MOVAPD X5, X9

// KICK_SPHERE is the kick's work on the sphere at SI (the trial
// sphere.Lin) with KICK_ARGS's registers: KICK_V, ekin = (½m)·v² + ekin,
// the maxima (KICK_MAX), egrav − ((z·gz + (y·gy + x·gx))·m). X0 and X2–X7
// scratch (y·gy + … takes its second operand from MOVHLPS: the same
// operands in the same order).
#define KICK_SPHERE \
	KICK_V; \
	MOVAPD X10, X6; \
	MULSD  X5, X6; \
	ADDSD  X11, X6; \
	MOVAPD X6, X11; \
	KICK_MAX; \
	MOVUPD 0(SI), X6; \
	MULPD  X13, X6; \
	MOVHLPS X6, X7; \
	ADDSD  X6, X7; \
	MOVSD  16(SI), X6; \
	MULSD  X14, X6; \
	ADDSD  X7, X6; \
	MULSD  m+40(FP), X6; \
	SUBSD  X6, X12

// KICK_SUMS stores the sums back to s (R8).
#define KICK_SUMS \
	MOVSD  X11, 0(R8); \
	MOVSD  X12, 8(R8); \
	MOVUPD X9, 16(R8); \
	MOVSD  X15, 32(R8)

// func kickSSE2(tl *sphere.Lin, spec *int32, n int, cur int32, hm, m float64, grav *geom.Vec3, s *kickSums) int
TEXT ·kickSSE2(SB), NOSPLIT, $0-72
	KICK_ARGS
	XORQ   AX, AX

kloop:
	CMPL (DI)(AX*4), BX
	JNE  kdone
	KICK_SPHERE
	ADDQ   $72, SI
	INCQ   AX
	CMPQ   AX, CX
	JLT    kloop

kdone:
	KICK_SUMS
	MOVQ   AX, ret+64(FP)
	RET

// func kick1SSE2(tl *sphere.Lin, spec *int32, n int, cur int32, hm, m float64, grav *geom.Vec3, s *kickSums) int
//
// kickSSE2 over all n ≥ 1 spheres, every one of species cur (a system of
// one species: kickRun1): spec is not read, and the loop counts down (3
// instructions a sphere of bookkeeping instead of 6). The same arithmetic.
TEXT ·kick1SSE2(SB), NOSPLIT, $0-72
	KICK_ARGS
	MOVQ   CX, AX

k1loop:
	KICK_SPHERE
	ADDQ   $72, SI
	DECQ   CX
	JNZ    k1loop

	KICK_SUMS
	MOVQ   AX, ret+64(FP)
	RET

// func kick1NSSE2(tl *sphere.Lin, n int, hm float64, s *kickSums) int
//
// kick1SSE2 without the energies (lazy energies: kickRunGoN): KICK_V and
// the maxima only, s's Ekin and Egrav neither read nor written; two
// spheres a turn (an odd n's first sphere on its own): the second's
// squares in X7, kept against the first's maxima in X5 (the same
// comparisons in sphere order), one MOVAPD and 3 instructions of
// bookkeeping a pair — 27 instructions a sphere against kick1SSE2's 42.
TEXT ·kick1NSSE2(SB), NOSPLIT, $0-40
	MOVQ   tl+0(FP), SI
	MOVQ   n+8(FP), CX
	MOVSD  hm+16(FP), X8
	UNPCKLPD X8, X8
	MOVQ   s+24(FP), R8
	MOVUPD 16(R8), X9
	MOVSD  32(R8), X15
	MOVQ   CX, AX
	TESTQ  $1, CX
	JZ     kn1pairs
	KICK_V
	KICK_MAX
	ADDQ   $72, SI
	DECQ   CX
	JZ     kn1done

kn1pairs:
	KICK_VAT(0, X5)
	MAXPD  X9, X5
	KICK_VAT(72, X7)
	MAXPD  X5, X7
	MOVAPD X7, X9
	ADDQ   $144, SI
	SUBQ   $2, CX
	JNZ    kn1pairs

kn1done:
	MOVUPD X9, 16(R8)
	MOVSD  X15, 32(R8)
	MOVQ   AX, ret+32(FP)
	RET

// func driftSSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int
TEXT ·driftSSE2(SB), NOSPLIT, $0-80
	DRIFT_ARGS
	MOVUPD 0(DX), X10       // (mgx, mgy)
	MOVSD  16(DX), X11      // mgz
	XORQ   AX, AX

dloop:
	CMPL (R10)(AX*4), BX
	JNE  ddone
	DRIFT_SPHERE
	MOVUPD X6, 0(DI)
	MOVSD  X7, 16(DI)
	MOVUPD X0, 24(DI)
	MOVSD  X1, 40(DI)
	MOVUPD X10, 48(DI)
	MOVSD  X11, 64(DI)
	MOVUPD X6, 0(R9)
	MOVSD  X7, 16(R9)
	ADDQ   $72, SI
	ADDQ   $72, DI
	ADDQ   $24, R9
	INCQ   AX
	CMPQ   AX, CX
	JLT    dloop

ddone:
	MOVQ AX, ret+72(FP)
	RET

// D1_STORE is drift1SSE2's stores of the sphere at o(SI) (its trial
// state at o(SI)(R11), its centre at x(R9)).
#define D1_STORE(o, x) \
	MOVUPD X6, ((o)+0)(SI)(R11*1); \
	MOVSD  X7, ((o)+16)(SI)(R11*1); \
	MOVUPD X0, ((o)+24)(SI)(R11*1); \
	MOVSD  X1, ((o)+40)(SI)(R11*1); \
	MOVUPD X10, ((o)+48)(SI)(R11*1); \
	MOVSD  X11, ((o)+64)(SI)(R11*1); \
	MOVUPD X6, ((x)+0)(R9); \
	MOVSD  X7, ((x)+16)(R9)

// func drift1SSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int
//
// driftSSE2 over all n ≥ 1 spheres, every one of species cur (a system of
// one species: driftRun1): spec is not read, the trial state is addressed
// from the accepted one's pointer (R11 = tl − al) and the loop counts down
// two spheres a turn (an odd n's first sphere on its own: 4 instructions
// of bookkeeping a pair, against driftSSE2's 8 a sphere; 24 instructions
// a sphere in all). The same arithmetic and stores.
TEXT ·drift1SSE2(SB), NOSPLIT, $0-80
	DRIFT_ARGS
	MOVUPD 0(DX), X10       // (mgx, mgy)
	MOVSD  16(DX), X11      // mgz
	MOVQ   CX, AX
	MOVQ   DI, R11
	SUBQ   SI, R11          // tl − al
	TESTQ  $1, CX
	JZ     d1pairs
	DRIFT_SPHERE
	D1_STORE(0, 0)
	ADDQ   $72, SI
	ADDQ   $24, R9
	DECQ   CX
	JZ     d1done

d1pairs:
	DRIFT_AT(0)
	D1_STORE(0, 0)
	DRIFT_AT(72)
	D1_STORE(72, 24)
	ADDQ   $144, SI
	ADDQ   $48, R9
	SUBQ   $2, CX
	JNZ    d1pairs

d1done:
	MOVQ AX, ret+72(FP)
	RET

// func driftNTSSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int
//
// driftSSE2 with non-temporal stores (MOVNTI, from general registers: a
// sphere.Lin is 8-byte aligned, 16 only every other sphere, so not
// MOVNTPD) of the trial state and the centres: the same operations on
// the same values, only the stores go to memory without first reading
// their cache lines (write-allocate) and without displacing the cache.
// SFENCE before returning orders them before whatever follows (the
// workers' join, the next pass).
TEXT ·driftNTSSE2(SB), NOSPLIT, $0-80
	DRIFT_ARGS
	MOVQ   0(DX), R12       // mgx
	MOVQ   8(DX), R13       // mgy
	MOVQ   16(DX), R14      // mgz
	XORQ   AX, AX

nloop:
	CMPL (R10)(AX*4), BX
	JNE  ndone
	DRIFT_SPHERE
	MOVQ   X6, R8           // x
	MOVHLPS X6, X2
	MOVQ   X2, R11          // y
	MOVQ   X7, DX           // z
	MOVNTIQ R8, 0(DI)
	MOVNTIQ R11, 8(DI)
	MOVNTIQ DX, 16(DI)
	MOVNTIQ R8, 0(R9)
	MOVNTIQ R11, 8(R9)
	MOVNTIQ DX, 16(R9)
	MOVQ   X0, R8           // vx
	MOVHLPS X0, X3
	MOVQ   X3, R11          // vy
	MOVQ   X1, DX           // vz
	MOVNTIQ R8, 24(DI)
	MOVNTIQ R11, 32(DI)
	MOVNTIQ DX, 40(DI)
	MOVNTIQ R12, 48(DI)
	MOVNTIQ R13, 56(DI)
	MOVNTIQ R14, 64(DI)
	ADDQ   $72, SI
	ADDQ   $72, DI
	ADDQ   $24, R9
	INCQ   AX
	CMPQ   AX, CX
	JLT    nloop

ndone:
	SFENCE
	MOVQ AX, ret+72(FP)
	RET

// func drift1TSSE2(tl, al *sphere.Lin, X, ref *geom.Vec3, n int, hm, dt float64, mg *geom.Vec3, t *listTest) int
//
// drift1SSE2 with the Verlet list's displacement test (driftRunGoT: the
// world's ListDisplaced after each sphere's stores): d = (dx² + dy²) + dz²
// of x − ref (the sums in the other operand order than the Go twin's:
// the same value, and d is kept only when it compares greater, so never
// as a NaN), finite while MaxFloat64 ≥ d (UCOMISD: false for NaN and +Inf,
// as !(d ≤ MaxFloat64)), then the two largest as ListDisplaced's branches:
// d > d2, then d > d1. t's D1, D2, Finite are read and written back. One
// sphere a turn, normal stores (the test runs on a few steps only).
TEXT ·drift1TSSE2(SB), NOSPLIT, $0-80
	MOVQ   tl+0(FP), DI
	MOVQ   al+8(FP), SI
	MOVQ   X+16(FP), R9
	MOVQ   ref+24(FP), R10
	MOVQ   n+32(FP), CX
	MOVSD  hm+40(FP), X8
	UNPCKLPD X8, X8
	MOVSD  dt+48(FP), X9
	UNPCKLPD X9, X9
	MOVQ   mg+56(FP), DX
	MOVUPD 0(DX), X10       // (mgx, mgy)
	MOVSD  16(DX), X11      // mgz
	MOVQ   t+64(FP), R8
	MOVSD  0(R8), X14       // d1
	MOVSD  8(R8), X13       // d2
	MOVBLZX 16(R8), DX      // finite
	MOVSD  $(1.7976931348623157e+308), X12
	MOVQ   CX, AX
	MOVQ   DI, R11
	SUBQ   SI, R11          // tl − al

dtloop:
	DRIFT_SPHERE
	D1_STORE(0, 0)
	MOVUPD 0(R10), X2
	SUBPD  X2, X6
	SUBSD  16(R10), X7
	MULPD  X6, X6
	MOVHLPS X6, X3
	ADDSD  X3, X6
	MULSD  X7, X7
	ADDSD  X7, X6           // d
	UCOMISD X6, X12         // MaxFloat64 ≥ d (not unordered)
	SETCC  BX
	ANDL   BX, DX
	UCOMISD X13, X6
	JLS    dtnext           // d ≤ d2 or unordered
	UCOMISD X14, X6
	JLS    dtd2             // d ≤ d1
	MOVAPD X14, X13
	MOVAPD X6, X14
	JMP    dtnext

dtd2:
	MOVAPD X6, X13

dtnext:
	ADDQ   $72, SI
	ADDQ   $24, R9
	ADDQ   $24, R10
	DECQ   CX
	JNZ    dtloop

	MOVSD  X14, 0(R8)
	MOVSD  X13, 8(R8)
	MOVB   DX, 16(R8)
	MOVQ   AX, ret+72(FP)
	RET
