#!/usr/bin/env bash
# Editor end-to-end tests in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) on 127.0.0.1,
# driven by headless Debian Chromium. Checks, each counted:
#   setup                 the machine has what this layer needs (scripts/e2e/setup.sh)
#   vsix-install          the packaged .vsix installs into VS Code 1.100
#   screenshots           the installed extension flags a poisoned tool file in the editor and the
#                         Problems panel, and renders the suite report; PNGs land in test-results/
#   extension tests       mocha inside the real extension host (each test counted), in the fixture
#                         suite and in a folder without LITMUS files (no activation on plain JSONC)
#   forced-failure        a deliberately failing run is reported as failing
# Ends with one "N passed, N failed" line. Every step is bounded by a timeout.
# Env: LITMUS_CACHE (code-server cache), KEEP_STATE=1 (keep the temp folder), LITMUS_E2E_SKIP_FORCED=1,
# LITMUS_REQUIRE_LAYERS=1 (CI: a machine that cannot install what this layer needs fails instead of skipping).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${LITMUS_CACHE:-$HOME/.cache/litmus-lint}"
CS="$CACHE/code-server-4.100.3/node_modules/code-server/out/node/entry.js"
pass=0 fail=0 skipped=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

cd "$ROOT"
timeout 900 bash scripts/e2e/setup.sh >/tmp/litmus-e2e-setup.log 2>&1
case $? in
  0) ok setup ;;
  77) # What this machine lacks, said plainly; CI sets LITMUS_REQUIRE_LAYERS=1, where that fails.
      echo "SKIP editor end-to-end tests: $(tail -1 /tmp/litmus-e2e-setup.log)"
      if [ "${LITMUS_REQUIRE_LAYERS:-}" = 1 ]; then ko "setup (LITMUS_REQUIRE_LAYERS=1)"; fi
      finish ;;
  *) tail -20 /tmp/litmus-e2e-setup.log; ko "setup (see /tmp/litmus-e2e-setup.log)"; finish ;;
esac

ST="$(mktemp -d /tmp/litmus-e2e.XXXXXX)"
echo "state dir: $ST"
# Build what runs: the bundles and the compiled extension-host suite (tsc still emits when files
# elsewhere in the tree have type errors; the suite's own files must exist).
node scripts/build.mjs >"$ST/build.log" 2>&1 || { cat "$ST/build.log"; ko build; finish; }
npx tsc -p . >"$ST/tsc.log" 2>&1
[ -e out/test/e2e/suite/index.js ] || { cat "$ST/tsc.log"; ko "compile e2e suite"; finish; }

mkdir -p "$ST/tmp" "$ST/shots" test-results
cp -r test/e2e/fixtures/suite "$ST/ws-suite"
cp -r examples "$ST/ws-examples"
# Keep code-server's config, data and the gallery out of the picture; the extension host and the
# git extension drop sockets in TMPDIR.
export XDG_CONFIG_HOME="$ST/xdg-config" XDG_DATA_HOME="$ST/xdg-data" EXTENSIONS_GALLERY='{}' TMPDIR="$ST/tmp"
export LITMUS_E2E_FORCE_FAIL="$ST/force-fail"   # read by the extension-host suite
CS_ARGS=(--config "$ST/config.yaml" --user-data-dir "$ST/user" --extensions-dir "$ST/ext")

if timeout 120 node node_modules/@vscode/vsce/vsce package --no-dependencies -o "$ST/litmus-lint.vsix" >"$ST/vsce.log" 2>&1 \
   && timeout 120 node "$CS" "${CS_ARGS[@]}" --install-extension "$ST/litmus-lint.vsix" >"$ST/install.log" 2>&1 \
   && ls "$ST/ext" | grep -q '^litmus-lint\.litmus-lint-'; then ok vsix-install
else cat "$ST/vsce.log" "$ST/install.log" 2>/dev/null | tail -20; ko vsix-install; fi

PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
URL="http://127.0.0.1:$PORT"
# setsid: its own process group, so the trap also ends extension hosts, watchers and language servers.
setsid node "$CS" "${CS_ARGS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry \
  --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --ignore-last-opened >"$ST/code-server.log" 2>&1 &
CS_PID=$!
cleanup() { kill -- -"$CS_PID" 2>/dev/null || true; }
trap cleanup EXIT
up=0
for _ in $(seq 150); do curl -sf -o /dev/null "$URL/healthz" && { up=1; break; }; sleep 0.2; done
if [ "$up" -ne 1 ]; then tail -20 "$ST/code-server.log"; ko "code-server start"; finish; fi
echo "code-server $URL (pid $CS_PID)"

