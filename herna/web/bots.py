"""Submitted bots in the web hall: ``/bots`` lists them and takes a signed-in person's upload
(a single source file), ``/bots/{bot}`` shows a bot's versions and its recent games, with its
log to its author only, and ``/bots/starter/{game}-{language}`` downloads a starter kit.

Uploads are :mod:`herna.hall.submissions`' (the same rules as ``herna submit``); the hall
plays them with ``herna serve --ladder`` (:mod:`herna.servers.ladder`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from herna.hall.hall import Hall
from herna.hall.submissions import (
    GAMES,
    LANGUAGES,
    MAX_SOURCE_BYTES,
    BotRun,
    Submission,
    SubmissionRefused,
    Submissions,
)
from herna.starters import STARTERS, starter
from herna.web.accounts import FormError, check_form, e, ensure_csrf
from herna.web.guests import session_of
from herna.web.pages import GAME_TITLES

OUTCOME_WORDS = {"won": "won", "lost": "lost", "draw": "draw", "no game": "no game"}


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
        ]

    def _respond(self, title: str, body: str, status: int = 200) -> Response:
        response: Response = self.page(title, body, {"kind": "bots"}, "/bots", status)
        response.headers["cache-control"] = "no-store"
        return response

    async def index(self, request: Request) -> Response:
        body = await run_in_threadpool(self._index_html, request, "", {})
        return self._respond("Submitted bots", body)

    def _index_html(self, request: Request, problem: str, form: dict[str, str]) -> str:
        person = _person(request)
        listing = "".join(self._game_html(game) for game in GAMES)
        return (
            "<h1>Submitted bots</h1>"
            '<p class="lead">Upload a program and the hall plays it for you, in a sandbox: it '
            "speaks the game's own protocol on its standard input and output, and what it "
            "writes to standard error is its log, shown to you with each game. "
            '<a href="/doc/bots.md">How to write one</a>.</p>'
            + _starters_html()
            + _upload_html(person, ensure_csrf(request), problem, form)
            + listing
        )

    def _game_html(self, game: str) -> str:
        bots = self.book.latest(game)
        title = GAME_TITLES.get(game, game)
        if not bots:
            return f"<h2>{e(title)}</h2><p>No bot uploaded yet.</p>"
        rows = [
            [
                f'<a href="/bots/{quote(b.name)}">{e(b.name)}</a>',
                str(b.version),
                e(LANGUAGES[b.language].label),
                e(b.owner),
                _when(b),
            ]
            for b in bots
        ]
        return f"<h2>{e(title)}</h2>" + _table(
            ["Bot", "Version", "Language", "Author", "Uploaded"], rows
        )

    async def upload(self, request: Request) -> Response:
        person = _person(request)
        fields: dict[str, str] = {}
        try:
            async with request.form(
                max_files=1, max_fields=6, max_part_size=MAX_SOURCE_BYTES + 1
            ) as form:
                fields = {k: v for k, v in form.items() if isinstance(v, str)}
                check_form(request, fields.get("csrf", ""))
                upload = form.get("file")
                if person is None:
                    raise FormError(403, "Sign in to upload a bot.")
                if not isinstance(upload, UploadFile) or not upload.filename:
                    raise FormError(400, "Choose the file of your bot's program.")
                source = await upload.read(MAX_SOURCE_BYTES + 1)
                filename = upload.filename
        except FormError as exc:
            body = await run_in_threadpool(self._index_html, request, exc.message, fields)
            return self._respond("Submitted bots", body, exc.status)
        except (MultiPartException, HTTPException):  # a malformed or oversized form
            why = f"The form could not be read (a file is at most {MAX_SOURCE_BYTES // 1024} KiB)."
            body = await run_in_threadpool(self._index_html, request, why, fields)
            return self._respond("Submitted bots", body, 400)
        name = fields.get("name", "").strip()
        game = fields.get("game", "")
        try:
            submission, token = await run_in_threadpool(
                self.book.submit, name, game, filename, source, person=person
            )
        except SubmissionRefused as exc:
            body = await run_in_threadpool(self._index_html, request, exc.reason, fields)
            return self._respond("Submitted bots", body, 400)
        if token is not None:
            # Shown once, like `herna bots add`: it uploads from the terminal too.
            session_of(request)["new_bot_token"] = [submission.name, token]
        return RedirectResponse(f"/bots/{quote(submission.name)}", status_code=303)

    async def bot(self, request: Request) -> Response:
        name = request.path_params["bot"]
        versions = await run_in_threadpool(self.book.versions, name)
        if not versions:
            body = f"<h1>No such bot</h1><p>Nobody uploaded a bot named {e(name)}.</p>"
            return self._respond("No such bot", body + '<p><a href="/bots">All bots</a></p>', 404)
        runs = await run_in_threadpool(self.book.runs, name)
        person = _person(request)
        mine = person is not None and person == versions[0].owner
        token = None
        held = session_of(request).pop("new_bot_token", None)
        if mine and isinstance(held, list) and len(held) == 2 and held[0] == name:
            token = str(held[1])
        body = _bot_html(versions, runs, mine, token)
        return self._respond(f"Bot {name}", body)

    async def starter(self, request: Request) -> Response:
        game, _, language = str(request.path_params["kit"]).partition("-")
        found = starter(game, language)
        if found is None:
            return self._respond("No such starter kit", "<h1>No such starter kit</h1>", 404)
        filename, source = found
        return Response(
            source,
            media_type="text/plain; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )


def _person(request: Request) -> str | None:
    person = session_of(request).get("person")
    return person if isinstance(person, str) else None


def _when(submission: Submission) -> str:
    return e(submission.created_at.strftime("%Y-%m-%d %H:%M"))


def _starters_html() -> str:
    links = "".join(
        f'<li><a href="/bots/starter/{game}-{language}" download>'
        f"{e(GAME_TITLES.get(game, game))} in {e(LANGUAGES[language].label)}</a></li>"
        for game, language in STARTERS
    )
    return (
        "<h2>Starter kits</h2><p>A minimal bot that plays legal moves: download it, make it "
        f"better, upload it.</p><ul>{links}</ul>"
    )


def _upload_html(person: str | None, csrf: str, problem: str, form: dict[str, str]) -> str:
    if person is None:
        return (
            '<h2>Upload a bot</h2><p><a href="/signin?next=/bots">Sign in</a> to upload a bot '
            "(or use <code>herna submit</code> with the token of its name).</p>"
        )
    note = (
        f'<div id="form-error" role="alert"><p class="error">{e(problem)}</p></div>'
        if problem
        else ""
    )
    games = "".join(
        f'<option value="{g}"{" selected" if form.get("game") == g else ""}>'
        f"{e(GAME_TITLES.get(g, g))}</option>"
        for g in GAMES
    )
    kinds = ", ".join(
        f"{lang.label} (.{lang.filename.rpartition('.')[2]})" for lang in LANGUAGES.values()
    )
    return (
        "<h2>Upload a bot</h2>"
        f"<p>One source file: {e(kinds)}, at most {MAX_SOURCE_BYTES // 1024} KiB. Uploading "
        "under the same name again makes a new version; the older ones stay.</p>"
        f"{note}"
        '<form class="account" method="post" action="/bots" enctype="multipart/form-data">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">'
        '<label for="bot-name">Bot name</label>'
        f'<input id="bot-name" name="name" value="{e(form.get("name", ""))}" required '
        'maxlength="32" autocapitalize="none" spellcheck="false">'
        f'<label for="bot-game">Game</label><select id="bot-game" name="game">{games}</select>'
        '<label for="bot-file">Program</label>'
        '<input id="bot-file" name="file" type="file" required accept=".py,.c">'
        '<button type="submit">Upload</button></form>'
    )


def _bot_html(versions: list[Submission], runs: list[BotRun], mine: bool, token: str | None) -> str:
    newest = versions[0]
    title = GAME_TITLES.get(newest.game, newest.game)
    parts = [
        f"<h1>{e(newest.name)}</h1>",
        f'<p class="lead">A submitted {e(title)} bot by {e(newest.owner)}; the hall runs it '
        "in its sandbox and it plays under this name.</p>",
    ]
    if token is not None:
        parts.append(
            '<div role="status"><p>The name is yours now. Its token, shown only this once, '
            "uploads new versions from the terminal: "
            f"<code>herna submit {e(newest.game)} FILE --name {e(newest.name)} "
            f"--token {e(token)}</code></p></div>"
        )
    rows = [
        [
            str(v.version),
            e(LANGUAGES[v.language].label),
            e(v.filename),
            f"{len(v.source)} bytes",
            _when(v),
        ]
        for v in versions
    ]
    parts.append(
        "<h2>Versions</h2>" + _table(["Version", "Language", "File", "Size", "Uploaded"], rows)
    )
    parts.append("<h2>Recent games</h2>")
    if not runs:
        parts.append("<p>No game yet: the hall plays submitted bots when it runs its ladder.</p>")
    else:
        heads = ["Version", "Opponent", "Result", "How it ended", "When"]
        parts.append(
            _table([*heads, "Its log"] if mine else heads, [_run_row(r, mine) for r in runs])
        )
        if not mine:
            parts.append("<p>Each game's log is shown to the bot's author only.</p>")
    parts.append('<p><a href="/bots">All submitted bots</a></p>')
    return "".join(parts)


def _run_row(run: BotRun, mine: bool) -> list[str]:
    replay = f' <a href="/matches/{run.match_id}">replay</a>' if run.match_id is not None else ""
    cells = [
        str(run.version),
        e(run.opponent or "—"),
        e(OUTCOME_WORDS.get(run.outcome, run.outcome)),
        e(run.reason) + replay,
        e(run.finished_at.strftime("%Y-%m-%d %H:%M")),
    ]
    if mine:
        shown = run.log.strip()
        cells.append(
            f"<details><summary>log</summary><pre>{e(shown)}</pre></details>"
            if shown
            else "(empty)"
        )
    return cells


def _table(heads: list[str], rows: list[list[str]]) -> str:
    """A table that becomes one small card per row on a phone (``table.results`` in
    hall.css: each cell labelled with its column)."""
    head = "".join(f"<th>{e(h)}</th>" for h in heads)
    cells = [
        "".join(f'<td data-label="{e(h)}">{c}</td>' for h, c in zip(heads, row, strict=True))
        for row in rows
    ]
    body = "".join(f"<tr>{row}</tr>" for row in cells)
    return (
        f'<table class="grid results"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )
