#!/bin/sh
# Prints the path of a Go toolchain of at least $GO_MIN, installing one when
# needed: the `go` on PATH if it is new enough, else a toolchain cached by an
# earlier run, else Debian's Go (installed with apt if missing) downloads the
# official toolchain from the Go module proxy as the module golang.org/toolchain.
# Progress goes to stderr; stdout is only the path.
set -eu
GO_MIN=1.26
GO_VER=1.26.8
cache="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/grainlab/go$GO_VER"
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo

newer() { # newer A B: A ≥ B as versions
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

if command -v go >/dev/null 2>&1; then
	v=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
	if [ -n "$v" ] && newer "$v" "$GO_MIN"; then command -v go; exit 0; fi
fi
if [ -x "$cache/bin/go" ]; then echo "$cache/bin/go"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
	echo "go.sh: installing Debian's Go to bootstrap Go $GO_VER" >&2
	$sudo apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends golang-go ca-certificates >&2
fi
arch=$(go env GOOS)-$(go env GOARCH)
tmp=$(mktemp -d)
echo "go.sh: downloading Go $GO_VER ($arch) from the Go module proxy" >&2
dir=$(cd "$tmp" && env -u GOFLAGS GOPATH="$tmp/gopath" GO111MODULE=on \
	go mod download -json "golang.org/toolchain@v0.0.1-go$GO_VER.$arch" | sed -n 's/.*"Dir": "\(.*\)",*/\1/p')
[ -n "$dir" ] && [ -f "$dir/bin/go" ] || { echo "go.sh: toolchain download failed" >&2; exit 1; }
mkdir -p "$(dirname "$cache")"
rm -rf "$cache.tmp" && cp -r "$dir" "$cache.tmp" && chmod -R u+w "$cache.tmp"
chmod +x "$cache.tmp"/bin/* "$cache.tmp"/pkg/tool/*/*
chmod -R u+w "$tmp" && rm -rf "$tmp"
mv "$cache.tmp" "$cache"
echo "$cache/bin/go"
