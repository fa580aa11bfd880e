"""The HTTP API's routes, by purpose: :mod:`.accounts` (sessions, beans, relief),
:mod:`.tables` (rooms, matches, tables) and :mod:`.games` (records, the
filtered history), :mod:`.reviews` (a finished hand's review),
:mod:`.profile` (a player's figures, bean history, leaderboards), :mod:`.coach`
(his error profile from the reviews of his hands), :mod:`.ranks`
(段位: rank history, seasons, rank leaderboards),
:mod:`.settings` (a registered player's settings panel), :mod:`.friends` (friends,
blocks, invites to friends), :mod:`.drills` (何切る puzzles).  The shared
pieces (errors with a ``code``, strict JSON bodies, the current user) are in :mod:`.common`.
The browser client's page, files and replay frames are mounted by :mod:`.web` (with
:mod:`.replay`); a family's own routes (arcade's campaign) by the app, from the family's
``server_extension`` (:mod:`erren.server.extension`)."""

from __future__ import annotations

from fastapi import APIRouter

from erren.server.routes import (
    accounts,
    coach,
    drills,
    friends,
    games,
    profile,
    ranks,
    reviews,
    settings,
    tables,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    accounts.router,
    tables.router,
    games.router,
    reviews.router,
    profile.router,
    coach.router,
    ranks.router,
    settings.router,
    friends.router,
    drills.router,
)
