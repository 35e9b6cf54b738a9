"""``phase10 serve``: play Phase 10 in a browser against any agent, watch bots play, step through
a saved game. Needs the ``web`` extra (Starlette, uvicorn); nothing outside this package imports
them, so ``import agents`` works without it."""
