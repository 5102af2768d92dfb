# Grainlab — two entry points: `make run` and `make test`. Both install what
# they need on a fresh Debian machine (apt packages, with sudo when not root).

APT_PKGS := libgl1-mesa-dev libgl1-mesa-dri libx11-dev libxcursor-dev libxrandr-dev \
            libxinerama-dev libxi-dev libxxf86vm-dev xvfb xauth
# Tests and bench-lammps also compare with LAMMPS and LIGGGHTS (sim/lammps);
# VTK's own reader (python3-vtk9, run with /usr/bin/python3) checks the
# ParaView series (sim/vtk).
TEST_PKGS := lammps liggghts python3-vtk9
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# -noreset: Xvfb otherwise resets when its last client disconnects and, for
# that moment, refuses the next connection ("Failed to open display"): the GL
# test packages open and close windows one after another.
XVFB     := xvfb-run -a -s '-screen 0 1280x800x24 -noreset'
BIN      := bin/grainlab
# Fuzz budgets are counts of inputs, not durations: a duration (-fuzztime=10s)
# races the fuzz coordinator's deadline on a loaded machine and fails with a
# bare "context deadline exceeded" and no failing input (golang/go#75804,
# fixed in Go 1.27; seen in this project's CI). About 10 s each here.
FUZZ_STL   ?= 400000x
FUZZ_SCENE ?= 100000x
FUZZ_BUILD ?= 150000x
FUZZ_STATE ?= 100000x
# A Go ≥ 1.26: the one on PATH, or one .ci/go.sh installs (see that script).
GO       := $(shell sh .ci/go.sh)

.PHONY: run test deps deps-test build build-headless bench bench-workers bench-sq bench-spheres bench-lammps fuzz clean pgo

run: build
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then ./$(BIN); \
	else echo "no display: running the default scene headless"; ./$(BIN) run box-of-tetrapods; fi

# Both builds are made; sim/ and app (the headless core: no cgo) are tested
# without a display, the race tests of the sim/view handoff and of Compare included; the
# GL packages (app/window, render, ui) and the rest under xvfb, where a GL
# test that cannot open a window fails instead of skipping. sim/'s
# any-worker-count tests run again built for GOAMD64=v3 (FMAs) where the
# CPU has fma and avx2 (.ci/fma-workers.sh). TESTTIMEOUT: go test's limit
# per package binary; its default of 10 minutes is too close: sim/validation
# takes ~4 minutes on two quiet cores and took 9 on a loaded machine.
TESTTIMEOUT ?= 40m
test: deps-test
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) build -o /dev/null .
	$(GO) build -o /dev/null .
	CGO_ENABLED=0 $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./sim/...
	GO=$(GO) sh .ci/fma-workers.sh
	CGO_ENABLED=0 $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./app/
	$(GO) test -count=1 -race -run 'SimLoop|History|Compare' ./app/
	GRAINLAB_GL_TESTS=required $(XVFB) $(GO) test -count=1 $$($(GO) list ./... | grep -v -e '/sim/' -e '^grainlab/app$$')
	$(MAKE) --no-print-directory fuzz

build: deps
	$(GO) build -o $(BIN) .

# A static grainlab without cgo, X11 or GL (batch and cluster machines): every
# headless command; the window, view, shot and export --frames say they need
# the GL build.
build-headless:
	CGO_ENABLED=0 $(GO) build -o $(BIN)-headless .

bench: build
	./$(BIN) bench

# The profile for profile-guided builds (default.pgo, picked up by `go build`):
# CPU profiles of the hot paths (the collapse with one and two workers, S0
# ex. 6, newmark, superquadrics, 10^5 spheres) merged. Regenerate when the hot
# code changes; a stale profile still builds (docs/performance.md, PGO).
PGO_SETS := --set generators[0].count=100000 --set generators[0].region.max=[0.0988,0.0988,0.1976] \
            --set walls[0].max=[0.0988,0.0988,0.1976]
pgo:
	@mkdir -p bin/pgo
	CGO_ENABLED=0 $(GO) build -pgo=off -o bin/pgo/grainlab .
	bin/pgo/grainlab bench --time 0.3 --workers 1 --cpuprofile bin/pgo/1.prof >/dev/null
	bin/pgo/grainlab bench --time 0.3 --workers 2 --cpuprofile bin/pgo/2.prof >/dev/null
	bin/pgo/grainlab bench --set generators.fill.count=1005 --restart sim/validation/testdata/box-of-tetrapods-1005-packed.json \
	  --time 0.05 --workers 2 --cpuprofile bin/pgo/3.prof >/dev/null
	bin/pgo/grainlab bench --integrator newmark --set integrator.dt_max=0.02 --time 0.1 --cpuprofile bin/pgo/4.prof >/dev/null
	bin/pgo/grainlab bench --scene sq-settling $(SQ_SETS) --set params.n=10 --time 0.05 --cpuprofile bin/pgo/5.prof >/dev/null
	bin/pgo/grainlab bench --scene sphere-box-soft $(PGO_SETS) --time 0.01 --cpuprofile bin/pgo/6.prof >/dev/null
	$(GO) tool pprof -proto bin/pgo/1.prof bin/pgo/2.prof bin/pgo/3.prof bin/pgo/4.prof bin/pgo/5.prof bin/pgo/6.prof > default.pgo

