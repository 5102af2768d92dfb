#!/bin/sh
# fma-workers.sh — the same-bits-for-any-worker-count tests built for
# GOAMD64=v3, where the compiler may fuse x*y + z into FMAs (the Go spec
# allows it; arm64 does it too): one worker and several must still give the
# same bits (docs/ARCHITECTURE.md, "Determinism and fused multiply-adds"),
# and lazy and eager bodies too (the sphere path's rotational skip against
# its full passes: SpherePathLazyBodies, SphereRotationalSkip,
# ReviewRotSkipEdits).
# Also the tests that compare a written-out copy with its definition: exact
# on non-fusing builds, a stated tolerance where sim/internal/fma.MayFuse
# (the trajectory comparisons skip there), and the tests of bounds and
# proofs whose rounding allowances must hold with fused arithmetic too.
# Skipped, with a message, on a CPU without FMA and AVX2 (the v3 test
# binaries would not run). Run by `make test`; GO names the toolchain.
set -eu
cd "$(dirname "$0")/.."
GO=${GO:-go}
if ! grep -qw fma /proc/cpuinfo 2>/dev/null || ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
  echo "fma-workers: this CPU lacks fma or avx2 (/proc/cpuinfo): GOAMD64=v3 tests skipped"
  exit 0
fi
if [ "$("$GO" env GOARCH)" != amd64 ]; then
  echo "fma-workers: GOARCH is not amd64: GOAMD64=v3 tests skipped"
  exit 0
fi
GOAMD64=v3 CGO_ENABLED=0 "$GO" test -count=1 \
  -run 'Workers|HookeKernel|SpherePartsRimsEscape|SpherePartsLongRows|ContactSumsSplit|MovedPassesSameBits|ConjugateSameBits|EdgeEdgeEarlyExitSameBits|BuildMatchesDefinition|DetectSkipMatchesFullLists|IntegrateQSameBits|SincosSmallSameBits|SpherePathPeriodic$|SpherePathSwitching|TravelDtBelow|EvaluateFixedMatchesEvaluate|S2SettlingKineticEnergy|SpherePathMatchesGeneric|SmoothBoxSameBits|TravelFloor|ApartAlongCentresSound|RadiusAtSameBits|SmoothEffectiveRadiusPlaced|BuildPrefiltersAtThreshold|DopHoldsExactProjections|SphereSlotsByDefinition|AxpyDotBits|GMRESScaledBits|SpherePathLazyBodies|SphereRotationalSkip|ReviewRotSkipEdits|SphereDisplacementBound|ReviewDispBoundEdits|DispBoundBuilds' ./sim/...
