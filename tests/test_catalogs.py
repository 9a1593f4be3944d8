"""The message catalogs: every message in both languages with the same placeholders, plural forms that agree
with their count, and no user-visible word outside the catalogs."""
import ast
import gettext
import io
import re
import string
from pathlib import Path

import pytest

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from hypothesis import given, settings, strategies as st

from engine import catalogs, mofile
from engine.games import GAMES, LOCALE
from engine.words import LANGUAGES, SHARED, as_json, catalog, lookup, say

ROOT = Path(__file__).parent.parent
DOMAINS = (SHARED, *GAMES)


def messages(language, domain):
    """The messages of a .po (the source): what people edit, whose compiled .mo the box reads."""
    folder = GAMES[domain].locale if domain in GAMES else LOCALE
    with open(folder / language / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
        parsed = read_po(po, locale=language, domain=domain)
    return {(m.context, m.id[0] if m.pluralizable else m.id): m for m in parsed if m.id}


@pytest.mark.parametrize("po", catalogs.sources(), ids=lambda po: str(po.relative_to(ROOT)))
def test_every_compiled_catalog_is_that_of_its_po(po):
    """The box reads the .mo: one left behind by an edit of its .po would show yesterday's words."""
    assert not catalogs.is_stale(po), "run `make catalogs`"


def copied(tmp_path, po_text=lambda text: text, mo_bytes=None):
    """The shared Italian catalog copied into `tmp_path`: its .po through `po_text`, its .mo as `mo_bytes` (the
    committed one by default). Returns the copy's .po."""
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = LOCALE / "it" / "LC_MESSAGES" / "arbitro.po"
    (folder / "arbitro.po").write_bytes(po_text(po.read_bytes()))
    (folder / "arbitro.mo").write_bytes(po.with_suffix(".mo").read_bytes() if mo_bytes is None else mo_bytes)
    return folder / "arbitro.po"


def test_a_stale_catalog_is_found_and_compiled_again(tmp_path):
    po = copied(tmp_path, lambda text: text.replace(b'msgstr "Arbitro"', b'msgstr "Arbitra"'))
    assert catalogs.is_stale(po)
    assert catalogs.main([str(tmp_path)]) == 0
    assert not catalogs.is_stale(po)
    assert mofile.read(po.with_suffix(".mo")).messages["box", "title"] == "Arbitra"


def test_a_plural_rule_changed_in_the_po_makes_its_catalog_stale(tmp_path):
    assert catalogs.is_stale(copied(tmp_path, lambda text: text.replace(b"plural=(n != 1)", b"plural=(n > 1)")))


def test_a_catalog_whose_plural_table_is_not_its_rules_is_stale(tmp_path):
    """The table is what the box and the phones read: one left behind by an edit of the rule, or changed by hand,
    would give counts the wrong form."""
    po = LOCALE / "it" / "LC_MESSAGES" / "arbitro.po"
    other = catalogs.compiled(po).replace(b"X-Plural-Table: head 1 0; cycle 1", b"X-Plural-Table: head 0 0; cycle 1")
    assert other != catalogs.compiled(po)
    assert catalogs.is_stale(copied(tmp_path, mo_bytes=other))


def test_a_catalog_compiled_without_its_plural_table_is_stale_and_refused_by_the_box(tmp_path):
    """As Babel alone compiles it (and as every .mo was before the tables): the box says how to mend it."""
    source = LOCALE / "it" / "LC_MESSAGES" / "arbitro.po"
    with source.open("rb") as data:
        plain = io.BytesIO()
        write_mo(plain, read_po(data, locale="it", domain=SHARED))
    po = copied(tmp_path, mo_bytes=plain.getvalue())
    assert catalogs.is_stale(po)
    with pytest.raises(ValueError, match=r"arbitro.mo has no plural table \(X-Plural-Table\): compile it with "
                                         r"`make catalogs`"):
        mofile.read(po.with_suffix(".mo"))
    assert catalogs.main([str(tmp_path)]) == 0 and not catalogs.is_stale(po)


@pytest.mark.parametrize("expr", ["(n > 5000)", Catalog(locale="it").plural_expr])
def test_a_plural_rule_that_makes_no_table_stops_the_compile_by_name(tmp_path, capsys, expr):
    """A rule whose forms settle late, or repeat only every million counts (CLDR's newer Italian: a million is
    "many", Babel's rule for it), makes no short table: the compile says which .po and why, and writes nothing."""
    po = copied(tmp_path, lambda text: text.replace(b"nplurals=2; plural=(n != 1)",
                                                    f"nplurals=3; plural={expr}".encode()))
    before = po.with_suffix(".mo").read_bytes()
    assert catalogs.main([str(tmp_path)]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"error: {po}: the plural rule {expr!r} makes no table") and "cycle" in said
    assert po.with_suffix(".mo").read_bytes() == before


# Rules other languages' catalogs use (Babel's, from CLDR): each has a short table, which gives every count the
# rule's form. Russian and Polish read the last two digits, Arabic has six forms, Irish five up to 10.
OTHER_LANGUAGES = ("ru", "pl", "ar", "sl", "ja", "lt", "ga", "cy", "mt", "en")


def rule(language):
    """The plural rule of `language`'s catalogs (Babel's), evaluated as gettext does."""
    return getattr(gettext, "c2py")(Catalog(locale=language).plural_expr)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_languages_plural_rule_makes_a_short_table_that_agrees_with_it(language):
    table = catalogs.plural_table(Catalog(locale=language).plural_expr)
    assert len(table.head) <= 11 and len(table.cycle) in (1, 100)
    assert [table(n) for n in range(3000)] == [rule(language)(n) for n in range(3000)]
    assert mofile.PluralTable.parse(str(table)) == table


@settings(deadline=None)  # the first example works the tables out
@given(st.sampled_from(OTHER_LANGUAGES), st.integers(min_value=0, max_value=10 ** 30))
def test_a_tables_form_of_any_count_is_the_rules(language, n):
    assert catalogs.plural_table(Catalog(locale=language).plural_expr)(n) == rule(language)(n)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_of_a_language_has_one_plural_table(language):
    """The phones read the shared catalog's table for every domain's plural messages."""
    assert {catalog(language, domain).plural for domain in DOMAINS} == {catalog(language, SHARED).plural}


def test_the_same_messages_written_by_another_babel_are_not_stale(tmp_path):
    """Another Babel version writes the same catalog in other bytes (its header names it): not a stale one."""
    po = LOCALE / "it" / "LC_MESSAGES" / "arbitro.po"
    other = catalogs.compiled(po).replace(b"Generated-By: Babel 2.", b"Generated-By: Babel 9.")  # same length
    assert other != catalogs.compiled(po)
    assert not catalogs.is_stale(copied(tmp_path, mo_bytes=other))


@pytest.mark.parametrize("po", catalogs.sources(), ids=lambda po: str(po.relative_to(ROOT)))
def test_the_box_reads_every_catalog_as_babels_public_reader_does(po):
    """engine/mofile.py reads the .mo format itself (the box's start): it must agree with Babel's read_mo."""
    mo = po.with_suffix(".mo")
    with mo.open("rb") as data:
        babel = read_mo(data)
    expected = {(m.context, m.id[0] if m.pluralizable else m.id): list(m.string) if m.pluralizable else m.string
                for m in babel if m.id}
    ours = mofile.read(mo)
    assert ours.messages == expected
    assert ours.plural_expr == babel.plural_expr
    assert [ours.plural(n) for n in range(200)] == [eval(babel.plural_expr, {"n": n}) * 1 for n in range(200)]
    assert ours.header["x-plural-table"] == str(catalogs.plural_table(babel.plural_expr))


def test_a_file_that_is_no_catalog_is_refused_by_name(tmp_path):
    (tmp_path / "x.mo").write_bytes(b"not a catalog at all")
    with pytest.raises(ValueError, match="x.mo is not a compiled message catalog"):
        mofile.read(tmp_path / "x.mo")


def placeholders(text):
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_in_both_languages_with_the_same_placeholders(domain):
    it, en = messages("it", domain), messages("en", domain)
    assert sorted(set(it) ^ set(en), key=str) == []
    for key, message in it.items():
        forms = {lang: m.string if m.pluralizable else (m.string,) for lang, m in (("it", message), ("en", en[key]))}
        assert message.pluralizable == en[key].pluralizable, key
        assert all(form for lang in forms for form in forms[lang]), (key, "an empty translation")
        found = {placeholders(form) for lang in forms for form in forms[lang]}
        if message.pluralizable:  # a form may leave the count implicit ("un'azione"), never another placeholder
            found = {names - {"n"} for names in found}
        assert len(found) == 1, (key, forms)


@pytest.mark.parametrize(("language", "domain", "context", "key", "forms"), [
    ("it", "leader1", "box", "spaces:1", "1 casella"), ("it", "leader1", "box", "spaces:2", "2 caselle"),
    ("en", "leader1", "box", "spaces:1", "1 space"), ("en", "leader1", "box", "spaces:12", "12 spaces"),
    ("it", "lifeboats", "phone", "leaks_left", ("1 falla da piazzare", "2 falle da piazzare")),
    ("it", "lifeboats", "phone", "free_n", ("1 libero", "2 liberi")),
    ("it", "ponte", "phone", "cards", ("1 carta", "5 carte")),
    ("en", "ponte", "phone", "cards", ("1 card", "5 cards")),
])
def test_plural_forms_agree_with_their_count(language, domain, context, key, forms):
    if isinstance(forms, str):
        assert lookup(language, domain, context, key) == forms
    else:
        assert lookup(language, domain, context, key, n=1) == forms[0]
        assert lookup(language, domain, context, key, n=int(forms[1][0])) == forms[1]


def test_the_phone_gets_every_message_and_the_plural_rule():
    words = as_json("it", DOMAINS)
    assert words["plural"] == {"head": [1, 0], "cycle": [1]}  # (n != 1)
    assert "new Function" not in (ROOT / "web_companion" / "static" / "phone.js").read_text()
    assert words["ponte"]["phone"]["cards"] == ["{n} carta", "{n} carte"]
    assert words[SHARED]["box"]["yes"] == "sì"
    assert sum(len(c) for d in DOMAINS for c in words[d].values()) == sum(len(messages("it", d)) for d in DOMAINS)


def test_a_missing_message_is_none_and_said_as_its_id():
    assert lookup("it", SHARED, "box", "no such message") is None
    assert say("it", SHARED, "box", "no_such_message") == "no_such_message"


WORDS_IN_JS = re.compile(r"""(["'`])([A-Za-zÀ-ÿ][a-zà-ÿ]+ [a-zà-ÿ]+[^"'`]*)\1""")


SCRIPTS = sorted([*ROOT.glob("web_companion/static/*.js"), *ROOT.glob("games/*/static/*.js")])


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_sentence_is_written_in_the_phone_scripts(path):
    """The scripts word everything through the catalogs: a quoted string of words would reach a phone as it is,
    in one language. Comments, "use strict" and class attributes aside."""
    code = "\n".join(line.split("//")[0] for line in path.read_text(encoding="utf-8").splitlines())
    code = re.sub(r"\$\{[^}]*\}", "", code.replace('"use strict"', ""))
    code = re.sub(r"class: [^,}]*", "", code)
    assert [m[2] for m in WORDS_IN_JS.finditer(code)] == []


def test_no_sentence_is_written_in_the_templates():
    for path in ROOT.glob("web_companion/templates/*.html"):
        text = re.sub(r"{[{%].*?[%}]}|<[^>]*>", " ", path.read_text(encoding="utf-8"))
        assert re.findall(r"[A-Za-zÀ-ÿ]+ [a-zà-ÿ]+", text) == [], path.name


def refusals_raised():
    """(domain, id) of every refusal the code raises by a literal id: a game's own (`refuse` in a module of its
    folder, games/<name>/) or the shared ones (`shared`, and the web side's `fail`)."""
    found = set()
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("device/*.py"), *ROOT.glob("web_companion/*.py"),
                 *ROOT.glob("games/*/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = path.parent.name if path.parent.parent.name == "games" else SHARED
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.args:
                keys = [a.value for a in ast.walk(call.args[0]) if isinstance(a, ast.Constant)
                        and isinstance(a.value, str)]
                if call.func.id in ("refuse", "shared"):
                    found |= {(own if call.func.id == "refuse" else SHARED, k) for k in keys}
                if call.func.id == "fail" and path.parent.name == "web_companion" and len(call.args) > 1:
                    found |= {(SHARED, a.value) for a in call.args[1:2] if isinstance(a, ast.Constant)}
    return found


def test_every_refusal_the_code_raises_is_in_the_catalogs():
    raised = refusals_raised()
    assert len(raised) > 140
    missing = [(d, k) for d, k in raised if ("refusal", k) not in messages("it", d)]
    assert missing == []


def test_an_italian_phone_reads_the_rules_reason_in_italian():
    from engine.rules import Rejected
    from games.shangrila import rules as shangrila
    from engine.words import render
    state = shangrila.setup(3)
    state = state._replace(phase=shangrila.PLAY, to_act=1, spaces=tuple(
        tuple((1, 0) if (v, k) == (7, 2) else shangrila.EMPTY for k in range(7)) for v in range(13)))
    with pytest.raises(Rejected) as refused:
        shangrila.apply(state, {"seat": 1, "choose": {"recruit": [["custode_del_fuoco", 7]]}})
    assert render("it", refused.value.message) == ("il maestro di Custode del fuoco del giocatore 2 nel villaggio 8 "
                                                   "ha già uno studente")
    assert str(refused.value) == "the Firekeeper master of player 2 in village 8 already has a student"


COMMAND_NAME = re.compile(r"[Aa]rbitro [a-z]+(: )?")
NOT_OURS = {"Client disconnected"}  # waitress's words: its log lines are matched, not said


def prose(path, skip=("summary",)):
    """String constants of `path` that read as words: docstrings, the commands' names and the replay's text
    `summary` (a developer's check, in English; `--json` is what the replay promises) aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    skipped = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name in skip
               for inner in ast.walk(node)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings | skipped and re.search(r"[A-Za-z]{2,} [a-z]{2,}", node.value)
            and not COMMAND_NAME.fullmatch(node.value) and node.value not in NOT_OURS]


@pytest.mark.parametrize("name", ["cli.py", "doctor.py"])
def test_what_builders_read_in_a_terminal_is_in_the_catalogs(name):
    """Every sentence of the commands is a `cli` message; each one they name is in both catalogs."""
    path = ROOT / "device" / name
    assert prose(path) == []
    named = {call.args[0].value for call in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "said" and call.args
             and isinstance(call.args[0], ast.Constant)}
    assert len(named) > 20
    assert [key for key in sorted(named) if ("cli", key) not in messages("it", SHARED)] == []


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "it_IT.UTF-8"}, "it"), ({"LANGUAGE": "it:en", "LANG": "en_GB.UTF-8"}, "it"),
    ({"LC_ALL": "C.UTF-8", "LANG": "it_IT.UTF-8"}, "en"), ({"LC_MESSAGES": "it_CH"}, "it"), ({}, "en"),
    ({"LANGUAGE": "fr_FR:it_IT"}, "it"), ({"LANGUAGE": "fr:C:it"}, "en"), ({"LANG": "it_IT@euro"}, "it")])
def test_the_terminal_language_is_the_one_gettext_would_find(environ, language):
    """The commands' own words and argparse's (which gettext finds itself) are in one language."""
    import gettext
    from device.texts import terminal_language
    assert terminal_language(environ) == language
    first = next((environ[name] for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    found = gettext.find("argparse", LOCALE, first.split(":") if first else [])  # as gettext reads the environment
    assert (found and Path(found).parent.parent.name or "en") == language


def test_every_storage_error_the_engine_raises_is_in_the_catalogs():
    """The journal's, the backups' and the side files' errors are `storage` messages, said in a terminal's
    language (device/cli.py); str() is the English."""
    named = {call.args[0].value for path in ROOT.glob("engine/*.py")
             for call in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "stored"
             and isinstance(call.args[0], ast.Constant)}
    assert len(named) > 30
    assert [key for key in sorted(named) if ("storage", key) not in messages("it", SHARED)] == []
    from engine.journal import JournalError
    from engine.worded import stored
    error = JournalError(stored("data_unusable", directory="/x", error="E", fix=stored("data_fix")))
    assert error.said("it").startswith("non riesco a usare la cartella dei dati /x (E): rendila usabile")
    assert str(error).startswith("cannot use the data directory /x (E): make it")


def test_make_catalogs_compiles_every_games_catalogs():
    """Defect: when the games moved to their folders, `make catalogs` still looked only under engine/ and tests/."""
    compiled = set(catalogs.sources())
    for game in GAMES.values():
        for language in ("it", "en"):
            assert game.locale / language / "LC_MESSAGES" / f"{game.name}.po" in compiled
