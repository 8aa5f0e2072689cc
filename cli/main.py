"""``arbiter``: the command line. A composition root only: it parses arguments, calls the packages and
prints; no vision, tracking or rule logic lives here. One module per command group."""

from __future__ import annotations

import sys

import typer

from cli import dashboard, demo, dice, evaluate, record, referee, review, run, synth

app = typer.Typer(
    help="Arbiter: a computer-vision referee for table games. Run a subcommand with --help for its options.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(demo.app)
app.add_typer(run.app)
app.add_typer(referee.app)
app.add_typer(record.app)
app.add_typer(evaluate.app)
app.add_typer(dashboard.app)
app.add_typer(synth.app, name="synth")
app.add_typer(evaluate.bench_app, name="bench")
app.add_typer(evaluate.train_app, name="train")
app.add_typer(record.record_app, name="record")
app.add_typer(dice.app, name="dice")
app.add_typer(review.app)


def main() -> None:  # pragma: no cover - console entry
    sys.exit(app())


if __name__ == "__main__":  # pragma: no cover
    main()
