"""ruamel's parser problems in a reader's words: its token names said as what they stand for.

ruamel names what it expected or found by its token's id: ``'?'`` for a key, ``<block end>``
for the end of a block, ``'<stream end>'`` for the end of the file. A user never
wrote a ``?``; the id means nothing to them. The characters a user types (``':'``,
``','``, ``']'``, ``'-'``) stay as they are.
"""

from __future__ import annotations

import re

TOKEN_WORDS = {
    "?": "a new key",
    "<block end>": "the end of a block",
    "<block mapping start>": "a mapping",
    "<block sequence start>": "a list",
    "<stream start>": "the start of the file",
    "<stream end>": "the end of the file",
    "<document start>": "the start of a document",
    "<document end>": "the end of a document ('...')",
    "<directive>": "a directive (%...)",
    "<scalar>": "a value",
    "<alias>": "an alias (*name)",
    "<anchor>": "an anchor (&name)",
    "<tag>": "a tag (!name)",
    "<comment>": "a comment",
}
"""ruamel.yaml's token ids (``ruamel.yaml.tokens``, each class's ``id``) in words."""

_TOKEN = re.compile(r"'(\?)'|'?(<[a-z ]+>)'?")
"""A quoted ``'?'``, or a ``<name>`` id, quoted or bare."""


def in_words(problem: str) -> str:
    """``problem`` (a ruamel parser's) with each token id, quoted or bare, in words.

    ``expected ',' or ']', but got '?'`` reads ``expected ',' or ']', but got a new key``;
    ``expected <block end>, but found '<stream end>'`` reads ``expected the end of a
    block, but found the end of the file``. The words are no longer than the ids they
    replace, mostly: an error line keeps its room for the path and the hint.
    """
    return _TOKEN.sub(lambda match: TOKEN_WORDS.get(match[1] or match[2], match[0]), problem)
