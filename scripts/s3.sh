#!/usr/bin/env bash
# An S3-compatible server (gofakes3, in memory) for the destination tests on machines without one.
# gofakes3 is a library: `scripts/s3.sh start` writes a few lines of main into a temporary module
# that requires it, builds that once with the Go toolchain (cached in $GOPATH/bin), starts it on
# 127.0.0.1:${S3_PORT:-9878}, and prints the endpoint URL once it answers (exit 1 with its log
# otherwise). Buckets are not created on first use: a client creates them, as on a real store.
# `scripts/s3.sh stop` stops it. Several instances run side by side on different ports.
set -euo pipefail
VERSION=v1.2.0
PORT="${S3_PORT:-9878}"
STATE="${S3_STATE_DIR:-${TMPDIR:-/tmp}/crawl-s3-$PORT}"
BIN="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/crawl-gofakes3-$VERSION"

build() {
  command -v go >/dev/null 2>&1 || { echo "s3.sh: the Go toolchain is needed to build gofakes3" >&2; exit 1; }
  local work; work="$(mktemp -d)"
  cat >"$work/main.go" <<'GO'
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	addr := flag.String("listen", "127.0.0.1:9878", "address to listen on")
	flag.Parse()
	faker := gofakes3.New(s3mem.New())
	log.Printf("gofakes3 listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, faker.Server()))
}
GO
  cat >"$work/go.mod" <<GOMOD
module crawl/s3server

go 1.24

require github.com/johannesboyne/gofakes3 $VERSION
GOMOD
  mkdir -p "$(dirname "$BIN")"
  (cd "$work" && GOFLAGS=-mod=mod go mod tidy && GOFLAGS=-mod=mod go build -o "$BIN" .)
  rm -rf "$work"
}

listening() { (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; }
alive() { [ -f "$STATE/pid" ] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null; }
fail() {
  echo "s3.sh: gofakes3 did not start on 127.0.0.1:$PORT; its log ($STATE/s3.log):" >&2
  cat "$STATE/s3.log" >&2 || true
  alive && kill "$(cat "$STATE/pid")" 2>/dev/null
  exit 1
}

case "${1:-start}" in
  start)
    if [ ! -x "$BIN" ]; then
      echo "s3.sh: building gofakes3 $VERSION (a minute the first time)" >&2
      build
    fi
    if ! listening; then
      rm -rf "$STATE" && mkdir -p "$STATE"
      nohup "$BIN" -listen "127.0.0.1:$PORT" >"$STATE/s3.log" 2>&1 &
      echo $! > "$STATE/pid"
      for _ in $(seq 1 100); do alive && listening && break; alive || break; sleep 0.1; done
      alive && listening || fail
    fi
    echo "http://127.0.0.1:$PORT"
    ;;
  stop)
    [ -f "$STATE/pid" ] && kill "$(cat "$STATE/pid")" 2>/dev/null || true
    rm -rf "$STATE"
    ;;
  *) echo "usage: scripts/s3.sh start|stop" >&2; exit 2 ;;
esac
