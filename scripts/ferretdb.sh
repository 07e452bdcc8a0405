#!/usr/bin/env bash
# FerretDB v1 (a MongoDB-wire server on SQLite) for the MongoDB adapter's tests on machines without
# MongoDB. `scripts/ferretdb.sh start` builds it once with the Go toolchain (cached in $GOPATH/bin),
# starts it on 127.0.0.1:${FERRETDB_PORT:-27018} with its data in a temporary folder, and prints
# the MongoDB URL. `scripts/ferretdb.sh stop` stops it.
set -euo pipefail
VERSION=v1.24.2
PORT="${FERRETDB_PORT:-27018}"
STATE="${FERRETDB_STATE_DIR:-${TMPDIR:-/tmp}/crawl-ferretdb-$PORT}"
BIN="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/ferretdb"

build() {
  command -v go >/dev/null 2>&1 || { echo "ferretdb.sh: the Go toolchain is needed to build FerretDB" >&2; exit 1; }
  local src
  # `go install …@version` trips over a proxy lookup of the module's version list here; building the
  # downloaded module directly avoids it. The module zip lacks build/version/version.txt, which
  # FerretDB panics without, so the build runs on a writable copy with that file filled in.
  src="$(go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')"
  local work; work="$(mktemp -d)"
  cp -r "$src/." "$work/" && chmod -R u+w "$work"
  echo "$VERSION" > "$work/build/version/version.txt"
  (cd "$work" && GOFLAGS=-mod=mod go build -o "$BIN" ./cmd/ferretdb)
  rm -rf "$work"
}

case "${1:-start}" in
  start)
    if [ ! -x "$BIN" ] || ! "$BIN" --version 2>/dev/null | grep -q "$VERSION"; then
      echo "ferretdb.sh: building FerretDB $VERSION (a few minutes the first time)" >&2
      build
    fi
    if ! (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; then
      rm -rf "$STATE" && mkdir -p "$STATE/data"
      nohup "$BIN" --handler=sqlite --sqlite-url="file:$STATE/data/" --state-dir="$STATE" \
        --listen-addr="127.0.0.1:$PORT" --telemetry=disable --log-level=warn >"$STATE/ferretdb.log" 2>&1 &
      echo $! > "$STATE/pid"
      for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.1; done
      (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null || { echo "ferretdb.sh: FerretDB did not start; see $STATE/ferretdb.log" >&2; cat "$STATE/ferretdb.log" >&2; exit 1; }
    fi
    echo "mongodb://127.0.0.1:$PORT/"
    ;;
  stop)
    [ -f "$STATE/pid" ] && kill "$(cat "$STATE/pid")" 2>/dev/null || true
    rm -rf "$STATE"
    ;;
  *) echo "usage: scripts/ferretdb.sh start|stop" >&2; exit 2 ;;
esac
