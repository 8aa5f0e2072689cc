"""The page's forms for a referee rather than a programmer: a game's options as typed widgets from its own
``OptionSpec``s, and a correction as a form over the fields of the recorded line, each offered from the
game's own vocabulary (``dashboard.session.corrections``). A JSON line stays as the advanced way.

Layout only: what the widgets hold goes to ``dashboard.session`` to be checked and used.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

import streamlit as st

from arbiter.games import GameSpec, OptionKind, OptionSpec
from dashboard import session as s
from dashboard.nav import flash

FIX_OPS = {"replace": "change it", "delete": "delete it", "insert": "insert a line before it"}


# --- options ---------------------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    return (
        "not set" if value is None else json.dumps(value) if isinstance(value, list | tuple) else str(value)
    )


def _number(option: OptionSpec, default: Any, label: str, key: str, help_: str) -> Any:
    if option.kind is OptionKind.INT:
        low = int(option.minimum) if option.minimum is not None else None
        high = int(option.maximum) if option.maximum is not None else None
        return st.number_input(label, low, high, default, 1, key=key, help=help_, placeholder="not set")
    low_f = float(option.minimum) if option.minimum is not None else None
    high_f = float(option.maximum) if option.maximum is not None else None
    value = float(default) if default is not None else None
    return st.number_input(label, low_f, high_f, value, 0.5, key=key, help=help_, placeholder="not set")


def option_widget(option: OptionSpec, players: Sequence[str], key: str) -> Any:
    """One option as the widget its kind asks for, opened at the rules' default, with its help."""
    label = option.name.replace("_", " ")
    default = s.option_default(option, players)
    help_ = f"{option.help} (the rules' default: {_shown(default)})"
    match option.kind:
        case OptionKind.INT | OptionKind.NUMBER:
            return _number(option, default, label, key, help_)
        case OptionKind.BOOL:
            return st.checkbox(label, bool(default), key=key, help=help_)
        case OptionKind.CHOICE:
            return st.selectbox(label, option.choices, option.choices.index(default), key=key, help=help_)
        case OptionKind.PLAYER:
            names = list(players)
            return st.selectbox(
                label, names, names.index(default) if default in names else 0, key=key, help=help_
            )
        case OptionKind.TEXT:
            return st.text_input(label, default or "", key=key, help=help_)
    hint = _shown(default) if default is not None else "the rules' default"
    return st.text_area(label, "", key=key, help=help_, placeholder=hint, height=68)


def options_form(spec: GameSpec, players: Sequence[str]) -> dict[str, Any]:
    """The game's options, one widget each (``{name: widget value}``); ``session.options_from_form`` checks
    them and keeps what differs from the rules."""
    if not spec.options:
        st.caption(f"{spec.title} has no options")
        return {}
    return {o.name: option_widget(o, players, f"opt_{spec.id}_{o.name}") for o in spec.options}


# --- corrections -----------------------------------------------------------------------------------------


def _die_faces(f: s.LineField, key: str) -> tuple[tuple[str, int], ...]:
    cols = st.columns(max(len(f.value), 1))
    faces = list(f.choices)
    return tuple(
        (
            die,
            col.selectbox(f"die {die}", faces, faces.index(face) if face in faces else 0, key=f"{key}_{die}"),
        )
        for col, (die, face) in zip(cols, f.value, strict=False)
    )


def field_widget(f: s.LineField, key: str) -> Any:
    """One field of the line being corrected, as a widget over the game's own choices for it."""
    label = "t (seconds)" if f.name == "t" else f.name.replace("_", " ")
    match f.kind:
        case s.FieldKind.CHOICE:
            options = list(f.choices)
            return st.selectbox(label, options, options.index(f.value) if f.value in options else 0, key=key)
        case s.FieldKind.PAIR:
            left, right = st.columns(2)
            options = list(f.choices)
            first = left.selectbox(
                f"{label}: the moving ball", options, options.index(f.value[0]), key=key + "_0"
            )
            second = right.selectbox(
                f"{label}: the ball it hit", options, options.index(f.value[1]), key=key + "_1"
            )
            return (first, second)
        case s.FieldKind.SUBSET:
            return st.multiselect(label, list(f.choices), list(f.value), key=key)
        case s.FieldKind.DICE:
            return _die_faces(f, key)
        case s.FieldKind.BOOL:
            return st.checkbox(label, bool(f.value), key=key)
        case s.FieldKind.NUMBER:
            value = float(f.value) if f.value is not None else None
            return st.number_input(label, value=value, step=0.01, format="%.3f", key=key)
        case s.FieldKind.INT:
            return st.number_input(
                label, value=int(f.value) if f.value is not None else None, step=1, key=key
            )
        case s.FieldKind.JSON:
            return st.text_area(label, f.value, key=key)
    return st.text_input(label, f.value or "", key=key)


