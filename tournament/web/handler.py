"""One request handler for every page and API view, as Indico's RH.

A view declares what its URL loads, the policy that authorizes it, the form or
input it reads, and how a refusal renders; its body runs the one operation and
says what to show on success. The handler does the rest, the same way for
every view:

1. load: each loader (written once per kind of object, in its feature) reads
   the URL's values and sets what it loads on the handler (`rh.event`,
   `rh.round`, `rh.table`, `rh.reg`, ...); an unknown id is a 404;
2. authorize: the policy (a function of the feature's operations, the same
   one templates and the API call) answers True, or refuses;
3. read the input: the form is built and validated (a form that does not
   validate is refused with its errors next to its fields);
4. run the view's body. A refusal (tournament.errors.Refused) in 3-4 rolls
   the whole request back, loads the URL's objects again so the page shows
   what is stored, puts the message next to its form field when there is
   one, and renders the refusal as declared: the view's own renderer (the
   same page with the message), else a page message or JSON
   (tournament.web.error_response). A refusal in 1-2 (no such event, not
   staff) is always the app's page message or JSON.

The request lifecycle (tournament.web.lifecycle) commits once when the response is
under 400 and retries database conflicts; views never commit, roll back or
catch a refusal themselves (tests/test_layers.py checks that by AST).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable

from flask import g, request
from flask_babel import LazyString, lazy_gettext as _l

from ..errors import Forbidden, Refused
from ..extensions import db

EXPIRED = _l("This form has expired or did not come from this site. Reload the page and try again.")

Loader = Callable[["RH"], None]
Policy = Callable[["RH"], bool]
Renderer = Callable[["RH", Refused], Any]


class FormRefused(Refused):
    """A submitted form that did not validate: its errors are already next to its fields."""

    def __init__(self, form):
        expired = "csrf_token" in form.errors
        if expired:
            form.form_errors.append(str(EXPIRED))
        super().__init__(str(EXPIRED) if expired else form_error_text(form), status=400)
        self.expired = expired


def form_error_text(form) -> str:
    """A refused form's errors as one sentence (for a page message or JSON)."""
    if "csrf_token" in form.errors:
        return str(EXPIRED)
    return " ".join(dict.fromkeys(str(e) for errs in form.errors.values() for e in errs
                                  if isinstance(e, (str, LazyString))))


@dataclass
class RH:
    """One request being handled: the URL's values, what they loaded, the form, the user."""
    url: dict
    loaders: tuple = ()
    form: Any = None
    refused: Refused | None = None
    extra: dict = field(default_factory=dict)

    @property
    def user(self):
        return g.get("user")

    def __getattr__(self, name):
        try:
            return self.__dict__["extra"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        if name in self.__dataclass_fields__:
            object.__setattr__(self, name, value)
        else:
            self.extra[name] = value

    def load(self) -> None:
        for loader in self.loaders:
            loader(self)


def place_refusal(form, e: Refused) -> None:
    """The refusal's message next to its field of the form, else at the form's top."""
    if form is None or isinstance(e, FormRefused):
        return
    target = form._fields.get(e.field) if e.field else None
    if target is None and e.field == "decklist" and "upload" in form._fields:
        target = form._fields["upload"]
    if target is not None:
        target.errors = [*target.errors, e.message]
    elif e.message not in form.form_errors:
        form.form_errors.append(e.message)


def handler(*, load: tuple[Loader, ...] | Loader = (), policy: Policy | None = None,
            form: Callable[["RH"], Any] | None = None, refused: Renderer | None = None,
            validate: bool = True):
    """Declare a view: what its URL loads, who may use it, the form it reads, how a refusal renders.

    The decorated view takes the RH and returns its success response. `form(rh)` builds the form (posted data on
    a POST); with `validate`, a POST whose form does not validate is refused (400) before the body runs."""
    loaders = load if isinstance(load, tuple) else (load,)

    def decorate(view):
        @wraps(view)
        def wrapped(**url):
            rh = RH(url=url, loaders=loaders)
            rh.load()                       # an unknown id: the app's 404 page or JSON
            if policy is not None and not policy(rh):
                raise Forbidden()
            try:
                if form is not None:
                    rh.form = form(rh)
                    if validate and request.method == "POST" and not rh.form.validate_on_submit():
                        raise FormRefused(rh.form)
                return view(rh)
            except Refused as e:
                return _render_refusal(rh, e, refused)
        return wrapped
    return decorate


def _render_refusal(rh: RH, e: Refused, refused: Renderer | None):
    """Undo the request, load the URL's objects again (the page shows what is stored), render as declared."""
    db.session.rollback()
    rh.refused = e
    place_refusal(rh.form, e)
    if refused is None:
        raise e
    try:
        rh.load()
    except Refused:
        raise e from None
    try:
        return refused(rh, e)
    except Refused as again:            # rendering found another refusal (the form names a table that is gone)
        db.session.rollback()
        rh.refused = again
        return refused(rh, again)
