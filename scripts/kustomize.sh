#!/usr/bin/env bash
# kustomize for rendering deploy/k8s (`pnpm k8s:render`, `pnpm deploy:validate`). Builds it once with
# the Go toolchain (cached in $GOPATH/bin as kustomize-<version>) and prints the binary's path.
# `KUSTOMIZE=/path/to/kustomize` skips the build.
set -euo pipefail
VERSION=v5.8.1
if [ -n "${KUSTOMIZE:-}" ]; then
  [ -x "$KUSTOMIZE" ] || { echo "kustomize.sh: KUSTOMIZE=$KUSTOMIZE is not an executable" >&2; exit 1; }
  echo "$KUSTOMIZE"; exit 0
fi
BIN="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/kustomize-$VERSION"

if [ ! -x "$BIN" ]; then
  command -v go >/dev/null 2>&1 || { echo "kustomize.sh: the Go toolchain is needed to build kustomize" >&2; exit 1; }
  echo "kustomize.sh: building kustomize $VERSION (a minute or two the first time)" >&2
  # `go install …@version` trips over a proxy lookup of the module's version list here (as for
  # FerretDB); building the downloaded module directly avoids it.
  src="$(go mod download -json "sigs.k8s.io/kustomize/kustomize/v5@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')"
  [ -n "$src" ] || { echo "kustomize.sh: could not download sigs.k8s.io/kustomize/kustomize/v5@$VERSION" >&2; exit 1; }
  mkdir -p "$(dirname "$BIN")"
  (cd "$src" && CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/kustomize/api/provenance.version=$VERSION" -o "$BIN.tmp" . >&2)
  mv "$BIN.tmp" "$BIN"
fi
echo "$BIN"
