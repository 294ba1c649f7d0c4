"""The web hall: pages, JSON API and live views fed by the event bus.

- :mod:`herna.web.plugin` — ``PLUGIN`` for ``herna serve`` (uvicorn in the same process and
  event loop as the game servers) and :class:`~herna.web.plugin.WebHall`, the service.
- :mod:`herna.web.app` — the Starlette routes (pages, ``/api``, ``/docs``, ``/ws/live``).
- :mod:`herna.web.live` — the hub between the EventBus and the browsers' WebSockets.
- :mod:`herna.web.folds` — per-game live views built from events (Mia).
- :mod:`herna.web.queries` — read-only database queries beyond the RecordStore's.
- ``static/`` — the page shell (``hall.js``, ``hall.css``) and per-game renderers
  (``static/games/<game>.js``). See docs/web.md.
"""
