"""Submitted bots in the web hall: ``/bots`` lists them and takes a signed-in person's upload
(a single source file), ``/bots/{bot}`` shows a bot's versions and its recent games, with its
log to its author only, and ``/bots/starter/{game}-{language}`` downloads a starter kit.

Uploads are :mod:`herna.hall.submissions`' (the same rules as ``herna submit``); the hall
plays them with ``herna serve --ladder`` (:mod:`herna.servers.ladder`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from babel.numbers import format_decimal
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from herna.hall.hall import Hall
from herna.hall.records import Standing
from herna.hall.stats import Z95
from herna.hall.submissions import (
    GAMES,
    LANGUAGES,
    MAX_SOURCE_BYTES,
    Submission,
    SubmissionRefused,
    Submissions,
)
from herna.starters import STARTERS, starter
from herna.web.accounts import FormError, check_form, ensure_csrf, read_form
from herna.web.guests import session_of
from herna.web.i18n import CURRENT_LOCALE
from herna.web.i18n import gettext as _
from herna.web.lobby import PLAY_PAGES, play_url
from herna.web.refusals import refusal_words
from herna.web.templating import TEMPLATES, render

TEMPLATES.env.globals.update(language=lambda s: LANGUAGES[s.language].label)
"""The bot pages write a program's language by its name."""


