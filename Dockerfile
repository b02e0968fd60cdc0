# NovaMart for OpenEnv 0.10's runtime container and a Hugging Face Space (README front matter:
# sdk: docker, app_port: 8000). Two stages: `build` holds the C toolchain durable-rules compiles
# with and installs what uv.lock pins through scripts/install.sh (the same path as `make` and
# CI); the final stage is the base image plus /app, copied over, and runs nothing at build
# time, so no toolchain, cache or /tmp residue reaches it. At run time it writes only under
# /tmp: it serves under a plain `docker run`, under OpenEnv's validator settings (uid 65532,
# read-only root, a /tmp tmpfs) and as a Space (uid 1000). `make test-container` checks all
# three on the built image; tests/server/test_container.py checks this file without an engine.
#
# BASE is python:3.11-slim pinned by digest (the multi-platform index; at this digest the tag
# was Python 3.11.16 on Debian trixie). Where it came from: the public registry cannot be
# reached from the machine this was written on, so the digest was NOT pulled or verified
# here; it is the one a dozen recent public Dockerfiles pin for python:3.11-slim, one of them
# listing it as python:3.11.16-slim-trixie. Re-pin with `docker pull python:3.11-slim` and
# `docker inspect --format '{{index .RepoDigests 0}}' python:3.11-slim`. Where the registry is
# unreachable, `make test-container` builds on a stand-in instead (--build-arg BASE=...): Debian
# bookworm's Python 3.11 bootstrapped from Debian's archive (scripts/container-base.sh), and
# says so; the image it checks is then this file on that base, not on the pinned one.
ARG BASE=python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7

FROM ${BASE} AS build

# durable-rules builds from source: a C/C++ toolchain (Python headers come with the image).
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*

# Temporary files of the install go to /build, never /tmp; caches stay in this stage's /root.
# uv trusts the system's certificate store, as pip does (where a build goes through a proxy
# that re-signs TLS, that store holds its CA).
ENV TMPDIR=/build \
    PIP_NO_CACHE_DIR=1 \
    UV_SYSTEM_CERTS=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    VENV=/app/.venv
WORKDIR /app

# Dependencies first (a layer that survives source edits), then the project itself.
COPY pyproject.toml uv.lock README.md ./
COPY scripts/install.sh scripts/install.sh
RUN mkdir -p /build \
    && NOVAMART_INSTALL_FLAGS="--no-dev --no-install-project" sh scripts/install.sh
COPY . .
# uv is an installer and the egg-info a build by-product, not part of what is served; everyone
# may read /app, whatever the umask of the checkout it came from (the runtime user owns
# nothing and writes nothing there).
RUN NOVAMART_INSTALL_FLAGS="--no-dev" sh scripts/install.sh \
    && "$VENV/bin/python" -m pip uninstall --yes --quiet uv \
    && rm -rf /app/*.egg-info \
    && chmod -R a+rX /app

FROM ${BASE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/app/.venv/bin:$PATH \
    PORT=8000 \
    GRADIO_ANALYTICS_ENABLED=False \
    HF_HUB_OFFLINE=1 \
    HOME=/tmp/novamart \
    XDG_CACHE_HOME=/tmp/novamart/cache \
    MPLCONFIGDIR=/tmp/novamart/matplotlib \
    GRADIO_TEMP_DIR=/tmp/novamart/gradio

# Built as root, owned by root, readable by everyone: the runtime user writes nothing here.
COPY --from=build /app /app
WORKDIR /app

# OpenEnv's runtime user (a Space runs the image as uid 1000: nothing depends on which).
USER 65532:65532

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/health\", timeout=4)"]
# `novamart serve` reads PORT, WORKERS and the other settings from the environment (README).
CMD ["novamart", "serve", "--host", "0.0.0.0", "--web"]
