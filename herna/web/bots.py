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
from herna.hall.records import Standing
from herna.hall.stats import Z95
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
from herna.web.accounts import FormError, check_form, e, ensure_csrf, read_form
from herna.web.guests import session_of
from herna.web.lobby import PLAY_PAGES, play_url
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
            Route("/bots/{bot}/play", self.play, methods=["POST"]),
        ]

    def _respond(self, title: str, body: str, status: int = 200) -> Response:
        response: Response = self.page(title, body, {"kind": "bots"}, "/bots", status)
        response.headers["cache-control"] = "no-store"
        return response

    async def index(self, request: Request) -> Response:
        body = await run_in_threadpool(self._index_html, request, "", {})
        return self._respond("Submitted bots", body)

    def _index_html(self, request: Request, problem: str, form: dict[str, str]) -> str:
        person = person_of(request)
        listing = "".join(self._game_html(game) for game in GAMES)
        return (
            "<h1>Submitted bots</h1>"
            '<p class="lead">Upload a program and the hall plays it for you, in a sandbox: it '
            "speaks the game's own protocol on its standard input and output, and what it "
            "writes to standard error is its log, shown to you with each game. "
            '<a href="/doc/bots.md">How to write one</a>. A teacher holds a '
            '<a href="/contests">contest</a> of them: a deadline, then a final ranking.</p>'
            + _starters_html()
            + _upload_html(person, ensure_csrf(request), problem, form)
            + listing
        )

    def _game_html(self, game: str) -> str:
        bots = self.book.latest(game)
        title = GAME_TITLES.get(game, game)
        if not bots:
            return f"<h2>{e(title)}: ladder standings</h2><p>No bot uploaded yet.</p>"
        known = {s.name: s for s in self.hall.records.standings(game)}
        ranked = sorted(bots, key=lambda b: _ladder_key(known.get(b.name), b.name))
        rows = [
            [
                f'<a href="/bots/{quote(b.name)}">{e(b.name)}</a>',
                *_standing_cells(known.get(b.name)),
                f"v{b.version}",
                e(LANGUAGES[b.language].label),
                e(b.owner),
            ]
            for b in ranked
        ]
        heads = ["Bot", "Games", "Wins", "Rating (95 % interval)", "Version", "Language", "Author"]
        return (
            f"<h2>{e(title)}: ladder standings</h2>"
            "<p class=\"muted\">The rating is OpenSkill's, as every player's in the hall: "
            "μ ± 1.96 σ. A bot without games is unrated; the ladder plays the least certain "
            "first.</p>" + table(heads, rows)
        )

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
        standings = await run_in_threadpool(self.hall.records.standings, versions[0].game)
        standing = next((s for s in standings if s.name == name), None)
        person = person_of(request)
        mine = person is not None and person == versions[0].owner
        token = None
        held = session_of(request).pop("new_bot_token", None)
        if mine and isinstance(held, list) and len(held) == 2 and held[0] == name:
            token = str(held[1])
        play = self._play_html(request, versions[0], person, "")
        body = _bot_html(versions, runs, mine, token, standing, play)
        return self._respond(f"Bot {name}", body)

    def _play_html(
        self, request: Request, bot: Submission, person: str | None, problem: str
    ) -> str:
        """The bot page's "Play this bot" (a signed-in person; the hall runs its ladder)."""
        title = GAME_TITLES.get(bot.game, bot.game)
        head = '<section id="play-bot"><h2>Play a game against it</h2>'
        if self.hall.submitted is None or bot.game not in PLAY_PAGES:
            return (
                head + "<p>This hall does not run submitted bots now (it runs them with "
                "<code>herna serve --ladder</code>).</p></section>"
            )
        if person is None:
            here = quote(f"/bots/{bot.name}")
            return (
                head + f'<p><a href="/signin?next={here}">Sign in</a> to play a game of '
                f"{e(title)} against this bot.</p></section>"
            )
        note = f'<p class="error" role="alert">{e(problem)}</p>' if problem else ""
        return (
            head + f"<p>A game of {e(title)} against its newest version (v{bot.version}), "
            "run in the sandbox as in its ladder games.</p>"
            + note
            + f'<form method="post" action="/bots/{quote(bot.name)}/play">'
            f'<input type="hidden" name="csrf" value="{e(ensure_csrf(request))}">'
            '<button type="submit" id="play-bot-button">Play this bot</button></form></section>'
        )

    async def play(self, request: Request) -> Response:
        """A signed-in person challenges the bot: the hall's runner sits it down with a
        challenge to them, and their play page challenges it (the lobby pairs the two)."""
        name = request.path_params["bot"]
        person = person_of(request)
        try:
            await read_form(request)  # same origin, this session's CSRF token
            if person is None:
                raise FormError(403, "Sign in to play a bot.")
        except FormError as exc:
            return self._respond(
                "Not allowed",
                f'<h1>Not allowed</h1><p class="error">{e(exc.message)}</p>',
                exc.status,
            )
        versions = await run_in_threadpool(self.book.versions, name)
        if not versions:
            return self._respond("No such bot", "<h1>No such bot</h1>", 404)
        bot = versions[0]
        runner = self.hall.submitted
        why = (
            "This hall does not run submitted bots now."
            if runner is None or bot.game not in PLAY_PAGES
            else runner.challenge(bot, person)
        )
        if why is not None:
            body = f"<h1>{e(bot.name)}</h1>" + self._play_html(request, bot, person, why)
            return self._respond(f"Bot {name}", body, 503)
        return RedirectResponse(play_url(bot.game, f"person,challenge={bot.name}"), 303)

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


