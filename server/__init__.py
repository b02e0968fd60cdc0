"""Top-level shim package: `openenv validate` and Spaces look for ./server/app.py."""
