//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// FGCORE is evalFG for n1 = n2 = 10 (S1 eq. 1, 14) with the body-frame
// point's (x, y) in X4 and z in X0, q in DX, e in DI: it stores f and the
// powers (x2, x1, y2, y1, z2, ν, ν^(p−1), sxy) into e and leaves (f_x, f_y)
// in X1, f_z in X3 (with the signs of x, y, z), 1.0 in X2. Step by step:
// masks X8 = |·|, X9 = sign bit; (X, Y) = (|x|·ia, |y|·ib) in X5, Z =
// |z|·ic in X7; t^8 by three squarings, (x2, y2) in X10, z2 in X11; (x1,
// y1) = (x2·X, y2·Y) in X12, z1 in X13; (x0, y0) in X6, z0 in X7; ν = x0 +
// y0; ν^(p−1) = 1 if ν > 0 else 0 (X14); f = (ν^(p−1)·ν + z0) − 1;
// (f_x, f_y) = (gx·x1, gy·y1)·ν^(p−1), f_z = gz·z1, each or'ed with its
// coordinate's sign bit; sxy = 1 with the sign bit sign(x) xor sign(y).
// lbl is a label local to the use.
#define FGCORE(lbl) \
	PCMPEQL X8, X8 \
	MOVAPD X8, X9 \
	PSRLQ $1, X8 \
	PSLLQ $63, X9 \
	MOVAPD X4, X5 \
	ANDPD X8, X5 \
	MOVUPD 0(DX), X6 \
	MULPD X6, X5 \
	MOVAPD X0, X7 \
	ANDPD X8, X7 \
	MULSD 16(DX), X7 \
	MOVAPD X5, X10 \
	MULPD X10, X10 \
	MULPD X10, X10 \
	MULPD X10, X10 \
	MOVAPD X7, X11 \
	MULSD X11, X11 \
	MULSD X11, X11 \
	MULSD X11, X11 \
	MOVAPD X10, X12 \
	MULPD X5, X12 \
	MOVAPD X11, X13 \
	MULSD X7, X13 \
	MOVAPD X12, X6 \
	MULPD X5, X6 \
	MULSD X13, X7 \
	MOVAPD X6, X3 \
	UNPCKHPD X3, X3 \
	ADDSD X3, X6 \
	MOVQ $0x3ff0000000000000, R8 \
	MOVQ R8, X2 \
	MOVAPD X2, X14 \
	XORPD X3, X3 \
	UCOMISD X3, X6 \
	JHI lbl \
	XORPD X14, X14 \
lbl: \
	MOVAPD X14, X1 \
	MULSD X6, X1 \
	ADDSD X7, X1 \
	SUBSD X2, X1 \
	MOVSD X1, 0(DI) \
	MOVUPD 80(DX), X1 \
	MULPD X12, X1 \
	MOVAPD X14, X3 \
	UNPCKLPD X3, X3 \
	MULPD X3, X1 \
	MOVAPD X4, X3 \
	ANDPD X9, X3 \
	ORPD X3, X1 \
	MOVSD 96(DX), X3 \
	MULSD X13, X3 \
	MOVAPD X0, X5 \
	ANDPD X9, X5 \
	ORPD X5, X3 \
	MOVAPD X10, X5 \
	UNPCKLPD X12, X5 \
	MOVUPD X5, 32(DI) \
	UNPCKHPD X12, X10 \
	MOVUPD X10, 48(DI) \
	MOVSD X11, 64(DI) \
	MOVSD X6, 72(DI) \
	MOVSD X14, 80(DI) \
	MOVAPD X4, X5 \
	UNPCKHPD X5, X5 \
	XORPD X4, X5 \
	ANDPD X9, X5 \
	ORPD X2, X5 \
	MOVSD X5, 88(DI)

// ROTIN is S1 eq. (18)'s x = Aᵀ(X − X_C) with the frame point X at BX, the
// centre X_C at AX (a Vec3, or a posed: c at 0), A = r at SI: d = X − X_C;
// (x, y) = ((r00, r01)·dx + (r10, r11)·dy) + (r20, r21)·dz in X4, z =
// (r02·dx + r12·dy) + r22·dz in X0 (tmulV's operations in its order).
#define ROTIN \
	MOVSD 0(BX), X0 \
	SUBSD 0(AX), X0 \
	MOVSD 8(BX), X1 \
	SUBSD 8(AX), X1 \
	MOVSD 16(BX), X2 \
	SUBSD 16(AX), X2 \
	MOVAPD X0, X3 \
	UNPCKLPD X3, X3 \
	MOVUPD 0(SI), X4 \
	MULPD X3, X4 \
	MOVAPD X1, X5 \
	UNPCKLPD X5, X5 \
	MOVUPD 24(SI), X6 \
	MULPD X5, X6 \
	ADDPD X6, X4 \
	MOVAPD X2, X5 \
	UNPCKLPD X5, X5 \
	MOVUPD 48(SI), X6 \
	MULPD X5, X6 \
	ADDPD X6, X4 \
	MULSD 16(SI), X0 \
	MULSD 40(SI), X1 \
	ADDSD X1, X0 \
	MULSD 64(SI), X2 \
	ADDSD X2, X0

