"""SVG board pictures: valid XML, what is drawn where, snapshots, and PNGs to look at.

Snapshots live in tests/data/svg/. After a deliberate change of the picture, look at the
PNGs in tests/artifacts/ and regenerate the snapshots with:

    BGENGINE_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_svg.py -k snapshot
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bgengine import DiceError, InvalidMatchStateError, InvalidNotationError, InvalidPositionError, MatchState, Position, parse_xgid
from bgengine.formats import svg
from bgengine.cli.report import analyze

NS = {"svg": "http://www.w3.org/2000/svg"}
DATA = Path(__file__).parent / "data" / "svg"
ARTIFACTS = Path(__file__).parent / "artifacts"
EXAMPLE_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def parse(document: str) -> ET.Element:
    return ET.fromstring(document)


def by_class(root: ET.Element, tag: str, css_class: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['svg']}}}{tag}") if css_class in (e.get("class") or "").split()]


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{{{NS['svg']}}}text")]


def busy_position() -> tuple[Position, MatchState]:
    """Checkers on both bars, stacks taller than five, both sides with checkers off."""
    position = Position.from_points({6: 8, 5: 2, 2: 1}, {24: 1, 13: 4, 3: 2, 1: 1}, bar=1, opponent_bar=2)
    match = MatchState(match_length=7, score=(2, 4), cube_value=2, cube_owner=1, on_roll=0, dice=(6, 6))
    return position, match


def opening_31() -> str:
    position, match = parse_xgid(EXAMPLE_XGID)
    return svg.board(position, match=match)


EXAMPLES = {
    "opening_31": opening_31,
    "match_bars_trays_arrows": lambda: svg.board(
        busy_position()[0], match=busy_position()[1], arrows=[(25, 19), (6, 0)], last_move=[(24, 18)]
    ),
    "home_on_the_left": lambda: svg.board(busy_position()[0], match=busy_position()[1], orientation="left", size=600),
}


# ----- structure ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_is_valid_xml_in_the_svg_namespace(name):
    root = parse(EXAMPLES[name]())
    assert root.tag == f"{{{NS['svg']}}}svg"
    assert root.get("viewBox").startswith("0 0 ")
    assert root.find("svg:title", NS).text.startswith("Backgammon position ")


def test_board_has_24_points_numbered_for_the_player_on_roll():
    root = parse(svg.board(Position.initial()))
    assert len(by_class(root, "polygon", "point")) == 24
    numbers = root.find("svg:g[@id='point-numbers']", NS)
    labels = {e.text: float(e.get("x")) for e in numbers}
    assert sorted(labels, key=int) == [str(p) for p in range(1, 25)]
    # home board on the right: the 1-point is the rightmost of the bottom row, the 12 the leftmost
    assert labels["1"] > labels["6"] > labels["7"] > labels["12"]
    assert labels["24"] > labels["19"] > labels["18"] > labels["13"]


def test_orientation_left_mirrors_the_numbers():
    root = parse(svg.board(Position.initial(), orientation="left"))
    labels = {e.text: float(e.get("x")) for e in root.find("svg:g[@id='point-numbers']", NS)}
    assert labels["1"] < labels["6"] < labels["7"] < labels["12"]


def test_one_circle_per_checker_up_to_five_a_point_with_the_count_beyond():
    position, match = busy_position()
    root = parse(svg.board(position, match=match))
    # on roll: 6-point 8 (5 drawn), 5-point 2, 2-point 1, bar 1; opponent: 1+4+2+1 on points, 2 on the bar
    assert len(by_class(root, "circle", "on-roll")) == 5 + 2 + 1 + 1
    assert len(by_class(root, "circle", "opponent")) == 1 + 4 + 2 + 1 + 2
    checker_texts = [e.text for e in root.find("svg:g[@id='checkers']", NS).iter(f"{{{NS['svg']}}}text")]
    assert checker_texts == ["8"]


def test_initial_position_draws_fifteen_checkers_a_side():
    root = parse(svg.board(Position.initial()))
    assert len(by_class(root, "circle", "on-roll")) == 15
    assert len(by_class(root, "circle", "opponent")) == 15


def test_borne_off_checkers_are_slabs_with_a_count():
    position, match = busy_position()
    root = parse(svg.board(position, match=match))
    assert len(by_class(root, "rect", "on-roll")) == 3  # 15 - 12 on the board
    assert len(by_class(root, "rect", "opponent")) == 5  # 15 - 10
    assert {"3 off", "5 off"} <= set(texts(root))


def test_dice_show_their_pips():
    root = parse(svg.board(Position.initial(), dice=(3, 1)))
    assert len(by_class(root, "rect", "die")) == 2
    assert len(by_class(root, "circle", "die-pip")) == 4
    assert parse(svg.board(Position.initial())).find("svg:g[@id='dice']", NS) is None


def test_dice_default_to_the_match_dice():
    position, match = busy_position()
    assert len(by_class(parse(svg.board(position, match=match)), "circle", "die-pip")) == 12


def cube_of(document: str) -> tuple[str, float]:
    root = parse(document)
    group = root.find("svg:g[@id='cube']", NS)
    cube = group.find("svg:rect", NS)
    return group.find("svg:text", NS).text, float(cube.get("y")) + float(cube.get("height")) / 2


def test_cube_shows_value_and_owner_by_its_place():
    middle_value, middle_y = cube_of(svg.board(Position.initial()))
    assert middle_value == "64"  # a centred cube at 1 shows 64, as on a real board
    top_value, top_y = cube_of(svg.board(Position.initial(), cube=(4, "opponent")))
    bottom_value, bottom_y = cube_of(svg.board(Position.initial(), cube=(8, "on_roll")))
    assert (top_value, bottom_value) == ("4", "8")
    assert top_y < middle_y < bottom_y


def test_cube_owner_comes_from_the_match_seen_by_the_player_on_roll():
    owned_by_player_1 = MatchState(cube_value=2, cube_owner=1, on_roll=1)
    _, y = cube_of(svg.board(Position.initial(), match=owned_by_player_1))
    _, middle_y = cube_of(svg.board(Position.initial()))
    assert y > middle_y  # player 1 is on roll and owns it: bottom


def test_no_cube_in_the_crawford_game():
    crawford = MatchState(match_length=5, score=(4, 2), crawford=True)
    assert parse(svg.board(Position.initial(), match=crawford)).find("svg:g[@id='cube']", NS) is None


def test_score_and_pips_are_written_for_both_sides():
    position, match = busy_position()
    all_text = " ".join(texts(parse(svg.board(position, match=match))))
    on_roll_pips, opponent_pips = position.pip_counts()
    assert f"On roll: {on_roll_pips} pips  ·  score 2 (5-away)" in all_text
    assert f"Opponent: {opponent_pips} pips  ·  score 4 (3-away)" in all_text
    assert "7-point match" in all_text
    assert "Money game" in " ".join(texts(parse(svg.board(Position.initial()))))


def test_arrows_and_last_move_are_drawn():
    position, match = busy_position()
    root = parse(svg.board(position, match=match, arrows=[(25, 19), (6, 0)], last_move=[(24, 18)]))
    assert len(root.find("svg:g[@id='arrow-arrows']", NS)) == 2
    assert len(root.find("svg:g[@id='last-move-arrows']", NS)) == 1


def test_colors_can_be_changed_by_key():
    document = svg.board(Position.initial(), colors={"player_checker": "#ff0000"})
    assert [c.get("fill") for c in by_class(parse(document), "circle", "on-roll")] == ["#ff0000"] * 15


def test_size_sets_the_pixel_width_and_keeps_the_aspect():
    root = parse(svg.board(Position.initial(), size=800))
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    assert root.get("width") == "800"
    assert float(root.get("height")) == pytest.approx(800 * height / width, abs=0.01)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"orientation": "up"}, InvalidNotationError),
        ({"size": 0}, InvalidNotationError),
        ({"size": True}, InvalidNotationError),
        ({"colors": {"checkers": "red"}}, InvalidNotationError),
        ({"dice": (0, 3)}, DiceError),
        ({"dice": (3, 1, 2)}, DiceError),
        ({"cube": 3}, InvalidMatchStateError),
        ({"cube": (2, "me")}, InvalidMatchStateError),
        ({"cube": (1, "on_roll")}, InvalidMatchStateError),
        ({"arrows": [(26, 3)]}, InvalidNotationError),
        ({"arrows": [(24,)]}, InvalidNotationError),
        ({"last_move": [("24", "18")]}, InvalidNotationError),
        ({"last_move": [(24, 18, 0)]}, InvalidNotationError),
    ],
)
def test_bad_arguments_raise_typed_errors(kwargs, error):
    with pytest.raises(error):
        svg.board(Position.initial(), **kwargs)


# ----- notebooks ------------------------------------------------------------------------


def test_board_is_a_str_that_jupyter_shows_as_svg():
    picture = svg.board(Position.initial())
    assert isinstance(picture, str)
    assert picture._repr_svg_() == str(picture)


def test_position_and_analysis_show_as_pictures():
    position, match = parse_xgid(EXAMPLE_XGID)
    assert position._repr_svg_() == svg.board(position)
    assert analyze(position, match)._repr_svg_() == svg.board(position, match=match, dice=(3, 1))


# ----- snapshots and PNGs ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_svg_snapshot(name):
    document = EXAMPLES[name]()
    expected_file = DATA / f"{name}.svg"
    if os.environ.get("BGENGINE_UPDATE_SNAPSHOTS"):
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(document + "\n", encoding="utf-8")
    assert expected_file.read_text(encoding="utf-8") == document + "\n", (
        f"{expected_file} differs; if the change is wanted, look at the PNG and regenerate (see module docstring)"
    )


def _png_converter():
    if shutil.which("rsvg-convert"):
        return lambda svg_path, png_path: subprocess.run(
            ["rsvg-convert", "-o", str(png_path), str(svg_path)], check=True, timeout=60
        )
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        return None
    return lambda svg_path, png_path: cairosvg.svg2png(url=str(svg_path), write_to=str(png_path))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_render_to_png_for_a_person_to_look_at(name):
    convert = _png_converter()
    if convert is None:
        pytest.skip("neither rsvg-convert (librsvg2-bin) nor cairosvg is installed")
    ARTIFACTS.mkdir(exist_ok=True)
    svg_path, png_path = ARTIFACTS / f"{name}.svg", ARTIFACTS / f"{name}.png"
    document = EXAMPLES[name]()
    svg_path.write_text(document, encoding="utf-8")
    png_path.unlink(missing_ok=True)
    convert(svg_path, png_path)
    data = png_path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(data[16:20], "big")
    assert width == int(parse(document).get("width"))


def arrow_ends(document: str, group_id: str) -> list[tuple[float, float, float, float]]:
    group = parse(document).find(f"svg:g[@id='{group_id}']", NS)
    return [tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")) for line in group]


def test_arrows_accept_move_text_and_move_objects():
    from bgengine.move import Move

    position = Position.initial()
    as_text = arrow_ends(svg.board(position, arrows="8/5 6/5"), "arrow-arrows")
    as_move = arrow_ends(svg.board(position, arrows=Move.parse("8/5 6/5")), "arrow-arrows")
    as_pairs = arrow_ends(svg.board(position, arrows=[(8, 5), (6, 5)]), "arrow-arrows")
    assert as_text == as_move == as_pairs
    with pytest.raises(InvalidNotationError):
        svg.board(position, arrows="8/x")


def test_two_checkers_to_one_point_land_on_different_places():
    (_, _, x1, y1), (_, _, x2, y2) = arrow_ends(svg.board(Position.initial(), arrows="8/5 6/5"), "arrow-arrows")
    assert x1 == x2
    assert y2 < y1  # bottom row: the second checker lands above the first


def test_last_move_is_traced_back_from_where_the_checkers_stand():
    after = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 18: 1, 13: 5, 8: 3, 6: 5})
    (x1, y1, x2, y2), = arrow_ends(svg.board(after, last_move="24/18"), "last-move-arrows")
    root = parse(svg.board(after))
    labels = {e.text: float(e.get("x")) for e in root.find("svg:g[@id='point-numbers']", NS)}
    # the opponent's 24 and 18 are the player on roll's 1 and 7
    assert (x1, x2) == (labels["1"], labels["7"])


def test_a_crowded_bar_shows_four_checkers_and_the_count():
    position = Position.from_points({6: 9}, {6: 8}, bar=6, opponent_bar=7)
    root = parse(svg.board(position))
    assert len(by_class(root, "circle", "on-roll")) == 5 + 4
    assert len(by_class(root, "circle", "opponent")) == 5 + 4
    checker_texts = [e.text for e in root.find("svg:g[@id='checkers']", NS).iter(f"{{{NS['svg']}}}text")]
    assert sorted(checker_texts) == ["6", "7", "8", "9"]


def test_game_and_match_show_as_pictures_with_the_last_play():
    from bgengine import Game, Match
    from bgengine.game.actions import Play, Roll

    game = Game()
    game.push(Roll((3, 1)))  # the opening throw: player 0 threw 3, player 1 threw 1
    game.push(Play(game.legal_moves().moves[game.legal_moves().index("8/5 6/5")]))
    picture = game._repr_svg_()
    assert picture == svg.game_board(game)
    root = parse(picture)
    assert len(root.find("svg:g[@id='last-move-arrows']", NS)) == 2  # 8/5 6/5, now the opponent's play
    assert svg.game_board(game, last_move=None).find("last-move-arrows") == -1
    match = Match(5)
    assert match._repr_svg_() == svg.game_board(match.game)


def test_one_pip_is_singular():
    all_text = " ".join(texts(parse(svg.board(Position.from_points({1: 1}, {2: 1})))))
    assert "On roll: 1 pip" in all_text and "1 pips" not in all_text
    assert "Opponent: 2 pips" in all_text


def test_board_refuses_what_is_not_a_position():
    with pytest.raises(InvalidPositionError, match="position must be a Position, got str"):
        svg.board("4HPwATDgc/ABMA")
