"""The page's files (HTML, CSS, ES modules) under a versioned path, so browsers may keep them.

Why a version in the path: a file under ``/static/<version>/`` never changes, so it may be
cached for a year without asking again (``Cache-Control: immutable``), and a new release or an
edited file is a new path, never a stale copy.  The version is in a folder, not a query
string, so that the ES modules' relative imports (``./cards.js``) stay under it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib.resources import files

from .. import __version__
from ..cards import card_words

STATIC = files("parlour.web") / "static"
FOREVER = "public, max-age=31536000, immutable"


@functools.cache
def version() -> str:
    """The package's version and a short hash of the static files' contents (computed once)."""
    digest = hashlib.sha256()
    for item in sorted((f for f in STATIC.iterdir() if f.is_file()), key=lambda f: f.name):
        digest.update(item.name.encode() + b"\0" + item.read_bytes() + b"\0")
    return f"{__version__}-{digest.hexdigest()[:10]}"


def prefix() -> str:
    """The versioned path of the static files, without its trailing slash."""
    return f"/static/{version()}"


@functools.cache
def page() -> bytes:
    """index.html with its ``/static/`` references on the versioned path, and how cards are written
    (``parlour.cards.card_words``) as data for its script (made once).

    Why in the page and not in a static file: the words are the Python package's, not the static
    files' (whose hash is the version), and the script needs them before it draws anything.
    """
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    words = json.dumps(card_words(), ensure_ascii=False).replace("</", "<\\/")  # no "</script>" inside
    data = f'<script type="application/json" id="card-words">{words}</script>\n'
    return html.replace('"/static/', f'"{prefix()}/').replace("</head>", data + "</head>", 1).encode("utf-8")
