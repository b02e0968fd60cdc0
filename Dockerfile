# NovaMart for OpenEnv 0.10's runtime container and a Hugging Face Space (README front matter:
# sdk: docker, app_port: 8000). Installs what uv.lock pins through scripts/install.sh, the same
# path as `make` and CI. At run time the image needs no writable path but /tmp: OpenEnv's
# validator runs it as uid 65532 on a read-only root with a /tmp tmpfs, and wants /health
# within 30 s (tests/server/test_container.py starts the server the way this file says).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VENV=/app/.venv \
    HOST=0.0.0.0 \
    PORT=8000 \
    ENABLE_WEB_INTERFACE=true \
    GRADIO_ANALYTICS_ENABLED=False \
    HF_HUB_OFFLINE=1 \
    HOME=/tmp/novamart \
    XDG_CACHE_HOME=/tmp/novamart/cache \
    MPLCONFIGDIR=/tmp/novamart/matplotlib \
    GRADIO_TEMP_DIR=/tmp/novamart/gradio

# durable-rules builds from source: a C/C++ toolchain (Python headers come with the image).
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*

# Built as root, owned by root, readable by everyone: the runtime user writes nothing here.
WORKDIR /app

# Dependencies first (a layer that survives source edits), then the project itself.
COPY pyproject.toml uv.lock README.md ./
COPY scripts/install.sh scripts/install.sh
RUN NOVAMART_INSTALL_FLAGS="--no-dev --no-install-project" sh scripts/install.sh
COPY . .
RUN NOVAMART_INSTALL_FLAGS="--no-dev" sh scripts/install.sh && chmod -R a+rX /app

# OpenEnv's runtime user (a Space may run the image as uid 1000: nothing depends on which).
USER 65532:65532

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/.venv/bin/python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/health\", timeout=4)"]
CMD ["/app/.venv/bin/python", "-m", "server.app"]
