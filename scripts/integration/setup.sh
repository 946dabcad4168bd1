#!/usr/bin/env bash
# Installs the Debian packages an integration layer needs (idempotent), as root or with sudo:
#   pre-commit  the pre-commit hook layer (Debian's pre-commit, 3.0.4 on bookworm)
#   neovim      the Neovim layer (Debian's nvim, 0.7.2 on bookworm)
#   emacs       the Emacs layer (Debian's emacs-nox, 28 on bookworm)
# Exit 0: all there. Exit 77: they cannot be installed here (no apt-get, or neither root nor sudo);
# the message says what is missing, and the layer is skipped.
set -uo pipefail
declare -A PKG=([pre-commit]="pre-commit git" [neovim]="neovim" [emacs]="emacs-nox elpa-eglot")
declare -A CMD=([pre-commit]="pre-commit" [neovim]="nvim" [emacs]="emacs")
need=()
for layer in "$@"; do
  [ -n "${PKG[$layer]:-}" ] || { echo "setup: unknown layer $layer" >&2; exit 2; }
  command -v "${CMD[$layer]}" >/dev/null && continue
  for p in ${PKG[$layer]}; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
done
((${#need[@]})) || exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo
  else echo "needs the Debian packages ${need[*]} (apt-get install ${need[*]}), and this user is not root and has no sudo" >&2; exit 77; fi
fi
command -v apt-get >/dev/null || { echo "needs the Debian packages ${need[*]} (or their equivalents on the PATH), and there is no apt-get here" >&2; exit 77; }
$SUDO apt-get update -q >&2 || { echo "apt-get update failed: cannot install ${need[*]}" >&2; exit 77; }
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}" >&2 \
  || { echo "apt-get install ${need[*]} failed" >&2; exit 1; }
