"""The optional workload section: what ``planner size`` sizes each layout for.

Two kinds, told apart by their keys (exactly one kind per scenario):

* a **mailbox** workload (Exchange 2007 style, :class:`planner.core.design.sizing.MailboxWorkload`):
  ``users``, ``iops_per_user`` and ``mailbox_mb``, with optional ``read_fraction``,
  ``log_overhead_fraction``, ``iops_headroom_fraction`` and the capacity factors;
* a **plain** workload (:class:`planner.core.design.sizing.PlainWorkload`): ``iops``,
  ``read_fraction`` and ``capacity_tb``, taken as given.

Every default and its source is in docs/sizing.md; the defaults themselves live in the core
dataclass, so the schema's descriptions quote them from there.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict, model_validator

from planner.core.design.sizing import MailboxWorkload, PlainWorkload
from planner.scenario.base import FieldError, FrozenModel, positive
from planner.scenario.units import Terabytes, tb_schema

WorkloadKind = Literal["mailbox", "plain"]

DEFAULT_IO_SIZE_KB = 8.192
"""Bytes per host read when the workload does not say (KB, 10^3 bytes): 8 KiB, the Exchange
2007 database page ("Exchange 2007 store has moved to ESE's larger page size (8k, from 4k in
Exch 2k3) ... we will on average be using 8+ KB IOs against the DB volume", The Exchange
Wiki, "Maximum DB size", http://www.theexchangewiki.com/MaximumDBsize), the workload this
planner's sizing follows (NS3574)."""

MAILBOX_REQUIRED = ("users", "iops_per_user", "mailbox_mb")
MAILBOX_OPTIONAL = (
    "log_overhead_fraction",
    "iops_headroom_fraction",
    "messages_per_day",
    "message_kb",
    "deleted_item_retention_days",
    "database_overhead_fraction",
    "content_index_fraction",
    "log_capacity_fraction",
)
PLAIN_REQUIRED = ("iops", "read_fraction", "capacity_tb")
PLAIN_ONLY = ("iops", "capacity_tb")
_MAILBOX_ONLY = (*MAILBOX_REQUIRED, *MAILBOX_OPTIONAL)

_MAILBOX_DEFAULTS: dict[str, Any] = {
    f.name: f.default
    for f in dataclasses.fields(MailboxWorkload)
    if f.default is not dataclasses.MISSING
}


def _default(name: str) -> str:
    return f" Default {_MAILBOX_DEFAULTS[name]:g} (docs/sizing.md)."


def _non_negative(description: str, le: float) -> Any:
    return Field(
        default=None, strict=True, ge=0, le=le, allow_inf_nan=False, description=description
    )


