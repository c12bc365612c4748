"""What a claim says a named symbol does (kind ``action``): a verb no check reads keeps the
claim from ``consistent``; claims made only of covered kinds are unaffected. And "no longer"
as a consequence is not a note about the API's past."""

from __future__ import annotations

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.tense import speaks_of_past
from caas_tui.review.static.findings import ok, verdict_for
from caas_tui.review.static.wording.assertions import unchecked_note
from caas_tui.review.static.wording.effects import Action, action_of


def act(text: str, path: str = "docs/guide.md", section: str | None = None, kind: str = "prose") -> Action | None:
    return action_of(Claim("x", path, 1, 1, text, kind, section=section))


def test_a_verb_of_a_named_subject_is_an_action() -> None:
    assert act("`Cache.put` stores a value under a key.") == Action("Cache.put", "stores a value under a key")
    assert act("`Scene.connect(a, b)` links things.") == Action("Scene.connect", "links things")
    assert act("The `pool` object closes every connection.") == Action("pool", "closes every connection")
    assert act("- `put(key, value)` — writes the value.") == Action("put", "writes the value")
    assert act("`x` will close the pool.") == Action("x", "will close the pool")
    # a verb joined to a judged one, with the same subject
    assert act("`Cache.get` returns `None` and logs a warning.") == Action("Cache.get", "logs a warning", joined=True)


def test_verbs_a_check_covers_are_not_actions() -> None:
    for text in (
        "`Cache.get(key)` returns the value for `key`.",
        "`Cache.get` raises `KeyError` for a missing key.",
        "`Map` takes a `fn` and an `iterable`.",
        "`Registry.add` accepts a name.",
        "`Scene` subclasses `Base`.",
        "`rows` yields one tuple per line.",
        "`Cache.get` lives in `cache.py`.",
        "`queue.events` is a `Bus`.",
        "`hook` is called once per step.",
        "`Cache.get` returns keys and values.",  # "and values": a noun, not a second verb
        "`Cache` keys are strings.",  # a plural noun after the name
        "Use `Cache.put` to store values.",  # the reader's action, not the name's
        "`LineSource` can strip the spaces.",  # a capability, left to the other kinds
    ):
        assert act(text) is None, text


def test_a_sentence_about_its_own_symbol() -> None:
    assert act("Stores the value under ``key``.", "pkg/cache.py", "Cache.put") == \
        Action("Cache.put", "stores the value under ``key``")
    assert act("Close the pool and its sockets.", "pkg/pool.py", "Pool.close") == \
        Action("Pool.close", "close the pool and its sockets")
    assert act("Stores the value.", section="API > `Cache.put(key, value)`") == Action("Cache.put", "stores the value")
    assert act("See the ``get`` docs.", "pkg/cache.py", "Cache.put") is None
    assert act("Pass the key.", section="API > `Cache.put(key, value)`") is None  # an instruction to the reader
    assert act("Settings for the app.", "pkg/cache.py", "Cache") is None
    assert act("Usually it is not needed.", "pkg/cache.py", "pkg.unstyle") is None  # an adverb, not a verb
    assert act("Lights and cameras.", "pkg/lights.py", "pkg.lights") is None  # "and" is no article
    assert act("What one :meth:`Pipeline.run` did.", "pkg/p.py", "pkg.Result") is None
    # a class's docstring speaks to the reader in the imperative; a function's states its effect
    assert act("Add it to a scene with :meth:`pkg.Scene.add`.", "pkg/e.py", "pkg.Entity") is None
    assert act("Spawn an entity with a :class:`~pkg.shapes.Box` mesh.", "pkg/u.py", "pkg.make_box") == \
        Action("pkg.make_box", "spawn an entity with a :class:`~pkg.shapes.Box` mesh")
    assert act(":param key: stores the key.", kind="field") is None
    assert act("cache.put(k, v)", kind="code") is None


def _verdict(text: str, *aspects: str) -> tuple[str, str, tuple[str, ...]]:
    claim = Claim("x", "docs/guide.md", 1, 1, text, "prose")
    span = EvidenceSpan("pkg/cache.py", 1, 2)
    findings = [ok("`Cache.put` exists", span)] + [ok(f"{a} holds", span, aspect=a) for a in aspects]
    v = verdict_for(claim, findings, [text])
    return v.verdict, v.rationale, v.coverage


def test_an_action_keeps_a_names_only_claim_unverified_and_says_what() -> None:
    label, why, cover = _verdict("`Cache.put` stores a value under a key.")
    assert label == "unverified"
    assert why.startswith("names checked; what `Cache.put` does (“stores a value under a key”) was not"), why
    assert cover == ("names:checked", "action:unchecked")
    # a claim of covered kinds only stays green when its checks hold
    label, why, cover = _verdict("`Cache.get(key)` returns `None`.", "returns")
    assert label == "consistent" and "action:unchecked" not in cover, why
    label, why, _ = _verdict("`Cache.get` returns `None` and logs a warning.", "returns")
    assert label == "unverified" and "“logs a warning”" in why and "return behaviour" not in why.split(";")[1], why


def test_unchecked_note_names_the_subject_or_it() -> None:
    assert unchecked_note({"names"}, {"action"}, (), ("X", "closes the pool")) == \
        "names checked; what `X` does (“closes the pool”) was not"
    assert unchecked_note({"names"}, {"action"}, (), ("", "closes the pool")) == \
        "names checked; what it does (“closes the pool”) was not"


def test_no_longer_as_a_consequence_is_not_the_apis_past() -> None:
    assert not speaks_of_past(
        "Calling :meth:`pkg.Scene.destroy` removes the entity from the scene at once,\n"
        "so ``len(scene)`` drops immediately and the systems that run later no longer see it."
    )
    assert not speaks_of_past("While it waits, the crate no longer shows up in `scene.active_entities`.")
    assert not speaks_of_past("`close` drops the socket and the pool no longer hands it out.")
    # the API as the clause's subject: still a note about what it was
    assert speaks_of_past("`x` is no longer needed")
    assert speaks_of_past("It no longer accepts `y`.")
    assert speaks_of_past("The `strict` argument is no longer supported.")
    assert speaks_of_past("No longer used.")
