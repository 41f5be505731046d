"""The application's routes: one ``APIRouter`` per concern, wired by ``create_app``.

``pages`` (the lobby, table and replay pages, the rules pages), ``cards`` (card art, the
cards, the variants and bots, the card rules), ``tables`` (the lobby's list and the
tables' REST API), ``games`` (replays and reviews) and ``play`` (the WebSocket); ``deps``
holds what they share.
"""
