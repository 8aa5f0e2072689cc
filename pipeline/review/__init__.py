"""Reviewing an archive (``arbiter review``): many videos, each refereed by the same pipeline as
``arbiter run`` and recorded as a match of its own; resumable; on local processes or Ray.

``plan`` (what to referee) -> ``work`` (one video, in a worker) -> ``pools`` / ``ray_pool`` (where workers
run) -> ``driver`` (the one writer of the record) -> ``summary`` (the table, reports and index). The
bookkeeping that makes a review resumable is ``record.reviews``. docs/review.md is the user's page.
"""