# Two workers against one on the collapse (issue 15's ≥ 1.8×): `bench --time
# 0.3` with one worker and two, alternately, 6 rounds, medians of the whole
# process's and of the loop's wall time (.ci/workers-ratio.sh; another
# build side by side: .ci/workers-ratio.sh bin/grainlab-headless OTHER).
# On a quiet machine only.
bench-workers: build-headless
	.ci/workers-ratio.sh $(BIN)-headless

# S1 §3.1 speed: superquadric settling (250 particles, periodic 0.05 m box)
# for blockiness 2…10: the dynamic regime from the start, the static one
# from the settled bed (docs/performance.md).
SQ_SETS := --set generators[0].count=250 --set periodic.max=[0.05,0.05,0.25] \
           --set generators[0].region.max=[0.05,0.05,0.245]
bench-sq: build
	@mkdir -p bin/bench-sq
	@for n in 2 4 6 8 10; do \
	  echo "== blockiness $$n (dynamic: first 0.15 s)"; \
	  ./$(BIN) bench --scene sq-settling $(SQ_SETS) --set params.n=$$n --time 0.15 | grep -E 'µs/contact|contacts'; \
	  ./$(BIN) run sq-settling $(SQ_SETS) --set params.n=$$n --set time=0.6 --out bin/bench-sq/n$$n >/dev/null 2>&1; \
	  echo "== blockiness $$n (static: settled bed)"; \
	  ./$(BIN) bench --scene sq-settling $(SQ_SETS) --set params.n=$$n --restart bin/bench-sq/n$$n/final.json --time 0.05 | grep -E 'µs/contact|contacts'; \
	done

# S2 §3.4 box of 218 spheres (sphere-box-soft: 1000× below S2's stiffness),
# settled: time per particle-step (LAMMPS side by side: bench-lammps).
bench-spheres: build
	@mkdir -p bin/bench-spheres
	./$(BIN) run sphere-box-soft --out bin/bench-spheres >/dev/null 2>&1
	./$(BIN) bench --scene sphere-box-soft --restart bin/bench-spheres/final.json --time 0.5

# The same settled box side by side with LAMMPS (Debian's lmp, serial,
# velocity Verlet, gran/hooke): the deck `grainlab lammps` writes holds the
# same spheres, law, walls, gravity and skin; LAMMPS runs 30000 steps of
# 1e-4 s (Grainlab's step in this box), Grainlab 3 s on one worker and on
# two, alternately, five times, and the best of each. Timings on a shared machine only compare
# when they are taken together like this.
#
# With a size, `make bench-lammps N=100000`: sphere-box-soft with N spheres
# in a box ⌈∛N⌉ lattice cells wide (2.1 d each) and twice as tall, falling
# from the generator's lattice, BENCH_STEPS steps of 1e-4 s in LAMMPS, in
# LIGGGHTS (the decks of `grainlab lammps` and `grainlab liggghts`) and in
# Grainlab (one worker, the same simulated time in its own steps), one after
# the other. CPU time only (user + sys, /usr/bin/time), as the machine may
# be shared: per particle-step, the difference between the run and a run of
# one step over N × the steps between them (set-up left out); the whole
# process's CPU (set-up, reading the deck, the run) and its peak memory.
# GRAINLAB lists the Grainlab binaries to time, one row each, labelled by
# file name (side by side with another build: GRAINLAB="./bin/grainlab
# /path/to/other-grainlab"); WORKERS their workers (one by default). The
# decks hold the skin Grainlab's run starts with (World.VerletSkin: 0.6 r_min
# on a Hookean world of ≥ 4096 spheres, else 0.2 r_min); SKIN=metres sets it for every code alike
# (contact.skin; SKIN=0.0002 is the skin of before session 16). A build from
# before session 16 in GRAINLAB runs at its own 0.2 r_min whatever the decks
# say, and refuses SKIN (no contact.skin key): compare it at SKIN=0.0002 only
# with LAMMPS' and LIGGGHTS' rows of a run without it.
SETTLED := sim/validation/testdata/sphere-box-soft-218-settled.json
N ?=
BENCH_STEPS ?= 500
GRAINLAB ?= ./$(BIN)
WORKERS ?= 1
SKIN ?=
SKINSET := $(if $(SKIN),--set contact.skin=$(SKIN))
bench-lammps: build deps-test
ifeq ($(N),)
	@./$(BIN) lammps sphere-box-soft --restart $(SETTLED) $(SKINSET) --steps 30000 --dt 1e-4 --out bin/bench-lammps >/dev/null
	@for i in 1 2 3 4 5; do \
	  (cd bin/bench-lammps && lmp -in in.lammps -log none | awk '/^Loop time/ {printf "LAMMPS %.4f\n", $$4*1e6/$$9/$$12}'); \
	  for n in 1 2; do ./$(BIN) bench --scene sphere-box-soft --restart $(SETTLED) $(SKINSET) --time 3 --workers $$n | \
	    awk -v n=$$n '/particle/ {printf "Grainlab/%dw %s\n", n, $$2}'; done; \
	done | awk '{ print $$1 "\t" $$2 " µs/particle-step"; if (!($$1 in b) || $$2 < b[$$1]) b[$$1] = $$2 } \
	  END { for (k in b) printf "best of 5: %-12s %.4f µs/particle-step\n", k, b[k] }'