class BotPages:
    def __init__(self, hall: Hall, page: Any) -> None:
        self.hall = hall
        self.page = page
        self.book = Submissions(hall.records.engine, hall.identity)

    def routes(self) -> list[Route]:
        return [
            Route("/bots", self.index, methods=["GET"]),
            Route("/bots", self.upload, methods=["POST"]),
            Route("/bots/starter/{kit}", self.starter, methods=["GET"]),
            Route("/bots/{bot}", self.bot, methods=["GET"]),
            Route("/bots/{bot}/play", self.play, methods=["POST"]),
        ]

    def _respond(self, title: str, body: str, status: int = 200) -> Response:
        response: Response = self.page(title, body, {"kind": "bots"}, "/bots", status)
        response.headers["cache-control"] = "no-store"
        return response

    async def index(self, request: Request) -> Response:
        body = await run_in_threadpool(self._index_html, request, "", {})
        return self._respond(_("Submitted bots"), body)

    def _index_html(self, request: Request, problem: str, form: dict[str, str]) -> str:
        person = person_of(request)
        return render(
            "bots.html",
            starters=[(g, lang, LANGUAGES[lang].label) for g, lang in STARTERS],
            person=person,
            csrf=ensure_csrf(request) if person is not None else "",
            problem=problem,
            form=form,
            games=GAMES,
            kinds=", ".join(
                f"{lang.label} (.{lang.filename.rpartition('.')[2]})" for lang in LANGUAGES.values()
            ),
            kib=MAX_SOURCE_BYTES // 1024,
            ladders=[(game, self._ladder(game)) for game in GAMES],
        )

    def _ladder(self, game: str) -> list[dict[str, Any]]:
        """A game's submitted bots, best first, with their standing in the hall."""
        bots = self.book.latest(game)
        if not bots:
            return []
        known = {s.name: s for s in self.hall.records.standings(game)}
        ranked = sorted(bots, key=lambda b: _ladder_key(known.get(b.name), b.name))
        rows = []
        for b in ranked:
            games, wins, rating = _standing_cells(known.get(b.name))
            rows.append(
                {
                    "name": b.name,
                    "games": games,
                    "wins": wins,
                    "rating": rating,
                    "version": b.version,
                    "language": LANGUAGES[b.language].label,
                    "owner": b.owner,
                }
            )
        return rows

    async def upload(self, request: Request) -> Response:
        person = person_of(request)
        fields: dict[str, str] = {}
        try:
            async with request.form(
                max_files=1, max_fields=6, max_part_size=MAX_SOURCE_BYTES + 1
            ) as form:
                fields = {k: v for k, v in form.items() if isinstance(v, str)}
                check_form(request, fields.get("csrf", ""))
                upload = form.get("file")
                if person is None:
                    raise FormError(403, _("Sign in to upload a bot."))
                if not isinstance(upload, UploadFile) or not upload.filename:
                    raise FormError(400, _("Choose the file of your bot's program."))
                source = await upload.read(MAX_SOURCE_BYTES + 1)
                filename = upload.filename
        except FormError as exc:
            body = await run_in_threadpool(self._index_html, request, exc.message, fields)
            return self._respond(_("Submitted bots"), body, exc.status)
        except (MultiPartException, HTTPException):  # a malformed or oversized form
            why = _("The form could not be read (a file is at most %(kib)s KiB).") % {
                "kib": MAX_SOURCE_BYTES // 1024
            }
            body = await run_in_threadpool(self._index_html, request, why, fields)
            return self._respond(_("Submitted bots"), body, 400)
        name = fields.get("name", "").strip()
        game = fields.get("game", "")
        try:
            submission, token = await run_in_threadpool(
                self.book.submit, name, game, filename, source, person=person
            )
        except SubmissionRefused as exc:
            body = await run_in_threadpool(
                self._index_html, request, refusal_words(exc.reason), fields
            )
            return self._respond(_("Submitted bots"), body, 400)
        if token is not None:
            # Shown once, like `herna bots add`: it uploads from the terminal too.
            session_of(request)["new_bot_token"] = [submission.name, token]
        return RedirectResponse(f"/bots/{quote(submission.name)}", status_code=303)

    async def bot(self, request: Request) -> Response:
        name = request.path_params["bot"]
        versions = await run_in_threadpool(self.book.versions, name)
        if not versions:
            return self._no_such_bot(name)
        runs = await run_in_threadpool(self.book.runs, name)
        standings = await run_in_threadpool(self.hall.records.standings, versions[0].game)
        standing = next((s for s in standings if s.name == name), None)
        person = person_of(request)
        mine = person is not None and person == versions[0].owner
        token = None
        held = session_of(request).pop("new_bot_token", None)
        if mine and isinstance(held, list) and len(held) == 2 and held[0] == name:
            token = str(held[1])
        body = render(
            "bot.html",
            heading="",
            newest=versions[0],
            standing=_standing_cells(standing),
            play=self._play_view(request, versions[0], person, ""),
            token=token,
            versions=versions,
            runs=runs,
            mine=mine,
        )
        return self._respond(_("Bot %(name)s") % {"name": name}, body)

    def _no_such_bot(self, name: str) -> Response:
        body = render(
            "message.html",
            title=_("No such bot"),
            text=_("Nobody uploaded a bot named %(name)s.") % {"name": name},
            back=("/bots", _("All bots")),
        )
        return self._respond(_("No such bot"), body, 404)

    def _play_view(
        self, request: Request, bot: Submission, person: str | None, problem: str
    ) -> dict[str, Any]:
        """The bot page's "Play this bot" (a signed-in person; the hall runs its ladder)."""
        runs = self.hall.submitted is not None and bot.game in PLAY_PAGES
        return {
            "runs": runs,
            "person": person,
            "here": quote(f"/bots/{bot.name}"),
            "game": bot.game,
            "version": bot.version,
            "name": bot.name,
            "problem": problem,
            "csrf": ensure_csrf(request) if runs and person is not None else "",
        }

    async def play(self, request: Request) -> Response:
        """A signed-in person challenges the bot: the hall's runner sits it down with a
        challenge to them, and their play page challenges it (the lobby pairs the two)."""
        name = request.path_params["bot"]
        person = person_of(request)
        try:
            await read_form(request)  # same origin, this session's CSRF token
            if person is None:
                raise FormError(403, _("Sign in to play a bot."))
        except FormError as exc:
            body = render("message.html", title=_("Not allowed"), error=exc.message)
            return self._respond(_("Not allowed"), body, exc.status)
        versions = await run_in_threadpool(self.book.versions, name)
        if not versions:
            return self._no_such_bot(name)
        bot = versions[0]
        runner = self.hall.submitted
        why = (
            _("This hall does not run submitted bots now.")
            if runner is None or bot.game not in PLAY_PAGES
            else runner.challenge(bot, person)
        )
        if why is not None:
            play = self._play_view(request, bot, person, why)
            body = render("bot.html", heading=bot.name, newest=None, play=play)
            return self._respond(_("Bot %(name)s") % {"name": name}, body, 503)
        return RedirectResponse(play_url(bot.game, f"person,challenge={bot.name}"), 303)

    async def starter(self, request: Request) -> Response:
        game, _sep, language = str(request.path_params["kit"]).partition("-")
        found = starter(game, language)
        if found is None:
            title = _("No such starter kit")
            body = render("message.html", title=title, back=("/bots", _("All bots")))
            return self._respond(title, body, 404)
        filename, source = found
        return Response(
            source,
            media_type="text/plain; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )


def person_of(request: Request) -> str | None:
    person = session_of(request).get("person")
    return person if isinstance(person, str) else None


def _one_decimal(value: float) -> str:
    return format_decimal(value, "0.0", locale=CURRENT_LOCALE.get())


def _ladder_key(standing: Standing | None, name: str) -> tuple[float, str]:
    """Best first: by the conservative rating (μ − 3σ), the unrated last."""
    ordinal = standing.ordinal if standing is not None else None
    return (-ordinal if ordinal is not None else float("inf"), name.casefold())


def _standing_cells(standing: Standing | None) -> list[str]:
    """Games, wins and the rating with its 95 % interval (μ ± 1.96 σ)."""
    if standing is None or standing.mu is None or standing.sigma is None:
        return ["0", "0", _("unrated")]
    low, high = standing.mu - Z95 * standing.sigma, standing.mu + Z95 * standing.sigma
    return [
        str(standing.games),
        str(standing.wins),
        _("%(mu)s (%(low)s to %(high)s)")
        % {
            "mu": _one_decimal(standing.mu),
            "low": _one_decimal(low),
            "high": _one_decimal(high),
        },
    ]
