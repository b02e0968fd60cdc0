#!/usr/bin/env sh
# A stand-in for python:3.11-slim, for `make test-container` where the public image registry
# cannot be reached: Debian bookworm bootstrapped from Debian's archive with debootstrap,
# carrying Python 3.11 with venv and headers, as the slim image does, and no compiler, as it
# has none. It is not the slim image: that one is Python 3.11 built from source (3.11.16 at
# the digest the Dockerfile pins) on Debian trixie, whose archive has no Python 3.11; this is
# bookworm's packaged 3.11 (3.11.2). The Dockerfile runs on either. The machine's CA bundle
# goes in too, so that the build stage trusts what the machine trusts when it fetches packages.
#
#   usage: scripts/container-base.sh ENGINE TAG     (needs root and debootstrap)
set -eu
ENGINE="$1"
TAG="$2"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
WORK="artifacts/container/base"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"

command -v debootstrap >/dev/null \
    || { echo "container-base: needs debootstrap (apt-get install --no-install-recommends debootstrap)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "container-base: needs root (debootstrap)" >&2; exit 1; }
started=$(date +%s)
rm -rf "$WORK"
trap 'rm -rf "$WORK"' EXIT  # the root file system (~250 MB) never outlives the script
mkdir -p "$WORK"
echo "container-base: debootstrap bookworm from $MIRROR (about 2 minutes)"
debootstrap --variant=minbase --include=python3.11,python3.11-venv,python3-distutils,python3.11-dev,ca-certificates \
    bookworm "$WORK/rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log"; exit 1; }
root="$WORK/rootfs"
ln -sf python3.11 "$root/usr/bin/python3"
ln -sf python3.11 "$root/usr/bin/python"
if [ -f "$CA_BUNDLE" ]; then
    cp "$CA_BUNDLE" "$root/etc/ssl/certs/ca-certificates.crt"
fi
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/var/cache/apt/archives/"*.deb \
    "$root/tmp/"* "$root/var/log/"*
tar -C "$root" --numeric-owner -c . | "$ENGINE" import \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["python3"]' \
    - "$TAG" >/dev/null
echo "container-base: $TAG built in $(( $(date +%s) - started )) s"