else
	@set -e; d=bin/bench-lammps-$(N); mkdir -p $$d; \
	L=$$(awk 'BEGIN { n = int(exp(log($(N))/3)); if (n*n*n < $(N)) n++; printf "%.6g", n*0.0021 + 1e-4 }'); \
	H=$$(awk "BEGIN { printf \"%.6g\", 2*$$L }"); \
	sets="--set generators[0].count=$(N) --set generators[0].region.max=[$$L,$$L,$$H] --set walls[0].max=[$$L,$$L,$$H] $(SKINSET)"; \
	T=$$(awk 'BEGIN { printf "%.6g", $(BENCH_STEPS)*1e-4 }'); \
	for s in 1 $(BENCH_STEPS); do \
	  ./$(BIN) lammps sphere-box-soft $$sets --steps $$s --dt 1e-4 --dump-every 0 --out $$d/s$$s >/dev/null; \
	  ./$(BIN) liggghts sphere-box-soft $$sets --steps $$s --dt 1e-4 --dump-every 0 --out $$d/s$$s >/dev/null; \
	done; \
	echo "$(N) spheres in a $$L × $$L × $$H m box, $(BENCH_STEPS) steps of 1e-4 s ($$T s), skin $$(awk '/^neighbor/ { print $$2 }' $$d/s1/in.lammps) m, CPU time (Grainlab: $(WORKERS) worker(s))"; \
	printf "%-16s %8s %18s %14s %9s\n" code steps "µs/particle-step" "process CPU s" "peak MB"; \
	for code in LAMMPS LIGGGHTS $(GRAINLAB); do \
	  label=$$code; case $$code in LAMMPS|LIGGGHTS) ;; *) label=$$(basename $$code); [ "$(GRAINLAB)" = "./$(BIN)" ] && label=Grainlab ;; esac; \
	  for s in 1 $(BENCH_STEPS); do \
	    case $$code in \
	      LAMMPS)   (cd $$d/s$$s && /usr/bin/time -f "%U %S %M" -o ../time.$$code.$$s lmp -in in.lammps -log none -screen none >/dev/null); \
	                echo $$s >$$d/steps.$$code.$$s ;; \
	      LIGGGHTS) (cd $$d/s$$s && /usr/bin/time -f "%U %S %M" -o ../time.$$code.$$s liggghts -in in.liggghts -log none -screen none >/dev/null); \
	                echo $$s >$$d/steps.$$code.$$s ;; \
	      *)        t=$$T; [ $$s = 1 ] && t=1e-9; \
	                /usr/bin/time -f "%U %S %M" -o $$d/time.$$label.$$s $$code bench --scene sphere-box-soft $$sets --time $$t --workers $(WORKERS) | \
	                  awk '/^simulated/ { print $$5 }' >$$d/steps.$$label.$$s ;; \
	    esac; \
	  done; \
	  cat $$d/steps.$$label.1 $$d/time.$$label.1 $$d/steps.$$label.$(BENCH_STEPS) $$d/time.$$label.$(BENCH_STEPS) | tr '\n' ' ' | \
	    awk -v c=$$label -v n=$(N) '{ printf "%-16s %8d %18.4f %14.2f %9.0f\n", c, $$5, ($$6+$$7-$$2-$$3)*1e6/n/($$5-$$1), $$6+$$7, $$8/1024 }'; \
	done
endif

fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzReadSTL -fuzztime=$(FUZZ_STL) ./sim/shape/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZ_SCENE) ./sim/scene/
	$(GO) test -run='^$$' -fuzz=FuzzBuild -fuzztime=$(FUZZ_BUILD) ./sim/scene/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZ_STATE) ./sim/state/

# deps installs the system packages that are missing (the Go toolchain is
# taken care of by .ci/go.sh when the Makefile is read); deps-test adds the
# test-only ones.
deps:
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(APT_PKGS)"

deps-test:
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(APT_PKGS) $(TEST_PKGS)"

install-pkgs:
	@test -x "$(GO)" || { echo "no Go toolchain (.ci/go.sh failed)"; exit 1; }
	@missing=""; for p in $(PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

clean:
	rm -rf bin
