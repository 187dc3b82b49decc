"""The web table (``ginnyo serve``): games in the browser against people and bots.

:mod:`.app` holds the routes, :mod:`.tables` the live games and their bots,
:mod:`.views` what a seat may see (the one place hidden information is
decided), :mod:`.preview` a placement judged as it is made, :mod:`.store` the
SQLite file every game lives in, :mod:`.requests` the reading of request
bodies and :mod:`.errors` the 4xx answers.  docs/WEB.md is the API.
"""
