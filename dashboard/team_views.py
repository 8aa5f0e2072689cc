"""The timekeeper's board of a team match as HTML: the clock with its stops, the period, each team's score,
fouls of the half (the fifth and the sixth on standing out), time-outs left and send-off timers, the restart
due with its four-second count, a time-out's minute running.

Layout only, from ``dashboard.session.DeskState``; the class names are what the browser test looks for.
"""

from __future__ import annotations

from html import escape

from dashboard.session import DeskState, TeamRow

TEAM_CSS = """
<style>
.arbiter-desk { display: flex; gap: 12px; flex-wrap: wrap; align-items: stretch; margin: 4px 0 8px; }
.arbiter-clock { border: 2px solid #223; border-radius: 8px; padding: 6px 16px; min-width: 170px; }
.arbiter-clock .time { font-size: 40px; font-weight: 700; font-variant-numeric: tabular-nums; }
.arbiter-clock.stopped .time { color: #b00020; }
.arbiter-clock .sub { font-size: 13px; color: #445; }
.arbiter-team { border: 1px solid #d0d7de; border-radius: 8px; padding: 6px 14px; min-width: 170px; }
.arbiter-team .name { font-size: 14px; color: #445; }
.arbiter-team .score { font-size: 38px; font-weight: 700; font-variant-numeric: tabular-nums; }
.arbiter-team .fouls { font-size: 15px; padding: 1px 6px; border-radius: 4px; display: inline-block; }
.arbiter-team .fouls.fifth { background: #ffe8a3; font-weight: 700; }
.arbiter-team .fouls.sixth { background: #d7263d; color: #fff; font-weight: 700; }
.arbiter-team .sendoff { color: #b00020; font-weight: 700; font-variant-numeric: tabular-nums; }
.arbiter-due { font-size: 15px; margin: 2px 0 6px; }
.arbiter-due .count { font-weight: 700; font-variant-numeric: tabular-nums; }
.arbiter-due .count.late { color: #fff; background: #d7263d; padding: 0 6px; border-radius: 4px; }
.arbiter-stops { font-size: 12px; color: #556; }
</style>
"""
FOUR_S = 4.0


def _team_html(row: TeamRow, winner: str | None) -> str:
    by_half = ", ".join(f"P{p}: {n}" for p, n in row.fouls_by_period)
    parts = [
        f'<div class="name">{escape(row.team)}{" (winner)" if winner == row.team else ""}</div>',
        f'<div class="score">{row.score}</div>',
    ]
    if row.fouls is not None:
        parts.append(
            f'<div><span class="fouls {row.foul_level}" data-fouls="{row.fouls}">fouls this half: '
            f"{row.fouls}</span></div>"
        )
    if by_half and row.fouls is not None:
        parts.append(f'<div class="sub">fouls by period: {escape(by_half)}</div>')
    if row.timeouts_left is not None:
        asked = " (asked)" if row.timeout_asked else ""
        parts.append(f'<div class="timeouts">time-outs left: {row.timeouts_left}{asked}</div>')
    if row.on_court is not None:
        parts.append(f'<div class="sub">on court: {row.on_court}</div>')
    for player, left in row.send_offs:
        parts.append(f'<div class="sendoff">{escape(player)} off, team short: {escape(left)}</div>')
    return f'<div class="arbiter-team" data-team="{escape(row.team)}">{"".join(parts)}</div>'


def _due_html(state: DeskState) -> str:
    bits = []
    if state.over:
        bits.append(f"Over: {state.winner} wins" if state.winner else "Over: a draw")
    elif state.running:
        bits.append("ball in play")
    elif state.due:
        bits.append(f"due: {escape(state.due)}")
    if state.timeout_left_s is not None:
        bits.append(f'<span class="timeout-run">time-out: {state.timeout_left_s:.0f} s left</span>')
    if state.four_seconds is not None:
        late = " late" if state.four_seconds > FOUR_S else ""
        bits.append(f'four seconds: <span class="count{late}">{state.four_seconds:.1f}</span>')
    return f'<div class="arbiter-due">{" · ".join(bits)}</div>'


def team_board_html(state: DeskState, stops: int = 6) -> str:
    """The desk's board: the clock, each team, what is due; the last ``stops`` stops of the clock."""
    clock_cls = "arbiter-clock" + ("" if state.running else " stopped")
    clock = (
        f'<div class="{clock_cls}"><div class="time">{state.clock}</div>'
        f'<div class="sub">period {state.period} · {state.remaining} left · '
        f"{'running' if state.running else 'stopped'}</div></div>"
    )
    teams = "".join(_team_html(row, state.winner) for row in state.teams)
    shown = "; ".join(state.stops[:stops]) or "none yet"
    return (
        f'<div class="arbiter-desk">{clock}{teams}</div>{_due_html(state)}'
        f'<div class="arbiter-stops">clock stops (latest first): {escape(shown)}</div>'
    )
