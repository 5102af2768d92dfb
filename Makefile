# Grainlab — two entry points: `make run` and `make test`. Both install what
# they need on a fresh Debian machine (apt packages, with sudo when not root).

APT_PKGS := libgl1-mesa-dev libgl1-mesa-dri libx11-dev libxcursor-dev libxrandr-dev \
            libxinerama-dev libxi-dev libxxf86vm-dev xvfb xauth
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
XVFB     := xvfb-run -a -s '-screen 0 1280x800x24'
BIN      := bin/grainlab
FUZZTIME ?= 10s
# A Go ≥ 1.26: the one on PATH, or one .ci/go.sh installs (see that script).
GO       := $(shell sh .ci/go.sh)

.PHONY: run test deps build bench fuzz clean

run: build
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then ./$(BIN); \
	else echo "no display: running the default scene headless"; ./$(BIN) run box-of-tetrapods; fi

test: deps
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) test -count=1 ./sim/...
	$(XVFB) $(GO) test -count=1 ./...
	$(MAKE) --no-print-directory fuzz

build: deps
	$(GO) build -o $(BIN) .

bench: build
	./$(BIN) bench

fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzReadSTL -fuzztime=$(FUZZTIME) ./sim/shape/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./sim/scene/

# deps installs the system packages that are missing (the Go toolchain is
# taken care of by .ci/go.sh when the Makefile is read).
deps:
	@test -x "$(GO)" || { echo "no Go toolchain (.ci/go.sh failed)"; exit 1; }
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

clean:
	rm -rf bin
