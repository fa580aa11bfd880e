"""``POST /web/replay`` as anyone on the internet may use it: the work bounded, cached, throttled.

* **Off the event loop**: the record is replayed in the server's replay process
  (:data:`erren.server.work.Work.REPLAY`, one process; 4 jobs at most, then 503 ``busy``), which
  also encodes and compresses the frames, so neither the GIL nor the loop pays for them.
* **Bounded**: a record may hold no more actions than a real hand of its family
  (:func:`erren.server.routes.replay.max_actions`: 228 for guobiao-2p, 444 for arcade); the
  body is at most the app's 64 KiB.
* **Cached**: the last answers, by the record's canonical JSON, up to :data:`CACHE_BYTES` of
  compressed frames — the same hand opened by many viewers is worked out once.
* **Throttled**: :data:`PER_ADDRESS` new replays (cache misses) a minute per client address;
  past that 429 ``too-many-replays`` with ``Retry-After``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Mapping
from typing import Any, Final

from cachetools import LRUCache
from fastapi.responses import Response

from erren.server import work
from erren.server.ratelimit import Throttle
from erren.server.routes.common import ApiError
from erren.server.routes.replay import Replayed, replayed
from erren.server.work import Work

__all__ = ["CACHE_BYTES", "PER_ADDRESS", "ReplayDesk"]

CACHE_BYTES: Final = 32 << 20
"""The compressed frames kept (a hand's are 20–120 KiB)."""
PER_ADDRESS: Final = 30
"""New replays a minute from one client address."""


def _size(answer: Replayed) -> int:
    return len(answer.body or b"") + len(answer.refusal) + 64


class ReplayDesk:
    """The replays of one app: its cache and its throttle."""

    def __init__(self, per_address: int = PER_ADDRESS, cache_bytes: int = CACHE_BYTES) -> None:
        self.throttle = Throttle("replay", per_address, 60)
        self.cache: LRUCache[str, Replayed] = LRUCache(cache_bytes, getsizeof=_size)

    async def answer(
        self, record: dict[str, Any], address: str, headers: Mapping[str, str]
    ) -> Response:
        key = hashlib.sha256(
            json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8", "replace")
        ).hexdigest()
        found = self.cache.get(key)
        if found is None:
            found = await self._work_out(key, record, address)
        if found.body is None:
            params = {} if found.rule is None else {"rule": found.rule}
            raise ApiError(422, "not-replayable", found.refusal, params=params)
        if "gzip" in headers.get("accept-encoding", ""):
            return Response(
                found.body,
                media_type="application/json",
                headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
            )
        return Response(gzip.decompress(found.body), media_type="application/json")

    async def _work_out(self, key: str, record: dict[str, Any], address: str) -> Replayed:
        wait = self.throttle.retry_after(address)
        if wait is not None:
            raise ApiError(
                429,
                "too-many-replays",
                f"more than {self.throttle.limit} replays a minute from your address; "
                f"try again in {wait} s",
                params={"retry_after": wait},
                headers={"Retry-After": str(wait)},
            )
        self.throttle.count(address)
        answer = await work.run(Work.REPLAY, replayed, record)
        self.cache[key] = answer
        return answer
