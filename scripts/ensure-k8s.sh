#!/usr/bin/env bash
# Build-or-reuse the embedded control plane (Kubernetes 1.20.2 from Debian's source package, etcd
# from Debian). Every step is skipped when its output already exists, so only the first run pays.
# Prints one "[k8s] step" line per step; on failure names the step and shows its log tail.
set -euo pipefail
VERSION=1.20.2
CACHE="${ROLLOUT_TRACE_CACHE:-$HOME/.cache/rollout-trace}"
BIN="$CACHE/k8s-v$VERSION"
WORK="$CACHE/build"
LOG="$CACHE/build.log"
mkdir -p "$CACHE"
# One build at a time: a second `npm test` (another checkout, a parallel CI job) waits for the first.
exec 9>"$CACHE/.lock"
flock 9
: >"$LOG"

step() { echo "[k8s] $*"; }
fail() {
  echo "[k8s] step failed: $1 (log: $LOG)" >&2
  tail -n 25 "$LOG" >&2 || true
  exit 1
}
run() { # run STEP-NAME CMD...
  local name=$1; shift
  "$@" >>"$LOG" 2>&1 || fail "$name"
}
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

need_pkgs=()
command -v etcd >/dev/null 2>&1 || need_pkgs+=(etcd-server)
# `script` (a pseudo-terminal for the CLI's terminal tests: 0 columns, signals).
command -v script >/dev/null 2>&1 || need_pkgs+=(bsdutils)
# Headless Chromium, for the HTML report's browser test (test/integration/report/).
[ -x /usr/bin/chromium ] || need_pkgs+=(chromium)
have_all_bins=1
for b in kube-apiserver kube-controller-manager kube-scheduler; do [ -x "$BIN/$b" ] || have_all_bins=0; done
if [ $have_all_bins = 0 ]; then
  command -v go >/dev/null 2>&1 || need_pkgs+=(golang-go)
  [ -d /usr/share/gocode/src/github.com/modern-go/reflect2 ] || need_pkgs+=(golang-github-modern-go-reflect2-dev)
  command -v rsync >/dev/null 2>&1 || need_pkgs+=(rsync)
fi

if [ ${#need_pkgs[@]} -gt 0 ]; then
  step "installing Debian packages: ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  run "apt-get update" $SUDO apt-get update
  run "apt-get install ${need_pkgs[*]}" $SUDO apt-get install -y --no-install-recommends "${need_pkgs[@]}"
fi
# Debian's etcd package starts a system etcd on the default ports; we run our own instances.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet etcd 2>/dev/null; then
  $SUDO systemctl stop etcd >>"$LOG" 2>&1 || true
fi

if [ $have_all_bins = 1 ]; then
  step "binaries cached in $BIN"
  exit 0
fi

mkdir -p "$WORK"
cd "$WORK"
if ! ls kubernetes_*.orig.tar.gz >/dev/null 2>&1; then
  step "downloading the kubernetes source package (~34 MB)"
  src=/etc/apt/sources.list.d/rollout-trace-src.sources
  if [ ! -f "$src" ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $SUDO tee "$src" >/dev/null
    run "apt-get update (deb-src)" $SUDO apt-get update
  fi
  run "apt-get source kubernetes" apt-get source --download-only kubernetes
fi
SRC="$WORK/gopath/src/k8s.io/kubernetes"
if [ ! -f "$WORK/src/.extracted" ]; then
  step "extracting the source"
  rm -rf "$WORK/src"; mkdir -p "$WORK/src"
  run "extract" tar -xzf "$(ls kubernetes_*.orig.tar.gz | head -1)" -C "$WORK/src" --strip-components=1
  # reflect2 1.0.1 crashes under Go >= 1.18 ("fatal error: fault"); Debian ships 1.0.2.
  rm -rf "$WORK/src/vendor/github.com/modern-go/reflect2"
  run "replace reflect2" cp -r /usr/share/gocode/src/github.com/modern-go/reflect2 "$WORK/src/vendor/github.com/modern-go/reflect2"
  touch "$WORK/src/.extracted"
fi
mkdir -p "$WORK/gopath/src/k8s.io"
ln -sfn "$WORK/src" "$SRC"
step "compiling kube-apiserver, kube-controller-manager, kube-scheduler (6-8 min on 2 cores the first time)"
cd "$SRC"
export GOPATH="$WORK/gopath" GO111MODULE=off CGO_ENABLED=0 GOFLAGS="" GOCACHE="$CACHE/gocache"
run "make" make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler" GOLDFLAGS="-s -w"
mkdir -p "$BIN.tmp"
for b in kube-apiserver kube-controller-manager kube-scheduler; do
  cp "$SRC/_output/bin/$b" "$BIN.tmp/$b" 2>/dev/null || cp "$SRC"/_output/local/bin/linux/amd64/$b "$BIN.tmp/$b" || fail "copy $b"
done
rm -rf "$BIN"; mv "$BIN.tmp" "$BIN"
step "binaries ready in $BIN"
