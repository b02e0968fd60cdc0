"""Shim at the path OpenEnv tooling expects (`server.app:app`); the app is novamart.server.app."""

from novamart.server.app import app
from novamart.server.app import main as serve_main

__all__ = ["app", "main"]


def main() -> None:
    """Serve NovaMart on HOST:PORT (see novamart.server.app for the settings)."""
    serve_main()


if __name__ == "__main__":
    main()
