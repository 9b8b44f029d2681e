"""The web side: /healthz and /metrics (`server`), the door's caps and time limits (`gate`), the
match, replay, player and tournament pages (`pages`), with their templates and static files.
`python -m bot.web` serves the pages as a process of its own, beside the bot."""
