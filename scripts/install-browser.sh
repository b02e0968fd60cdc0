#!/usr/bin/env sh
# Debian's chromium for the browser test (playwright drives it; it downloads no browser of
# its own). Shared by `make test` and .ci/run; does nothing when chromium is present.
set -eu
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "The browser test needs Debian's chromium: run 'apt-get install chromium' as root." >&2
    exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