// The kernels below: evalW (shape.go) for n1 = n2 = 10 (q.same == 10) on
// SSE2: for a rotated shape S1 eq. (18) x = Aᵀ(X − X_C), eq. (1) and (14) f
// and ∇f, eq. (18) ∇F = A∇f; for an ident one f and ∇f at x = X. Two lanes
// for x and y, one for z, each lane the same IEEE operations in the same
// order as the Go code (evalWGo, evalFG), so the same bits: products
// commute exactly, and every sum is formed in the Go order. Layouts
// (checked by TestEvalWLayout): posed c at 0, r at 24, ident at 32, q at
// 40; prep ia, ib, ic at 0, 8, 16, gx, gy, gz at 80, 88, 96; evalOut f 0,
// g 8, x2 32, x1 40, y2 48, y1 56, z2 64, nu 72, nup1 80, sxy 88; Mat3
// row-major (r00 at 0, r10 at 24, r20 at 48). X15 and R14 are left alone
// (ABIInternal's zero and g registers).

// func evalFG10SSE2(q *prep, x *geom.Vec3, e *evalOut)
//
// evalFG for n1 = n2 = 10 at the body-frame point x: FGCORE, the same bits.
TEXT ·evalFG10SSE2(SB), NOSPLIT, $0-24
	MOVQ q+0(FP), DX
	MOVQ x+8(FP), BX
	MOVQ e+16(FP), DI
	MOVUPD 0(BX), X4
	MOVSD 16(BX), X0
	FGCORE(nuposB)
	MOVUPD X1, 8(DI)
	MOVSD X3, 24(DI)
	RET

// func meanCurv10SSE2(q *prep, r *geom.Mat3, c, w *geom.Vec3) float64
//
// The mean curvature (S1 eq. 39) of an n1 = n2 = 10 shape at the body-frame
// point x = rᵀ(w − c) (S1 eq. 18; Prepared.RadiusAt's rotation): ROTIN,
// FGCORE into a scratch evalOut on the frame (∇f stays in X1, X3), the
// body-frame Hessian of prep.hess for n1 = n2 (S1 eq. 15: f_zz = hz·z2;
// where ν > 0 f_xx = ((c·ia)·ia)·((n2 − 1)·x2), f_yy alike with ib, y2,
// f_xy = 0·sxy, c = n1·ν^(p−1); else zeros), then meanCurvAt's expression
// with every sum in the Go order: g2 = (f_x² + f_y²) + f_z², and where
// g2 ≠ 0 (NaN included) k = (g2·((h_xx + h_yy) + h_zz) − ghg) /
// ((2·g2)·√g2), ghg = ((h_xx f_x f_x + 2h_xy f_x f_y) + h_yy f_y f_y) +
// h_zz f_z f_z; else 0. The same bits as meanCurvAt. prep n1, n2, hz at
// 24, 32, 104 (TestMeanCurv10Layout).
TEXT ·meanCurv10SSE2(SB), NOSPLIT, $96-40
	MOVQ q+0(FP), DX
	MOVQ r+8(FP), SI
	MOVQ c+16(FP), AX
	MOVQ w+24(FP), BX
	LEAQ e-96(SP), DI
	ROTIN
	FGCORE(nuposK)
	MOVSD 104(DX), X7
	MULSD 64(DI), X7
	XORPD X4, X4
	XORPD X5, X5
	XORPD X6, X6
	XORPD X8, X8
	MOVSD 72(DI), X0
	UCOMISD X8, X0
	JLS flat
	MOVSD 24(DX), X9
	MULSD 80(DI), X9
	MOVSD 32(DX), X10
	SUBSD X2, X10
	MOVAPD X9, X4
	MULSD 0(DX), X4
	MULSD 0(DX), X4
	MOVAPD X10, X11
	MULSD 32(DI), X11
	MULSD X11, X4
	MOVAPD X9, X5
	MULSD 8(DX), X5
	MULSD 8(DX), X5
	MOVAPD X10, X11
	MULSD 48(DI), X11
	MULSD X11, X5
	MOVSD 88(DI), X6
	MULSD X8, X6
flat:
	MOVAPD X1, X12
	UNPCKHPD X12, X12
	MOVAPD X1, X13
	MULSD X1, X13
	MOVAPD X12, X14
	MULSD X12, X14
	ADDSD X14, X13
	MOVAPD X3, X14
	MULSD X3, X14
	ADDSD X14, X13
	XORPD X0, X0
	UCOMISD X8, X13
	JNE curv
	JPS curv
	JMP done
