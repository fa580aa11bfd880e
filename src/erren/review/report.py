"""A :class:`~erren.review.model.GameReview` for people: a text table per hand
(:func:`text_report`) and one self-contained HTML page (:func:`html_report`: inline style, no
external asset)."""

from __future__ import annotations

import html

from erren.review.model import Decision, GameReview, HandReview, Summary

__all__ = ["html_report", "text_report"]


def _ev(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


def _row(d: Decision) -> tuple[str, ...]:
    return (
        str(d.step),
        d.category.value,
        d.player.text,
        d.bot.text,
        _ev(d.ev_player),
        _ev(d.ev_bot),
        f"{d.loss:.2f}",
        "BAD" if d.bad else ("=" if d.matches else ""),
    )


_HEAD = ("step", "category", "player", "bot", "ev player", "ev bot", "loss", "")


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in [_HEAD, *rows]) for i in range(len(_HEAD))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [_HEAD, *rows]
    ]


def _summary_line(s: Summary) -> str:
    return (
        f"decisions {s.decisions}, match {s.matches}/{s.decisions} ({s.match_rate:.0%}), "
        f"bad {s.bad} ({s.bad_rate:.0%}), expected loss {s.loss:.2f}"
    )


def _costliest(decisions: list[Decision]) -> list[str]:
    if not decisions:
        return ["  costliest: none (no decision lost points)"]
    return [
        f"  costliest: step {d.step} {d.category.value}: {d.player.text} for {d.bot.text}, "
        f"loss {d.loss:.2f}"
        for d in decisions
    ]


def _hand_text(h: HandReview) -> list[str]:
    lines = [f"hand {h.hand + 1} ({h.ruleset}, seat {h.seat}; bad above {h.threshold:g})"]
    if h.result:
        lines.append(f"  result: {h.result}")
    rows = [_row(d) for d in h.decisions]
    lines += ["  " + line for line in _table(rows)] if rows else ["  no decision"]
    lines.append(f"  {_summary_line(h.summary)}")
    lines += _costliest(h.costliest())
    return lines


def text_report(review: GameReview) -> str:
    """The review as text: per hand a table of the decisions (the player's move, the bot's,
    both expected points, the loss, the category, ``BAD`` above the family's threshold and
    ``=`` where they agree), the hand's summary and its three costliest; then the game's."""
    lines = [f"review by {review.level} ({review.rollouts} rollouts, seed {review.seed})"]
    for h in review.hands:
        lines += ["", *_hand_text(h)]
    s = review.summary
    per_hand = s.loss / len(review.hands) if review.hands else 0.0
    lines += [
        "",
        f"game: {len(review.hands)} hands, {_summary_line(s)}, per hand {per_hand:.2f}",
        *_costliest(review.costliest()),
        "",
        f"method: {review.method}",
    ]
    return "\n".join(lines) + "\n"


_STYLE = """
body{font:15px/1.4 system-ui,sans-serif;margin:1rem;color:#222;background:#fafaf7}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-variant-numeric:tabular-nums}
th,td{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:left}
tr.bad td{background:#fde2e1}tr.match td{color:#777}
.summary{font-weight:600}.method{color:#555;font-size:13px;max-width:60rem}
"""


def _hand_html(h: HandReview) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in _HEAD)
    body = []
    for d in h.decisions:
        cls = "bad" if d.bad else ("match" if d.matches else "")
        cells = "".join(f"<td>{html.escape(c)}</td>" for c in _row(d))
        body.append(f'<tr class="{cls}">{cells}</tr>')
    costly = "".join(f"<li>{html.escape(line.strip())}</li>" for line in _costliest(h.costliest()))
    result = f"<p>{html.escape(h.result)}</p>" if h.result else ""
    return (
        f"<section><h2>Hand {h.hand + 1} · {html.escape(h.ruleset)} · seat {h.seat}</h2>"
        f"{result}<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f'<p class="summary">{html.escape(_summary_line(h.summary))}</p><ul>{costly}</ul>'
        "</section>"
    )


def html_report(review: GameReview) -> str:
    """The review as one self-contained HTML page (no script, no external asset)."""
    s = review.summary
    hands = "".join(_hand_html(h) for h in review.hands)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>erren review</title><style>{_STYLE}</style></head><body>"
        f"<h1>Review by {html.escape(review.level)}</h1>"
        f'<p class="summary">{len(review.hands)} hands, {html.escape(_summary_line(s))}</p>'
        f"{hands}"
        f'<p class="method">{html.escape(review.method)}</p></body></html>\n'
    )
