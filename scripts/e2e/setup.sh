#!/usr/bin/env bash
# Installs what the editor end-to-end tests need on a fresh machine (as root or with sudo; idempotent):
# Debian Chromium (driven headless by playwright-core), and code-server 4.100.3 = VS Code 1.100.3,
# the last release whose install accepts Node 20. code-server goes into a cache folder outside the
# repo, not into devDependencies: it is ~300 MB and only this test layer needs it.
set -euo pipefail
CACHE="${LITMUS_CACHE:-$HOME/.cache/litmus-lint}"
CS_VERSION=4.100.3
CS_DIR="$CACHE/code-server-$CS_VERSION"

# 1. Debian packages: the browser; krb5 headers for code-server's `kerberos` native module; rg for
#    seeding @vscode/ripgrep below.
#    CHROMIUM_PATH names another Chromium or Chrome to drive instead (e.g. a CI image's Chrome).
# Exit 77 (the layer is skipped, with this message) where they cannot be installed: no apt-get, or
# neither root nor password-less sudo. CI (.ci/run) runs as root on Debian and installs them.
need=()
pkgs=(libkrb5-dev ripgrep)
if [ -z "${CHROMIUM_PATH:-}" ]; then pkgs+=(chromium); fi
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if ((${#need[@]})); then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo
    else echo "setup: needs the Debian packages ${need[*]} (apt-get install ${need[*]}; CHROMIUM_PATH may name another Chromium), and this user is not root and has no sudo" >&2; exit 77; fi
  fi
  command -v apt-get >/dev/null || { echo "setup: needs the Debian packages ${need[*]} (or CHROMIUM_PATH, krb5 headers and rg), and there is no apt-get here" >&2; exit 77; }
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$BROWSER" ] || { echo "setup: no browser at $BROWSER" >&2; exit 1; }

# 2. @vscode/ripgrep's postinstall downloads rg from GitHub, which may be unreachable. It looks first
#    in $TMPDIR/vscode-ripgrep-cache-<ver>/<asset>: seed that with Debian's rg.
RG_CACHE="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE"
if [ ! -s "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" ]; then
  tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
fi

# 3. code-server. Its postinstall runs `npm install` in lib/vscode, building native modules.
#    npm_config_unsafe_perm=true: the postinstall refuses root otherwise.
#    npm_config_yes=true: node-pty's install calls `npx node-gyp`, which aborts without a TTY otherwise.
if [ ! -e "$CS_DIR/node_modules/code-server/lib/vscode/out/server-main.js" ] \
   || [ ! -e "$CS_DIR/node_modules/code-server/lib/vscode/node_modules/node-pty/build/Release/pty.node" ]; then
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR" && echo '{"private":true}' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true \
     npm install --no-audit --no-fund "code-server@$CS_VERSION")
fi
for f in lib/vscode/out/server-main.js lib/vscode/node_modules/node-pty/build/Release/pty.node out/node/entry.js; do
  [ -e "$CS_DIR/node_modules/code-server/$f" ] || { echo "setup: code-server install is incomplete: $f missing" >&2; exit 1; }
done
echo "setup ok: code-server $(node -p "require('$CS_DIR/node_modules/code-server/package.json').version") in $CS_DIR"