def _workload_schema_extra(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [{"required": list(MAILBOX_REQUIRED)}, {"required": list(PLAIN_REQUIRED)}]


class Workload(FrozenModel):
    """What to size for: a mailbox workload or a plain one, not both.

    Mailbox: users, iops_per_user, mailbox_mb (+ optional factors). Plain: iops,
    read_fraction, capacity_tb.
    """

    model_config = ConfigDict(json_schema_extra=_workload_schema_extra)

    # mailbox
    users: Annotated[int, Strict()] | None = Field(
        default=None, ge=1, le=1_000_000_000, description="Mailboxes (mailbox workload)."
    )
    iops_per_user: float | None = _non_negative(
        "Database IOPS per mailbox (Exchange 2007: 0.11 light to 0.48 very heavy; "
        "NS3574 Table 9: 0.33).",
        le=1000,
    )
    mailbox_mb: float | None = positive(
        default=None, le=10_000_000, description="Mailbox quota (MB, 10^6 bytes)."
    )
    log_overhead_fraction: float | None = _non_negative(
        "Transaction log writes per database I/O." + _default("log_overhead_fraction"), le=10
    )
    iops_headroom_fraction: float | None = _non_negative(
        "Peak headroom on top of the IOPS profile." + _default("iops_headroom_fraction"), le=10
    )
    messages_per_day: float | None = _non_negative(
        "Messages sent and received per mailbox per day." + _default("messages_per_day"),
        le=1_000_000,
    )
    message_kb: float | None = _non_negative(
        "Average message size (KB, 10^3 bytes)." + _default("message_kb"), le=1_000_000
    )
    deleted_item_retention_days: float | None = _non_negative(
        "Days deleted items are kept." + _default("deleted_item_retention_days"), le=36_500
    )
    database_overhead_fraction: float | None = _non_negative(
        "Extra database space for tables, indices and safety."
        + _default("database_overhead_fraction"),
        le=100,
    )
    content_index_fraction: float | None = _non_negative(
        "Content index size as a share of the database." + _default("content_index_fraction"),
        le=100,
    )
    log_capacity_fraction: float | None = _non_negative(
        "Log space as a share of the database." + _default("log_capacity_fraction"), le=100
    )
    # both kinds
    read_fraction: float | None = _non_negative(
        "Share of host I/Os that are reads, 0 to 1 (required for a plain workload; "
        "mailbox default 0.5).",
        le=1,
    )
    # plain
    iops: float | None = _non_negative(
        "Host I/Os per second at the peak to size for (plain workload).", le=1e12
    )
    capacity_tb: (
        Annotated[
            Terabytes,
            Field(strict=True, ge=0, le=1e9, allow_inf_nan=False),
            tb_schema(0, 1e9),
        ]
        | None
    ) = Field(
        default=None,
        description="Data the aggregate must store (TB, 10^12 bytes, or e.g. 363.8 TiB; "
        "plain workload): the same amount as target.usable_tb, each drive storing "
        "drive.capacity_tb x drive.usable_fraction.",
    )
    io_size_kb: float | None = positive(
        default=None,
        le=1e6,
        description="Bytes per host read (KB, 10^3 bytes), for the latent-defect rate of a "
        f"spec-sheet drive (docs/drives.md). Default {DEFAULT_IO_SIZE_KB:g} (8 KiB, the "
        "Exchange 2007 database page).",
    )

    def _given(self, names: tuple[str, ...]) -> list[str]:
        return [name for name in names if getattr(self, name) is not None]

    @property
    def kind(self) -> WorkloadKind:
        """``"mailbox"`` when mailbox keys are given, else ``"plain"`` (checked on load)."""
        return "mailbox" if self._given(_MAILBOX_ONLY) else "plain"

    @model_validator(mode="after")
    def _one_kind(self) -> Workload:
        mailbox, plain = self._given(_MAILBOX_ONLY), self._given(PLAIN_ONLY)
        if not mailbox and not plain:
            raise FieldError(
                "give a mailbox workload (users, iops_per_user, mailbox_mb) or a plain one "
                "(iops, read_fraction, capacity_tb)"
            )
        if mailbox and plain:
            # The kind with the anchor key (users, iops) wins; the stray key is the error.
            is_mailbox = "users" in mailbox or ("iops" not in plain and len(mailbox) >= len(plain))
            stray = plain[0] if is_mailbox else mailbox[0]
            raise FieldError(
                f"{stray} belongs to a {'plain' if is_mailbox else 'mailbox'} workload, but this "
                f"is a {'mailbox' if is_mailbox else 'plain'} workload "
                f"({mailbox[0] if is_mailbox else plain[0]} is given); give one kind: "
                "users, iops_per_user, mailbox_mb (mailbox) or iops, read_fraction, "
                "capacity_tb (plain)",
                stray,
            )
        required = MAILBOX_REQUIRED if mailbox else PLAIN_REQUIRED
        kind = "mailbox" if mailbox else "plain"
        for name in required:
            if getattr(self, name) is None:
                about = Workload.model_fields[name].description or ""
                raise FieldError(
                    f"a {kind} workload needs {name}: {about[:1].lower()}{about[1:].rstrip('.')}",
                    name,
                )
        if plain and self.iops == 0 and self.capacity_tb == 0:
            raise FieldError("the workload asks for neither IOPS nor capacity", "iops")
        return self

    @property
    def io_bytes(self) -> float:
        """Bytes per host read: ``io_size_kb`` x 1,000, else :data:`DEFAULT_IO_SIZE_KB`'s."""
        size = DEFAULT_IO_SIZE_KB if self.io_size_kb is None else self.io_size_kb
        return size * 1e3

    def core_workload(self) -> MailboxWorkload | PlainWorkload:
        """This workload as the core's value, defaults filled in by the core."""
        if self.kind == "plain":
            assert self.iops is not None
            assert self.read_fraction is not None
            assert self.capacity_tb is not None
            return PlainWorkload(
                iops=self.iops, read_fraction=self.read_fraction, capacity_tb=self.capacity_tb
            )
        assert self.users is not None
        assert self.iops_per_user is not None
        assert self.mailbox_mb is not None
        optional = {
            name: getattr(self, name)
            for name in (*MAILBOX_OPTIONAL, "read_fraction")
            if getattr(self, name) is not None
        }
        return MailboxWorkload(
            users=self.users,
            iops_per_user=self.iops_per_user,
            mailbox_mb=self.mailbox_mb,
            **optional,
        )
