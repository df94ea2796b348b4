"""The calls of scrapyd's JSON API that the scheduler and ``scrapy jobs`` make, over urllib with HTTP Basic auth."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

_TIMEOUT_SECS = 30


class ScrapydError(RuntimeError):
    """scrapyd could not be reached, refused the credentials, or answered ``"status": "error"``."""


@dataclass(frozen=True)
class Scrapyd:
    """One scrapyd server: its URL, the project deployed on it, and the credentials to use."""

    url: str
    project: str
    username: str = ""
    password: str = ""

    def schedule(
        self, spider: str, job_id: str, settings: Mapping[str, str], args: Mapping[str, str]
    ) -> dict[str, Any]:
        """``schedule.json``: run ``spider`` as job ``job_id`` with these settings and spider arguments."""
        fields: list[tuple[str, str]] = [("project", self.project), ("spider", spider), ("jobid", job_id)]
        fields += [("setting", f"{name}={value}") for name, value in settings.items()]
        fields += list(args.items())
        return self._call("schedule.json", data=fields)

    def active_job_ids(self) -> set[str]:
        """``listjobs.json``: ids of the project's pending and running jobs."""
        jobs = self._call("listjobs.json", query=[("project", self.project)])
        return {job["id"] for state in ("pending", "running") for job in jobs.get(state, [])}

    def jobs(self) -> dict[str, list[dict[str, Any]]]:
        """``listjobs.json``: the project's jobs by state (``pending``, ``running``, ``finished``), as scrapyd
        lists them (``id``, ``spider``, ``start_time``, ``end_time``…)."""
        answer = self._call("listjobs.json", query=[("project", self.project)])
        return {state: list(answer.get(state, [])) for state in ("pending", "running", "finished")}

    def _call(
        self, endpoint: str, query: list[tuple[str, str]] | None = None, data: list[tuple[str, str]] | None = None
    ) -> dict[str, Any]:
        """One API call; its JSON answer, or :class:`ScrapydError`."""
        url = urllib.parse.urljoin(self.url if self.url.endswith("/") else self.url + "/", endpoint)
        if query:
            url += "?" + urllib.parse.urlencode(query)
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body)
        if self.username:
            token = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with urllib.request.urlopen(request, timeout=_TIMEOUT_SECS) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            reason = "wrong or missing credentials" if error.code == 401 else error.reason
            raise ScrapydError(f"{endpoint} at {self.url}: HTTP {error.code} ({reason})") from None
        except (OSError, ValueError) as error:
            raise ScrapydError(f"{endpoint} at {self.url}: {error}") from None
        if answer.get("status") != "ok":
            raise ScrapydError(f"{endpoint} at {self.url}: {answer.get('message', answer)}")
        return cast("dict[str, Any]", answer)
