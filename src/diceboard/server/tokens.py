"""Secrets: seat tokens, invite codes, game ids and seeds.

A seat token is 192 random bits, shown once to its player and stored only as a SHA-256 hash,
so a copy of the database cannot act for anyone. A rematch token is derived from the player's
current token with HMAC, so the server can hand it out again to the same player (and only to
them) without storing it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (in constant time)."""
    return same_digest(token_hash(token), stored)


def same_digest(hashed: str, stored: str | None) -> bool:
    """Whether the token hash ``hashed`` is ``stored`` (in constant time)."""
    return stored is not None and hmac.compare_digest(hashed, stored)


def derived_token(token: str, label: str) -> str:
    """A token that only the holder of ``token`` can obtain, bound to ``label``."""
    digest = hmac.new(token.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


def new_game_id() -> str:
    """A short public game id (64 random bits, URL-safe)."""
    return secrets.token_urlsafe(8)


def new_invite_code() -> str:
    """The code in an invite link that lets one person take the open seat."""
    return secrets.token_urlsafe(12)


def new_seed() -> int:
    """A secret per-game seed for the server's dice rolls."""
    return secrets.randbits(62)
