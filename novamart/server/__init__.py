"""The OpenEnv server side: the environment class and the FastAPI app."""
