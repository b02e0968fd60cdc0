#!/usr/bin/env sh
# The one install path shared by the Makefile, CI and the Dockerfile: a virtual environment
# at $VENV (default .venv) holding exactly what uv.lock pins. Needs only python3 and pip,
# plus a C compiler and Python headers, because durable-rules builds from source. It says
# what it does and how long it took: the first run downloads and builds for about a minute.
set -eu
VENV="${VENV:-.venv}"
GROUPS_FLAG="${NOVAMART_INSTALL_FLAGS:---group dev}"
UV_VERSION="0.13.9"

started=$(date +%s)
echo "install: $VENV from uv.lock ($GROUPS_FLAG); the first run takes about a minute"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if [ ! -x "$VENV/bin/uv" ]; then
    echo "install: uv $UV_VERSION into $VENV (pip)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
fi
# shellcheck disable=SC2086
UV_PROJECT_ENVIRONMENT="$VENV" UV_COMPILE_BYTECODE=1 "$VENV/bin/uv" sync --frozen $GROUPS_FLAG
echo "install: $VENV ready in $(( $(date +%s) - started )) s"
