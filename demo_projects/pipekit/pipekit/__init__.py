"""pipekit: small, testable data pipelines and job schedules.

The top-level package re-exports what most programs need: :class:`Pipeline`,
:class:`Scheduler`, :class:`RetryPolicy`, :class:`CronSchedule`, the sources and
transforms, and :func:`parse_duration`. Batching lives in :mod:`pipekit.batching`.
"""

from pipekit.checkpoint import CheckpointStore
from pipekit.clock import ManualClock, SystemClock
from pipekit.cron import CronSchedule
from pipekit.duration import parse_duration
from pipekit.errors import (
    CheckpointError,
    CronSyntaxError,
    DuplicateJobError,
    DurationError,
    PipekitError,
    RetryExhausted,
    ScheduleError,
    SourceError,
)
from pipekit.pipeline import Pipeline, PipelineResult
from pipekit.readers import read_csv, read_json_lines
from pipekit.records import Record
from pipekit.retry import RetryPolicy
from pipekit.scheduler import Job, Scheduler
from pipekit.sources import CsvSource, IterableSource, JsonLinesSource, Source
from pipekit.transforms import Dedupe, Filter, Map, Rename, Transform

__all__ = [
    "CheckpointError",
    "CheckpointStore",
    "CronSchedule",
    "CronSyntaxError",
    "CsvSource",
    "Dedupe",
    "DuplicateJobError",
    "DurationError",
    "Filter",
    "IterableSource",
    "Job",
    "JsonLinesSource",
    "ManualClock",
    "Map",
    "Pipeline",
    "PipelineResult",
    "PipekitError",
    "Record",
    "Rename",
    "RetryExhausted",
    "RetryPolicy",
    "ScheduleError",
    "Scheduler",
    "Source",
    "SourceError",
    "SystemClock",
    "Transform",
    "parse_duration",
    "read_csv",
    "read_json_lines",
]
__version__ = "0.4.0"
