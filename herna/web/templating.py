"""The web hall's Jinja2 templates (``herna/web/templates/``): autoescaped, with gettext.

Python passes data and a template makes the markup. Messages go through ``jinja2.ext.i18n``
bound to the catalog of the page's language (:mod:`herna.web.i18n`): ``{% trans %}`` blocks
and ``_("...")`` calls, which ``pybabel extract`` finds (babel.cfg). A page is a body template
rendered into ``layout.html`` (:func:`herna.web.pages.layout`); pages not yet moved to
templates hand ``layout.html`` their body as markup.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from markupsafe import Markup
from starlette.templating import Jinja2Templates

from herna.web import i18n

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


def url(path: str, **query: Any) -> str:
    """``path?query`` with the empty parameters left out."""
    params = {k: v for k, v in query.items() if v not in (None, "")}
    return path + ("?" + urlencode(params) if params else "")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=True,
        # Templates ship with the code: no look at their files' times on every render.
        auto_reload=False,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    # The callables look the language up per render (CURRENT_LOCALE), so one environment
    # serves every language; newstyle: %(name)s placeholders, and the result is escaped.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
    )
    env.filters["when"] = i18n.format_when
    env.filters["number"] = i18n.format_number
    env.filters["quote"] = lambda text: quote(str(text), safe="")
    env.globals["url"] = url
    env.globals["page_lang"] = i18n.CURRENT_LOCALE.get
    return env


TEMPLATES = Jinja2Templates(env=_environment())


def render(template: str, /, **context: Any) -> Markup:
    """A template of ``herna/web/templates/`` rendered in the page's language."""
    return Markup(TEMPLATES.get_template(template).render(**context))


def render_macro(template: str, macro: str, /, *args: Any) -> Markup:
    """One macro of a template rendered in the page's language: a piece that a page puts
    in a place of its own (a tournament's entry box, under the part its script refreshes)."""
    module = TEMPLATES.get_template(template).make_module()
    return Markup(getattr(module, macro)(*args))


def json_block(data: Any) -> Markup:
    """The page's data for its scripts, safe inside a ``<script type="application/json">``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # Nothing inside may close the script element.
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)
