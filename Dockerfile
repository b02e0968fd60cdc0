# NovaMart for a Hugging Face Space (README front matter: sdk: docker, app_port: 8000).
# Installs what uv.lock pins through scripts/install.sh, the same path as `make` and CI.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    VENV=/app/.venv \
    HOST=0.0.0.0 \
    PORT=8000 \
    ENABLE_WEB_INTERFACE=true \
    GRADIO_ANALYTICS_ENABLED=False

# durable-rules builds from source: a C/C++ toolchain (Python headers come with the image).
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*

# Spaces run the container as uid 1000.
RUN useradd --create-home --uid 1000 novamart && mkdir /app && chown novamart:novamart /app
USER novamart
WORKDIR /app

# Dependencies first (a layer that survives source edits), then the project itself.
COPY --chown=novamart:novamart pyproject.toml uv.lock README.md ./
COPY --chown=novamart:novamart scripts/install.sh scripts/install.sh
RUN NOVAMART_INSTALL_FLAGS="--no-dev --no-install-project" sh scripts/install.sh
COPY --chown=novamart:novamart . .
RUN NOVAMART_INSTALL_FLAGS="--no-dev" sh scripts/install.sh

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/.venv/bin/python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/health\", timeout=4)"]
CMD ["/app/.venv/bin/python", "-m", "server.app"]
