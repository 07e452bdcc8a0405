#!/usr/bin/env bash
# FerretDB v1 (a MongoDB-wire server on SQLite) for the MongoDB adapter's tests on machines without
# MongoDB. `scripts/ferretdb.sh start` builds it once with the Go toolchain (cached in $GOPATH/bin),
# starts it on 127.0.0.1:${FERRETDB_PORT:-27018} with its data in a temporary folder, and prints
# the MongoDB URL once the server is up and answering (exit 1 with its log otherwise).
# `scripts/ferretdb.sh stop` stops it. Several instances run side by side on different ports.
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

listening() { (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; }
alive() { [ -f "$STATE/pid" ] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null; }
fail() {
  echo "ferretdb.sh: FerretDB did not start on 127.0.0.1:$PORT; its log ($STATE/ferretdb.log):" >&2
  cat "$STATE/ferretdb.log" >&2 || true
  alive && kill "$(cat "$STATE/pid")" 2>/dev/null
  exit 1
}

case "${1:-start}" in
  start)
    if [ ! -x "$BIN" ] || ! "$BIN" --version 2>/dev/null | grep -q "$VERSION"; then
      echo "ferretdb.sh: building FerretDB $VERSION (a few minutes the first time)" >&2
      build
    fi
    if ! listening; then
      rm -rf "$STATE" && mkdir -p "$STATE/data"
      # FerretDB's debug listener defaults to 127.0.0.1:8088 for every instance: a second one dies
      # at once on it. Off unless asked for (FERRETDB_DEBUG_ADDR=host:port), so instances on
      # different ports never collide.
      nohup "$BIN" --handler=sqlite --sqlite-url="file:$STATE/data/" --state-dir="$STATE" \
        --listen-addr="127.0.0.1:$PORT" --debug-addr="${FERRETDB_DEBUG_ADDR:--}" \
        --telemetry=disable --log-level=warn >"$STATE/ferretdb.log" 2>&1 &
      echo $! > "$STATE/pid"
      for _ in $(seq 1 100); do alive && listening && break; alive || break; sleep 0.1; done
      # A process that opened its port can still die right after (a listener of its own failing);
      # only one alive and answering after a short settle counts as started.
      sleep "${FERRETDB_SETTLE_SECONDS:-1}"
      alive && listening || fail
    fi
    echo "mongodb://127.0.0.1:$PORT/"
    ;;
  stop)
    [ -f "$STATE/pid" ] && kill "$(cat "$STATE/pid")" 2>/dev/null || true
    rm -rf "$STATE"
    ;;
  *) echo "usage: scripts/ferretdb.sh start|stop" >&2; exit 2 ;;
esac
