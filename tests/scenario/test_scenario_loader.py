"""Reading scenario files: bytes, YAML syntax, tags, the top level, the default, the schema."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap

from planner.scenario import (
    DEFAULT_SOURCE,
    Scenario,
    ScenarioError,
    default_scenario_text,
    load_default_scenario,
    load_scenario,
    load_scenario_document,
    load_scenario_text,
    load_scenario_text_document,
    loader,
    scenario_json_schema,
)
from planner.scenario.document import new_yaml

REPO = Path(__file__).resolve().parents[2]

MINIMAL = """\
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate:
  data_disks: 42
layouts:
  - raid: raid5
    group_size: 8
"""


def write_bytes(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_bytes(data)
    return path


def rejected_bytes(tmp_path: Path, data: bytes) -> ScenarioError:
    path = write_bytes(tmp_path, data)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    assert "\n" not in str(info.value)
    return info.value


def test_minimal_scenario_takes_defaults(tmp_path: Path) -> None:
    scenario = load_scenario(write_bytes(tmp_path, MINIMAL.encode()))
    assert scenario.mission_years == 5
    assert scenario.name == "Unnamed scenario"
    assert scenario.drive.capacity_tb is None
    assert scenario.baseline_label() == "raid5 8"


def test_path_may_be_str_or_path(tmp_path: Path) -> None:
    path = write_bytes(tmp_path, MINIMAL.encode())
    assert load_scenario(str(path)) == load_scenario(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.yaml")
    assert "cannot read the file" in info.value.message
    assert info.value.line is None


def test_non_utf8_bytes_name_the_line_and_column(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, MINIMAL.encode() + b"name: caf\xe9\n")
    assert "not UTF-8 text" in err.message
    assert "0xe9" in err.message
    assert (err.line, err.column) == (10, 10)


def test_utf8_bom_and_non_ascii_text_are_fine(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + MINIMAL.encode() + "name: Caf\u00e9 \u2013 42\n".encode()
    assert load_scenario(write_bytes(tmp_path, data)).name == "Caf\u00e9 \u2013 42"


@pytest.mark.parametrize("data", [b"", b"\n\n", b"# only a comment\n# and another\n", b"---\n"])
def test_empty_file(tmp_path: Path, data: bytes) -> None:
    err = rejected_bytes(tmp_path, data)
    assert "the scenario is empty" in err.message
    assert "drive, restore, aggregate and layouts" in err.message


def allowed_keys(message: str, before: str) -> list[str]:
    """The comma-separated keys in ``(...)`` right after ``before`` in ``message``."""
    match = re.search(re.escape(before) + r"([a-z_, ]+)\)", message)
    assert match is not None, message
    return match[1].split(", ")


@pytest.mark.parametrize(
    ("data", "before"),
    [(b"", "(allowed: "), (b"# nothing\n", "(allowed: "), (b"42\n", "mapping of keys (")],
)
def test_an_empty_or_scalar_file_lists_every_top_level_key(
    tmp_path: Path, data: bytes, before: str
) -> None:
    """costs, target and search were left out of the list (newcomer review)."""
    err = rejected_bytes(tmp_path, data)
    keys = allowed_keys(err.message, before)
    assert len(keys) == len(set(keys))
    assert {"costs", "target", "search", "workload", "distributions"} <= set(keys)
    # every key of `planner schema`, and every top-level key a shipped scenario uses
    assert set(keys) == set(scenario_json_schema()["properties"])
    for path in sorted((REPO / "scenarios").glob("*.yaml")):
        top = new_yaml().load(path.read_text(encoding="utf-8"))
        assert set(top) <= set(keys), path.name
    assert len(str(err)) < 300


def test_an_empty_file_names_the_required_keys(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"")
    required = scenario_json_schema()["anyOf"][0]["required"]
    assert f"it needs the keys {', '.join(required[:-1])} and {required[-1]} (" in err.message


def test_list_at_top_level(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"# header\n- raid: raid5\n  group_size: 8\n")
    assert "top level must be a mapping" in err.message
    assert "not a list" in err.message
    assert (err.line, err.column) == (2, 1)


def test_scalar_at_top_level(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"just some words\n")
    assert "top level must be a mapping" in err.message
    assert "'just some words'" in err.message


def test_duplicate_keys(tmp_path: Path) -> None:
    data = MINIMAL.replace("  arr: 1.9%\n", "  arr: 1.9%\n  arr: 2%\n").encode()
    err = rejected_bytes(tmp_path, data)
    assert "duplicate key 'arr'" in err.message
    assert (err.line, err.column) == (3, 3)


def test_duplicate_top_level_section(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, (MINIMAL + "aggregate:\n  data_disks: 7\n").encode())
    assert "duplicate key 'aggregate'" in err.message
    assert err.line == 10


def test_yaml_syntax_error(tmp_path: Path) -> None:
    """Reported at the [ left open (the parser notices on the next line)."""
    err = rejected_bytes(tmp_path, MINIMAL.replace("arr: 1.9%", "arr: [1.9%").encode())
    assert err.message.startswith("not valid YAML")
    assert (err.line, err.column) == (2, 8)


def test_yaml_syntax_error_bad_indentation(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"drive:\n  arr: 1.9%\n latent_defects_per_hour: 1\n")
    assert err.message.startswith("not valid YAML")
    assert err.line == 3


def test_tab_indentation(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"drive:\n\tarr: 1.9%\n")
    assert err.message.startswith("not valid YAML")
    assert (err.line, err.column) == (2, 1)


def test_control_character(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, b"name: a\x00b\n")
    assert "not allowed" in err.message
    assert (err.line, err.column) == (1, 8)


def test_two_documents(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, ("---\n" + MINIMAL + "---\n" + MINIMAL).encode())
    assert "single document" in err.message
    assert err.line == 11


def test_python_object_tag_is_rejected_without_running(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    data = MINIMAL.replace(
        "arr: 1.9%", f"arr: !!python/object/apply:os.system ['touch {marker}']"
    ).encode()
    err = rejected_bytes(tmp_path, data)
    assert "'!!python/object/apply:os.system' is not allowed" in err.message
    assert (err.line, err.column) == (2, 8)
    assert not marker.exists()


@pytest.mark.parametrize(
    ("snippet", "tag", "column"),
    [
        ("arr: !custom 1.9%", "!custom", 8),
        ("arr: !!str 0.019", "!!str", 8),
        ("arr: !!float 0.019", "!!float", 8),
        ("arr: !<tag:example.com,2024:x> 1", "!<tag:example.com,2024:x>", 8),
        ("arr: !!python/name:os.system ''", "!!python/name:os.system", 8),
        ("!!python/object:os.Foo arr: 1.9%", "!!python/object:os.Foo", 3),
    ],
)
def test_any_tag_is_rejected(tmp_path: Path, snippet: str, tag: str, column: int) -> None:
    err = rejected_bytes(tmp_path, MINIMAL.replace("arr: 1.9%", snippet).encode())
    assert f"YAML tag {tag!r} is not allowed" in err.message
    assert (err.line, err.column) == (2, column)


def test_tag_on_a_whole_mapping(tmp_path: Path) -> None:
    data = MINIMAL.replace("restore: {", "restore: !!python/object:x.Y {").encode()
    err = rejected_bytes(tmp_path, data)
    assert "is not allowed" in err.message
    assert (err.line, err.column) == (4, 10)


def test_non_text_key(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, (MINIMAL + "42: answer\n").encode())
    assert "key 42 is not text" in err.message
    assert (err.line, err.column) == (10, 1)


def test_alias_bomb_is_stopped(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 7)]
    err = rejected_bytes(tmp_path, ("\n".join(lines) + "\n").encode())
    assert "past 100,000 values" in err.message
    assert (err.line, err.field) == (5, "a4[7]")


def test_aliases_and_dates_become_plain_values(tmp_path: Path) -> None:
    data = MINIMAL.replace("layouts:", "name: 2024-05-01\nlayouts:") + (
        "  - &dp {raid: raid6, group_size: 9}\n  - <<: *dp\n    label: merged\n"
    )
    scenario = load_scenario(write_bytes(tmp_path, data.encode()))
    assert scenario.name == "2024-05-01"
    assert scenario.layouts[1].label == "raid6 9"
    assert (scenario.layouts[2].label, scenario.layouts[2].group_size) == ("merged", 9)


def test_bad_timestamp_is_a_clean_error(tmp_path: Path) -> None:
    err = rejected_bytes(tmp_path, (MINIMAL + "name: 2001-13-45\n").encode())
    assert "'2001-13-45' reads as a date but is not one" in err.message
    assert (err.line, err.column, err.field) == (10, 7, "name")


def test_text_source_name() -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(MINIMAL.replace("arr: 1.9%", "arr: 1.9"))
    assert str(info.value).startswith("<string>:2:8: drive.arr: ")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("- x\n", source="editor buffer")
    assert info.value.path == "editor buffer"


def test_a_text_is_parsed_once_and_an_error_keeps_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loaders that return no document keep each text's parsed data: loading the same text
    again (the default under other ``--set`` overrides, each tornado bar) parses nothing,
    an override does not leak into the next load, and an error still names its line."""
    sources: list[str] = []
    parse = loader.parse_yaml

    def counted(text: str, source: str) -> object:
        sources.append(source)
        return parse(text, source)

    monkeypatch.setattr(loader, "parse_yaml", counted)
    text = "# loaded once\n" + MINIMAL  # a text no other test loads
    assert load_scenario_text(text, "once", ["drive.arr=3%"]).drive.arr == pytest.approx(0.03)
    assert load_scenario_text(text, "once").drive.arr == pytest.approx(0.019)
    assert sources == ["once"]
    bad = text.replace("arr: 1.9%", "arr: 1.9")
    for _ in range(2):  # the second from the kept data, the position from a fresh parse
        with pytest.raises(ScenarioError) as info:
            load_scenario_text(bad, "once")
        assert str(info.value).startswith("once:3:8: drive.arr: ")


def test_document_keeps_comments_for_saving_back(tmp_path: Path) -> None:
    text = "# top comment\n" + MINIMAL.replace("arr: 1.9%", "arr: 1.9%  # the paper's ARR")
    scenario, document = load_scenario_document(write_bytes(tmp_path, text.encode()))
    assert isinstance(document, CommentedMap)
    document["drive"]["arr"] = "2.5%"
    out = io.StringIO()
    new_yaml().dump(document, out)
    saved = out.getvalue()
    assert "# top comment" in saved
    assert "arr: 2.5%  # the paper's ARR" in saved
    assert load_scenario_text(saved).drive.arr == pytest.approx(0.025)
    assert scenario.drive.arr == pytest.approx(0.019)


def test_document_is_the_file_without_overrides() -> None:
    scenario, document = load_scenario_text_document(MINIMAL, overrides=["drive.arr=3%"])
    assert scenario.drive.arr == pytest.approx(0.03)
    assert document["drive"]["arr"] == "1.9%"


def test_default_scenario_is_the_papers_aggregate() -> None:
    scenario = load_default_scenario()
    assert scenario.aggregate.data_disks == 42
    assert scenario.mission_years == 5
    assert scenario.drive.arr == pytest.approx(0.019)
    assert scenario.drive.latent_defects_per_hour == pytest.approx(1.08e-4)
    assert scenario.drive.capacity_tb == pytest.approx(0.3)
    assert (scenario.restore.rebuild_hours, scenario.restore.scrub_hours) == (12, 168)
    assert [(lay.raid, lay.group_size) for lay in scenario.layouts] == [
        ("raid10", 2),
        ("raid5", 8),
        ("raid-dp", 9),
        ("raid-dp", 16),
        ("raid-tp", 12),
    ]
    assert scenario.baseline_label() == "raid-dp 9"


def test_default_text_is_commented_and_shipped_identically() -> None:
    text = default_scenario_text()
    assert text.count("#") > 10
    assert "NS3574" in text
    shipped = (REPO / "scenarios" / "ns3574-default.yaml").read_bytes()
    assert shipped == text.encode("utf-8")


def test_default_source_name_in_errors() -> None:
    with pytest.raises(ScenarioError) as info:
        load_default_scenario(["layouts[2].label=renamed"])
    err = info.value
    assert err.path == DEFAULT_SOURCE
    assert err.field == "baseline"
    assert err.line is not None
    assert str(err).startswith("<default scenario>:")
    assert "'renamed'" in err.message


def test_json_schema() -> None:
    schema = scenario_json_schema()
    assert isinstance(schema, dict)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["title"] == "planner scenario"
    assert set(schema["properties"]) == {
        "name",
        "mission_years",
        "drive",
        "restore",
        "aggregate",
        "layouts",
        "baseline",
        "workload",
        "costs",
        "target",
        "search",
        "distributions",
        "tiers",
        "correlation",
        "enclosures",
        "ageing",
    }
    # a single aggregate's four sections, or a plan's tiers (each tier gives or takes them)
    assert schema["anyOf"] == [
        {"required": ["drive", "restore", "aggregate", "layouts"]},
        {"required": ["tiers"]},
    ]
    drive = schema["$defs"]["DriveSpec"]
    assert drive["additionalProperties"] is False
    arr_types = {option.get("type") for option in drive["properties"]["arr"]["anyOf"]}
    assert {"number", "string"} <= arr_types
    layout = schema["$defs"]["LayoutSpec"]
    assert "required" not in layout
    assert layout["anyOf"] == [{"required": ["raid"]}, {"required": ["parity"]}]
    json.dumps(schema)  # serialisable as is


def test_models_are_frozen() -> None:
    scenario = load_scenario_text(MINIMAL)
    assert isinstance(scenario, Scenario)
    with pytest.raises(ValueError, match="frozen"):
        scenario.aggregate.data_disks = 7  # type: ignore[misc]


def test_an_unclosed_bracket_names_where_it_was_opened(tmp_path: Path) -> None:
    """The parser notices two lines further down; the message points back at the '['."""
    text = MINIMAL.replace(
        "restore: {rebuild_hours: 12, scrub_hours: 168}",
        "restore:\n  rebuild_hours: 12\n  scrub_hours: [168",
    )
    err = rejected_bytes(tmp_path, text.encode())
    opened = text.splitlines().index("  scrub_hours: [168") + 1
    assert (err.line, err.column) == (opened, 16)
    assert f"the [ opened at line {opened}, column 16 is not closed" in err.message
    assert err.message.endswith("close it on that line: scrub_hours: [168]")
    assert len(str(err)) < 300


@pytest.mark.parametrize(
    ("text", "said", "not_said"),
    [
        (
            "drive:\n  arr: [1.9%\n  # ARR\n  latent_defects_per_hour: 1.08e-4\n",
            "the [ opened at line 2, column 8 is not closed; if 1.9% is meant, write arr: 1.9%; "
            "or, for a list, close it on that line: arr: [1.9%]",
            "'?'",
        ),
        ("a: [1,\n", "the [ opened at column 4 is not closed; close it: a: [1]", "<stream end>"),
        ("a:\n  - 1\n  b: 2\n", "line 3 (b: 2) starts in the column of the '- ' of line 2", "?"),
        ("a: [1, 2]]\n", "this ] closes no [", "<block end>"),
    ],
)
def test_yaml_token_names_are_said_in_words(
    tmp_path: Path, text: str, said: str, not_said: str
) -> None:
    """Each problem says what is wrong in words; ruamel's token names never show."""
    err = rejected_bytes(tmp_path, text.encode())
    assert err.line is not None
    assert said in err.message
    assert not_said not in err.message


def test_a_parser_problem_not_recognised_keeps_its_words_without_token_names() -> None:
    """The fallback: ruamel's problem with its token names in words, its context left out."""
    from planner.scenario.yaml_tokens import in_words

    said = in_words("expected <block end>, but found '<stream end>'")
    assert said == "expected the end of a block, but found the end of the file"
    assert in_words("expected ',' or ']', but got '?'") == "expected ',' or ']', but got a new key"


def test_a_failure_log_given_as_a_scenario_points_to_planner_fit() -> None:
    """A CSV log passed to evaluate got "the top level must be a mapping" (newcomer review)."""
    log = Path(__file__).resolve().parents[2] / "scenarios" / "fleet-log-example.csv"
    with pytest.raises(ScenarioError) as info:
        load_scenario(log)
    assert "this is a CSV file, not a scenario" in info.value.message
    assert f"planner fit {log}" in info.value.message


def test_refusals_of_one_text_are_placed_as_on_a_fresh_parse() -> None:
    """The loader keeps each text's document for errors' positions (loader._positions):
    refusals in turn, and again, are the errors of a document parsed afresh."""
    text = default_scenario_text()
    assert "  arr: 1.9%\n" in text
    bad = text.replace("  arr: 1.9%\n", "  arr: 200%\n")  # refused at its line in the file
    cases = (
        (text, ["drive.arr=200%"]),
        (text, ["restore.rebuild_hours=0"]),
        (text, ["layouts[1].group_size=1"]),
        (text, ["aggregate.data_disks=0", "drive.arr=2%"]),
        (bad, []),
        (bad, ["mission_years=3"]),
        (text, ["baseline=nosuch"]),
    )
    for source_text, overrides in (*cases, *cases):
        with pytest.raises(ScenarioError) as cached:
            load_scenario_text(source_text, "default.yaml", overrides)
        with pytest.raises(ScenarioError) as fresh:
            load_scenario_text_document(source_text, "default.yaml", overrides)
        assert str(cached.value) == str(fresh.value)
        if source_text is bad:
            assert cached.value.line is not None, str(cached.value)