curv:
	MOVAPD X4, X14
	MULSD X1, X14
	MULSD X1, X14
	MOVQ $0x4000000000000000, R8
	MOVQ R8, X2
	MOVAPD X2, X9
	MULSD X6, X9
	MULSD X1, X9
	MULSD X12, X9
	ADDSD X9, X14
	MOVAPD X5, X9
	MULSD X12, X9
	MULSD X12, X9
	ADDSD X9, X14
	MOVAPD X7, X9
	MULSD X3, X9
	MULSD X3, X9
	ADDSD X9, X14
	MOVAPD X4, X0
	ADDSD X5, X0
	ADDSD X7, X0
	MULSD X13, X0
	SUBSD X14, X0
	MULSD X13, X2
	SQRTSD X13, X11
	MULSD X11, X2
	DIVSD X2, X0
done:
	MOVSD X0, ret+32(FP)
	RET

// EVALW_SHAPE is evalW for the n1 = n2 = 10 shape (posed) at AX into the
// evalOut at DI at the frame point at BX: rotated (SI = r; d = w − c; (x,
// y) = ((r00, r01)·dx + (r10, r11)·dy) + (r20, r21)·dz in X4, z = (r02·dx
// + r12·dy) + r22·dz in X0; FGCORE; ∇F = A∇f (S1 eq. 18): (F_x, F_y) =
// ((r00, r10)·f_x + (r01, r11)·f_y) + (r02, r12)·f_z, F_z = (r20·f_x +
// r21·f_y) + r22·f_z) or ident (FGCORE at the point), the test on
// posed.ident inside. ident, done, nuR and nuI are labels local to the use.
#define EVALW_SHAPE(ident, done, nuR, nuI) \
	MOVQ 40(AX), DX \
	CMPB 32(AX), $0 \
	JNE ident \
	MOVQ 24(AX), SI \
	ROTIN \
	FGCORE(nuR) \
	MOVSD 0(SI), X5 \
	MOVHPD 24(SI), X5 \
	MOVAPD X1, X6 \
	UNPCKLPD X6, X6 \
	MULPD X6, X5 \
	MOVSD 8(SI), X7 \
	MOVHPD 32(SI), X7 \
	MOVAPD X1, X6 \
	UNPCKHPD X6, X6 \
	MULPD X6, X7 \
	ADDPD X7, X5 \
	MOVSD 16(SI), X7 \
	MOVHPD 40(SI), X7 \
	MOVAPD X3, X6 \
	UNPCKLPD X6, X6 \
	MULPD X6, X7 \
	ADDPD X7, X5 \
	MOVUPD X5, 8(DI) \
	MOVUPD 48(SI), X6 \
	MULPD X1, X6 \
	MOVAPD X6, X7 \
	UNPCKHPD X7, X7 \
	ADDSD X7, X6 \
	MULSD 64(SI), X3 \
	ADDSD X3, X6 \
	MOVSD X6, 24(DI) \
	JMP done \
ident: \
	MOVUPD 0(BX), X4 \
	MOVSD 16(BX), X0 \
	FGCORE(nuI) \
	MOVUPD X1, 8(DI) \
	MOVSD X3, 24(DI) \
done:

// func evalW2SSE2(A, B *posed, w *geom.Vec3, ea, eb *evalOut)
//
// evalW of A into ea and of B into eb at the same frame point w, both with
// n1 = n2 = 10 (rotated or ident, tested per shape), in one call: for a
// rotated shape x = Aᵀ(X − X_C), FGCORE and ∇F = A∇f, for an ident one
// FGCORE at X (evalFG10SSE2's operations); the same bits.
TEXT ·evalW2SSE2(SB), NOSPLIT, $0-40
	MOVQ A+0(FP), AX
	MOVQ w+16(FP), BX
	MOVQ ea+24(FP), DI
	EVALW_SHAPE(identA, doneA, nuposAR, nuposAI)
	MOVQ B+8(FP), AX
	MOVQ eb+32(FP), DI
	EVALW_SHAPE(identB, doneB, nuposBR, nuposBI)
	RET

// func evalW1SSE2(ps *posed, w *geom.Vec3, e *evalOut)
//
// evalW for n1 = n2 = 10, rotated or ident (the test inside): evalW2SSE2's
// code for one shape, the same bits.
TEXT ·evalW1SSE2(SB), NOSPLIT, $0-24
	MOVQ ps+0(FP), AX
	MOVQ w+8(FP), BX
	MOVQ e+16(FP), DI
	EVALW_SHAPE(identS, doneS, nuposSR, nuposSI)
	RET