# 1) The installed .vsix in the real workbench: poisoned tool file, Problems panel, PNGs.
POISONED="$ST/ws-examples/tools/mail.tools.json"
# line:column of the first payload that tells the agent to ignore its instructions
AT="$(node -e 'const l=require("fs").readFileSync(process.argv[1],"utf8").split(/\r?\n/);const i=l.findIndex(x=>/ignore all previous/i.test(x));if(i>=0)console.log(`${i+1}:${l[i].search(/ignore all previous/i)+1}`)' "$POISONED")"
if timeout 240 node scripts/e2e/screenshots.mjs "$URL" "$ST/ws-examples" "$POISONED" "$ST/shots" $AT; then
  ok screenshots; cp "$ST"/shots/*.png test-results/ 2>/dev/null || true
  echo "screenshots: $(ls test-results/*.png 2>/dev/null | tr '\n' ' ')"
else cp "$ST"/shots/*.png test-results/ 2>/dev/null || true; ko screenshots; fi

# 2) The extension-host suite (development path: this checkout, as built above). A window's
#    hot-exit backups would come back dirty in the next window, where VS Code then refuses to write
#    user settings: every run starts without them.
rm -rf "$ST/user/User/Backups"
T=(node scripts/e2e/test-host.mjs "$URL" "$ST/ws-suite" "$ROOT" "$ROOT/out/test/e2e/suite/index.js")
timeout 300 "${T[@]}" 2>&1 | tee "$ST/exthost.log"
host=${PIPESTATUS[0]}
result="$(grep -o 'LITMUS-E2E-RESULT passes=[0-9]* failures=[0-9]* pending=[0-9]*' "$ST/exthost.log" | tail -1)"
if [ -n "$result" ]; then
  read -r p f s < <(echo "$result" | sed -E 's/.*passes=([0-9]+) failures=([0-9]+) pending=([0-9]+)/\1 \2 \3/')
  pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + s))
  # Mocha said all passed but the host reported failure (or the other way round): count it.
  if [ "$f" -eq 0 ] && [ "$host" -ne 0 ]; then ko "extension host exit code $host"; fi
else
  ko "extension tests did not report (exit $host)"
fi

# 2b) A folder without LITMUS files: opening a plain .jsonc file must not activate the extension.
cp -r test/e2e/fixtures/plain "$ST/ws-plain"
rm -rf "$ST/user/User/Backups"
P=(node scripts/e2e/test-host.mjs "$URL" "$ST/ws-plain" "$ROOT" "$ROOT/out/test/e2e/suite/index.js")
timeout 300 "${P[@]}" 2>&1 | tee "$ST/exthost-plain.log"
host=${PIPESTATUS[0]}
result="$(grep -o 'LITMUS-E2E-RESULT passes=[0-9]* failures=[0-9]* pending=[0-9]*' "$ST/exthost-plain.log" | tail -1)"
if [ -n "$result" ]; then
  read -r p f s < <(echo "$result" | sed -E 's/.*passes=([0-9]+) failures=([0-9]+) pending=([0-9]+)/\1 \2 \3/')
  pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + s))
  if [ "$f" -eq 0 ] && [ "$host" -ne 0 ]; then ko "plain-folder extension host exit code $host"; fi
else
  ko "plain-folder extension tests did not report (exit $host)"
fi

# 3) The runner must see failures: the same suite with one test forced to fail exits non-zero.
if [ -z "${LITMUS_E2E_SKIP_FORCED:-}" ]; then
  touch "$LITMUS_E2E_FORCE_FAIL"
  # A fresh copy: the first run's fixes changed its workspace; its backups go as above.
  cp -r test/e2e/fixtures/suite "$ST/ws-forced"
  rm -rf "$ST/user/User/Backups"
  T[3]="$ST/ws-forced"
  if timeout 300 "${T[@]}" >"$ST/forced.log" 2>&1; then ko forced-failure-detected
  else grep -q 'failures=1 ' "$ST/forced.log" && ok forced-failure-detected || { tail -20 "$ST/forced.log"; ko forced-failure-detected; }; fi
  rm -f "$LITMUS_E2E_FORCE_FAIL"
fi

cleanup; trap - EXIT
[ "$skipped" -gt 0 ] && echo "($skipped extension tests pending: a rule they need is not registered)"
if [ "$fail" -eq 0 ] && [ -z "${KEEP_STATE:-}" ]; then rm -rf "$ST"; else echo "logs kept in $ST"; fi
finish
