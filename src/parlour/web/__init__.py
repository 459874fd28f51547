"""The browser table: ``parlour serve`` hosts tables of all five games for people in browsers.

The server (``server.py`` puts its routers together: ``pages``, ``lobby``, ``history``, ``play``)
is the only authority: it holds each table's ``parlour.table.Table`` (``tables.py``), saves it in
the store after every action (before any browser is told of it), and sends each browser only
its own seat's view (spectators a public view, ``views.py``) with the same
sentences as line mode (``parlour.text``).
Table events go through one small publish/subscribe interface (``pubsub.py``), in-process now.
The page is static HTML, CSS and ES modules in ``static/`` (package data, no build step).
"""
