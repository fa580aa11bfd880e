"""The HTTP API's routes, by purpose: :mod:`.accounts` (sessions, beans, relief),
:mod:`.tables` (rooms, matches, tables) and :mod:`.games` (records, the
filtered history), :mod:`.profile` (a player's figures, bean history, leaderboards), :mod:`.ranks`
(段位: rank history, seasons, rank leaderboards),
:mod:`.settings` (a registered player's settings panel), :mod:`.friends` (friends,
blocks, invites to friends).  The shared
pieces (errors with a ``code``, strict JSON bodies, the current user) are in :mod:`.common`.
The browser client's page, files and replay frames are mounted by :mod:`.web` (with
:mod:`.replay`); a family's own routes (arcade's campaign) by the app, from the family's
``server_extension`` (:mod:`erren.server.extension`)."""

from __future__ import annotations

from fastapi import APIRouter

from erren.server.routes import accounts, friends, games, profile, ranks, settings, tables

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    accounts.router,
    tables.router,
    games.router,
    profile.router,
    ranks.router,
    settings.router,
    friends.router,
)
