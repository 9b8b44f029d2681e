"""`python -m bot.web`: the pages as a process of their own (see `bot.web.server.serve`)."""

from .server import main

main()