def _line_label(view: s.MatchView, at: int) -> str:
    row = next((r for r in view.rows if r.line_no == at), None)
    if row is None:
        return f"{at}: after the last line"
    t = f"{row.t:.2f} s · " if row.t is not None else ""
    return f"{at}: {t}{row.type}: {row.text}"


def _template(view: s.MatchView, type_name: str, at: int, op: str) -> tuple[Any, float | None]:
    """The line the form starts from, and the time to give it: the line itself for a change; for an insert
    the last line of that type before it (its dice, its ball) at the time of the line it goes before."""
    rows = {r.line_no: r for r in view.rows}
    if op == "replace" and at in rows:
        return rows[at].line, None
    before = [r.line for r in view.rows if r.line_no < at and r.type == type_name and r.line is not None]
    timed = [r.t for r in view.rows if r.t is not None and r.line_no <= at]
    return (before[-1] if before else None), (timed[-1] if timed else None)


def _apply(view: s.MatchView, correct: Callable[[], s.MatchView]) -> None:
    """Make the correction; say how many decisions it changed, or why it was refused."""
    before = view.decisions
    try:
        after = correct()
    except s.DeskError as exc:
        st.error(str(exc))
        return
    changed = sum(1 for a, b in zip(before, after.decisions, strict=False) if a != b)
    changed += abs(len(before) - len(after.decisions))
    flash("success", f"corrected; {changed} decision(s) recomputed differently")
    st.rerun()


def correction_form(desk: s.Desk, view: s.MatchView) -> None:
    """Pick the line, say what to do with it, change its fields; every decision after it is recomputed."""
    spec, match_id = view.spec, view.id
    if spec is None:
        st.caption(f"{view.header.game} is not a game of this Arbiter: correct it with a JSON line below")
        return
    last = view.stream_length
    lines = [r.line_no for r in view.rows if r.line_no >= 2] + [last + 1]
    at = st.selectbox(
        "the line to correct", lines, key=f"fix_at_{match_id}", format_func=lambda n: _line_label(view, n)
    )
    ops = list(FIX_OPS) if at <= last else ["insert"]
    op = st.radio("what to do", ops, format_func=FIX_OPS.get, horizontal=True, key=f"fix_op_{match_id}_{at}")
    type_name, form = "", cast(tuple[s.LineField, ...], ())
    if op != "delete":
        types = list(s.line_types(spec))
        current = next((r.type for r in view.rows if r.line_no == at), None)
        index = types.index(current) if op == "replace" and current in types else 0
        type_name = st.selectbox("the line's type", types, index, key=f"fix_type_{match_id}_{at}_{op}")
        template, t = _template(view, type_name, at, op)
        form = s.line_fields(type_name, spec, view.header.players, template, t)
    with st.form(f"fix_{match_id}_{at}_{op}_{type_name}"):
        key = f"fix_{match_id}_{at}_{op}_{type_name}"
        values: dict[str, Any] = {f.name: field_widget(f, f"{key}_{f.name}") for f in form}
        reason = st.text_input("the reason (kept with the correction)", key=f"{key}_reason")
        submitted = st.form_submit_button("Correct the line")
    if submitted:
        try:
            frame = getattr(_template(view, type_name, at, op)[0], "frame", None) if op == "replace" else None
            line = s.line_from_fields(type_name, form, values, frame) if op != "delete" else None
        except s.DeskError as exc:
            st.error(str(exc))
            return
        _apply(view, lambda: desk.correct(view.id, op, at, line, reason))


def correction_by_json(desk: s.Desk, view: s.MatchView) -> None:
    """The advanced way: a line of the contract typed as JSON, at a line number of the timeline."""
    last = view.stream_length
    with st.form(f"override_{view.id}"):
        op = st.radio("correction", ("replace", "delete", "insert"), horizontal=True)
        at = st.number_input("line (as numbered in the timeline)", 2, last + 1, min(2, last + 1))
        line = st.text_area(
            "new line (replace, insert: one JSON line of the contract)",
            placeholder='{"type":"pocket","t":2.617,"ball":"red:12","pocket":"tl"}',
        )
        reason = st.text_input("why (kept with the correction)")
        submitted = st.form_submit_button("Apply the correction")
    current = {row.line_no: row for row in view.rows}
    st.code("\n".join(f"{n}: {current[n].json}" for n in sorted(current)) or "(no lines)", language="json")
    if submitted:
        _apply(view, lambda: desk.override(view.id, op, int(at), line if op != "delete" else None, reason))


def corrections(desk: s.Desk, view: s.MatchView) -> None:
    """The Correct tab: the corrections made so far, the form, and the JSON line for anything else."""
    if view.overrides:
        st.markdown("**Corrections made** (the recorded lines are kept as they were):")
        for n, o in enumerate(view.overrides, start=1):
            st.markdown(f"{n}. `{o.describe()}`")
    if view.override_error:
        st.error(view.override_error)
    correction_form(desk, view)
    with st.expander("advanced: type the corrected line as JSON"):
        correction_by_json(desk, view)
