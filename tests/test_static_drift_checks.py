"""Checks for the drift real projects show between their guides and newer code: keyword
arguments in decorator calls (in prose and code blocks), bare names a guide uses as the
package exports them, parameters and attributes named in words, bare cross-references to
names the project binds nowhere, and the words that make a dotted name a settings key.

A small serialisation package written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.claims.nonpython import classified_as_non_python, written_as_data
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from tests.conftest import verdict_containing as by_text

from .conftest import write

PACKAGE = {
    "forms/__init__.py": '''
        """Serialisation with schemas."""
        from forms.decorators import post_dump, pre_load
        from forms.schema import Schema
        ''',
    "forms/decorators.py": '''
        from collections.abc import Callable
        from typing import Any


        def pre_load(fn: Callable[..., Any] | None = None, *, pass_collection: bool = False) -> Callable[..., Any]:
            return fn or (lambda f: f)


        def post_dump(fn: Callable[..., Any] | None = None, **options: Any) -> Callable[..., Any]:
            return fn or (lambda f: f)
        ''',
    "forms/schema.py": '''
        from abc import ABCMeta
        from typing import Any

        SETTINGS = {"strict_mode": False}


        class SchemaMeta(ABCMeta):
            def __new__(mcs, name, bases, attrs):
                klass = super().__new__(mcs, name, bases, attrs)
                klass._declared_fields = dict(attrs)
                return klass


        class LooseMeta(type):
            def __new__(mcs, name, bases, attrs):
                klass = super().__new__(mcs, name, bases, attrs)
                for key in attrs.get("extra", ()):
                    setattr(klass, key, None)
                return klass


        class Loose(metaclass=LooseMeta):
            pass


        class Schema(metaclass=SchemaMeta):
            def __init__(self, *, many: bool = False, partial: bool | None = None) -> None:
                self.many = many
                self.partial = partial

            def load(self, data: dict[str, Any], *, partial: bool | None = None) -> dict[str, Any]:
                return dict(data)


        def helper(a: int, b: int) -> int:
            return a + b
        ''',
}

DOCS = {
    "docs/hooks.rst": """
        Hooks
        =====

        ``@pre_load(pass_many=True)`` methods run first.

        ``@pre_load(pass_collection=True)`` methods run once per collection.

        ``@post_dump(anything=True)`` methods pass their options on.

        .. code-block:: python

            from forms import Schema, pre_load

            class UserSchema(Schema):
                @pre_load(pass_many=True)
                def unwrap(self, data, many, **kwargs):
                    return data

        The ``strict`` parameter of `Schema.load` turns warnings into errors.

        The ``partial`` parameter of `Schema.load` skips required fields.

        The ``anything`` parameter of `post_dump` is passed on.

        The ``context`` attribute of a `Schema` holds extra data.

        The ``many`` attribute of a `Schema` says whether it handles collections.

        The ``_declared_fields`` attribute of a `Schema` maps names to fields.

        The ``anything`` attribute of a `Loose` is set by its metaclass.

        ``forms.strict_mode`` rejects unknown fields.

        Use :func:`contextfilter` to see the context.

        :func:`len` of the result is the number of fields.

        The hook calls :func:`my_view` defined below.

        .. code-block:: python

            def my_view(request):
                return request

        Set the ``forms.strict_mode`` setting to reject unknown fields.

        The chain looks like this::

            INGRESS (implicit)
            forms.schema.helper (implicit)
            MAIN (implicit)
        """,
    "docs/later.rst": """
        Later
        =====

        A block that uses the decorator without importing it:

        .. code-block:: python

            class Other(Schema):
                @pre_load(pass_many=True)
                def unwrap(self, data, many, **kwargs):
                    return data

        A block that defines its own decorator of that name:

        .. code-block:: python

            def pre_load(**options):
                return lambda f: f

            @pre_load(pass_many=True)
            def hook(data):
                return data

        .. currentmodule:: forms.schema

        :class:`Schema` and :func:`helper` live here.

        The :func:`upper` filter of the templates changes case.

        Hooks are registered with :func:`post_dump`.

        .. currentmodule:: forms

        Schemas call :func:`decorator` first.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("drift") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def hooks(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/hooks.rst", StaticReviewer()).pairs()


@pytest.fixture(scope="module")
def later(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/later.rst", StaticReviewer()).pairs()




FLAGS = ("contradicted", "incomplete")


def test_decorator_call_in_prose_is_checked_against_the_signature(hooks: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(hooks, "``@pre_load(pass_many=True)``")
    assert v.verdict == "contradicted"
    assert "`pre_load` has no parameter `pass_many`" in v.rationale
    assert by_text(hooks, "``@pre_load(pass_collection=True)``").verdict not in FLAGS


def test_kwargs_forwarding_makes_a_keyword_uncheckable(hooks: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(hooks, "``@post_dump(anything=True)``").verdict == "unverified"
    assert by_text(hooks, "The ``anything`` parameter").verdict == "unverified"


def test_decorators_in_code_blocks_are_calls(hooks: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(hooks, "class UserSchema(Schema)")
    assert v.verdict == "contradicted"
    assert "`pre_load` has no parameter `pass_many`" in v.rationale


def test_a_bare_name_in_a_block_is_what_the_package_exports(later: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(later, "class Other(Schema)")
    assert v.verdict == "contradicted" and "pass_many" in v.rationale
    # the block's own ``pre_load`` is not the package's
    assert by_text(later, "def pre_load(**options)").verdict not in FLAGS


def test_parameters_named_in_prose(hooks: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(hooks, "The ``strict`` parameter")
    assert v.verdict == "contradicted"
    assert "`Schema.load` has no parameter `strict`" in v.rationale
    assert by_text(hooks, "The ``partial`` parameter").verdict not in FLAGS


def test_attributes_named_in_prose(hooks: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(hooks, "The ``context`` attribute")
    assert v.verdict == "contradicted"
    assert "`Schema` has no attribute `context`" in v.rationale
    assert by_text(hooks, "The ``many`` attribute").verdict not in FLAGS
    # the metaclass stores it on every schema class
    assert by_text(hooks, "The ``_declared_fields`` attribute").verdict not in FLAGS
    # a metaclass that adds names by ``setattr`` makes every name possible
    assert by_text(hooks, "The ``anything`` attribute of a `Loose`").verdict not in FLAGS


def test_bare_roles_to_names_bound_nowhere(hooks: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(hooks, ":func:`contextfilter`")
    assert v.verdict == "contradicted"
    assert "`contextfilter` is not defined anywhere in the project" in v.rationale
    assert by_text(hooks, ":func:`len`").verdict not in FLAGS
    assert by_text(hooks, ":func:`my_view`").verdict not in FLAGS  # the guide defines it


def test_settings_keys_and_diagrams_are_not_symbols(hooks: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(hooks, "``forms.strict_mode`` setting").verdict not in FLAGS
    assert by_text(hooks, "``forms.strict_mode`` rejects").verdict not in FLAGS  # a key the code reads
    assert by_text(hooks, "INGRESS (implicit)").verdict not in FLAGS


def test_words_around_a_name_that_make_it_data() -> None:
    text = "Set the ``pkg.reload_all`` setting, and every setting that starts with ``pkg.debug_``."
    first = text.index("``pkg.reload_all``")
    second = text.index("``pkg.debug_``")
    assert classified_as_non_python(text, first)
    assert classified_as_non_python(text, second)
    assert not classified_as_non_python("Call ``pkg.reload_all`` to reload.", 5)
    assert written_as_data("pkg.includes", "[app:main]\npkg.includes = pkg_tb\n")
    assert not written_as_data("pkg.includes", "pkg.includes(config)\n")


def test_a_decorator_in_a_code_span_is_a_mention() -> None:
    (m,) = [m for m in find_mentions("``@pre_load(pass_many=True)`` methods") if m.origin == "code"]
    assert m.name == "pre_load" and m.called


def test_bare_roles_resolve_in_the_current_module(later: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(later, ":class:`Schema` and :func:`helper`").verdict not in FLAGS
    v = by_text(later, "registered with :func:`post_dump`")
    assert v.verdict == "contradicted"
    assert "`forms.schema.post_dump` does not exist" in v.rationale
    assert "did you mean `forms.decorators.post_dump`?" in v.rationale  # the same symbol, qualified
    assert by_text(later, ":func:`upper` filter").verdict not in FLAGS  # a template filter, not a function


def test_did_you_mean_never_offers_a_module_for_an_object(later: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(later, ":func:`decorator` first")  # ``forms.decorators`` is a module, not the function meant
    assert v.verdict == "contradicted"
    assert "`forms.decorator` does not exist" in v.rationale and "decorators" not in v.rationale
