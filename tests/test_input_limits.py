"""Hostile input is refused early with a typed error whose message quotes a short prefix (issue 16)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bgengine import (
    InvalidNotationError,
    InvalidSettingsError,
    MatchFileError,
    Move,
    Position,
    RolloutSettings,
    parse_gnubg_ids,
    parse_mat,
    parse_xgid,
    rollout,
)
from bgengine.errors import QUOTE_LIMIT

HUGE = 10_000_000


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (Move.parse, "13/7 " * (HUGE // 5)),
        (parse_xgid, "XGID=" + "-" * HUGE),
        (parse_gnubg_ids, "4HPwATDgc/ABMA" * (HUGE // 14)),
    ],
    ids=["move", "xgid", "gnubg-ids"],
)
def test_text_longer_than_any_legal_one_is_refused_before_parsing(parse, text):
    started = time.process_time()
    with pytest.raises(InvalidNotationError, match="longer than any legal one") as error:
        parse(text)
    assert time.process_time() - started < 1.0  # refused at once, not after parsing 10 MB
    assert len(str(error.value)) < 4 * QUOTE_LIMIT  # the message quotes a prefix, not the input


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_xgid, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:" + "9" * 4400 + ":0:0:0:10"),
        (parse_xgid, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:" + "9" * 150 + ":0:0:0:10"),
        (Move.parse, "13/7(" + "9" * 4400 + ")"),
        (Move.parse, "1" * 150 + "/7"),
    ],
)
def test_integers_of_thousands_of_digits_give_a_typed_error(parse, text):
    """Python's int() refuses over 4,300 digits with a bare ValueError; we refuse far earlier."""
    with pytest.raises(InvalidNotationError):
        parse(text)


@pytest.mark.parametrize("text", ["１３/７", "13/٧", "２４/１８ １３/１１"])
def test_digits_other_than_ascii_are_not_points(text):
    with pytest.raises(InvalidNotationError, match="cannot read"):
        Move.parse(text)


def test_mat_text_must_be_a_string():
    with pytest.raises(MatchFileError, match="must be a string"):
        parse_mat(None)  # type: ignore[arg-type]


def test_an_overlong_mat_line_is_refused_with_its_number():
    text = " 5 point match\n\n Game 1\n ; " + "x" * 5000 + "\n"
    with pytest.raises(MatchFileError, match="line 4: the line is 5004 characters"):
        parse_mat(text)


def test_a_mat_file_full_of_comments_is_read_line_by_line():
    """10 MB of comments used to take 8 s and 527 MB; now one line at a time."""
    text = "; a comment that says nothing much at all\n" * 250_000 + " 5 point match\n"
    assert parse_mat(text).length == 5


def test_rollout_refuses_an_executor_that_is_not_one():
    settings = RolloutSettings(trials=36, seed=1)
    with pytest.raises(InvalidSettingsError, match="executor must be a concurrent.futures.Executor"):
        rollout(Position.initial(), settings=settings, executor="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidSettingsError, match="progress must be callable"):
        rollout(Position.initial(), settings=settings, progress=5)  # type: ignore[arg-type]


def _cpu_seconds(pid: int) -> float:
    """CPU time a running process has used (Linux /proc), 0 once it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="watches the rollout start in /proc")
def test_ctrl_c_in_the_command_line_exits_130_with_one_line():
    command = [sys.executable, "-m", "bgengine", "rollout", "4HPwATDgc/ABMA", "--trials", "100000000", "--seed", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _cpu_seconds(process.pid) < 6 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # start-up takes about a CPU second: past 6 the rollout is running
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.splitlines() == ["bgengine: interrupted"]


def test_a_money_score_no_format_can_carry_is_refused_when_read():
    """It used to be read, then fail in format_gnubg_ids halfway through `bgengine analyze`."""
    from bgengine import InvalidMatchStateError

    with pytest.raises(InvalidMatchStateError, match="scores up to 32767"):
        parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:40000:0:0:0:10")


def test_what_users_type_is_length_checked_before_it_is_stripped():
    """An XGID followed by a megabyte of spaces was read; parse_xgid alone refused it."""
    from bgengine.formats.user_input import read_position

    with pytest.raises(InvalidNotationError, match="longer than any legal one"):
        read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10" + " " * 1_000_000)


def test_a_lower_case_xgid_prefix_is_read():
    from bgengine.formats.user_input import read_position

    text = "xgid=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert read_position(text) == parse_xgid("XGID=" + text[5:])


@pytest.mark.parametrize("text", ["０.５,0,0,0,0", "0_1,0,0,0,0", "0.5,0,0,0,0,", "nan,0,0,0,0", "1e999,0,0,0,0"])
def test_probabilities_are_ascii_decimal_numbers(text):
    from bgengine.formats.user_input import parse_probabilities

    if text.endswith(","):  # a trailing comma is only a separator: still five numbers
        assert parse_probabilities(text) == (0.5, 0.0, 0.0, 0.0, 0.0)
        return
    with pytest.raises(InvalidNotationError, match="probabilities are five numbers"):
        parse_probabilities(text)
