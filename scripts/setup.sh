#!/usr/bin/env bash
# Set up a clone for the tests and the main job: pnpm, the locked dependencies, the build, Debian's
# Chromium (headless; the HTML report and heatmap tests render pages with it) and Debian's redis-server
# (the job-queue tests). README's install line and
# .ci/run both call this script. Re-running it is safe.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pnpm >/dev/null 2>&1; then
  echo "setup: installing pnpm 10 (npm i -g pnpm@10)" >&2
  npm i -g pnpm@10
fi

if [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-browser ]; then
  :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Chromium (apt-get install -y chromium) for the HTML report tests" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  cat >&2 <<'MSG'
setup: Chromium is missing, and this script can only install it as root on Debian/Ubuntu.
       The report and heatmap tests need /usr/bin/chromium; everything else works without it.
       Install it with:  sudo apt-get install -y chromium   (then run pnpm test)
MSG
fi

# Redis for the job queue (npov eval/check-batch --queue, npov worker); the queue tests start their own
# redis-server on a free loopback port and fail (never skip) without it.
if command -v redis-server >/dev/null 2>&1; then
  :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Redis (apt-get install -y redis-server) for the job-queue tests" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
else
  cat >&2 <<'MSG'
setup: redis-server is missing, and this script can only install it as root on Debian/Ubuntu.
       The job-queue tests (packages/queue, packages/cli/test/queue.test.ts) need it; nothing else does.
       Install it with:  sudo apt-get install -y redis-server   (then run pnpm test)
MSG
fi

pnpm install --frozen-lockfile
pnpm build
echo "setup: done. Try: pnpm demo; pnpm --silent npov --help; pnpm test" >&2