def person_of(request: Request) -> str | None:
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


def _ladder_key(standing: Standing | None, name: str) -> tuple[float, str]:
    """Best first: by the conservative rating (μ − 3σ), the unrated last."""
    ordinal = standing.ordinal if standing is not None else None
    return (-ordinal if ordinal is not None else float("inf"), name.casefold())


def _standing_cells(standing: Standing | None) -> list[str]:
    """Games, wins and the rating with its 95 % interval (μ ± 1.96 σ)."""
    if standing is None or standing.mu is None or standing.sigma is None:
        return ["0", "0", "unrated"]
    low, high = standing.mu - Z95 * standing.sigma, standing.mu + Z95 * standing.sigma
    return [
        str(standing.games),
        str(standing.wins),
        f"{standing.mu:.1f} ({low:.1f} to {high:.1f})",
    ]


def _bot_html(
    versions: list[Submission],
    runs: list[BotRun],
    mine: bool,
    token: str | None,
    standing: Standing | None = None,
    play: str = "",
) -> str:
    newest = versions[0]
    title = GAME_TITLES.get(newest.game, newest.game)
    games, wins, rating = _standing_cells(standing)
    parts = [
        f"<h1>{e(newest.name)}</h1>",
        f'<p class="lead">A submitted {e(title)} bot by {e(newest.owner)}; the hall runs it '
        "in its sandbox and it plays under this name.</p>",
        f'<p id="bot-standing">Latest version: <strong>v{newest.version}</strong> '
        f"({e(LANGUAGES[newest.language].label)}, uploaded {_when(newest)}). "
        f"Games: {games}, wins: {wins}, rating: {e(rating)}.</p>",
        play,
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
        "<h2>Versions</h2>" + table(["Version", "Language", "File", "Size", "Uploaded"], rows)
    )
    parts.append("<h2>Recent games</h2>")
    if not runs:
        parts.append("<p>No game yet: the hall plays submitted bots when it runs its ladder.</p>")
    else:
        heads = ["Version", "Opponent", "Result", "How it ended", "When"]
        parts.append(
            table([*heads, "Its log"] if mine else heads, [_run_row(r, mine) for r in runs])
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


def table(heads: list[str], rows: list[list[str]]) -> str:
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
