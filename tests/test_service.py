"""``bgengine serve``'s HTTP API, through FastAPI's test client (no network)."""

from __future__ import annotations

import json
import time
from importlib import resources

import httpx2  # noqa: F401  (the test extra's client under starlette's TestClient: missing it fails, not skips)
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from bgengine.cli.commands import JSON_SCHEMA, cli
from bgengine.cli.rollout_report import run_rollout, make_settings, report_dict
from bgengine.formats.user_input import read_position
from bgengine.service.app import create_app
from bgengine.service.settings import ServiceSettings

OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
START = "4HPwATDgc/ABMA"
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:9:10"
MATCH_BEFORE_ROLL = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10"
#: Short, quick rollout jobs: two plies a game, two blocks.
QUICK = {"trials": 144, "truncate": 2, "seed": 7}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(ServiceSettings(event_interval=0.02))) as test_client:
        yield test_client


def validate(document: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("bgengine").joinpath("data/cli_schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"], prog_name="bgengine")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def wait_for(client, job_id: str, status: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"/api/rollouts/{job_id}").json()
        if job["status"] != "running":
            assert job["status"] == status, job
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still running after {seconds} s")


# ----- answers have the CLI's --json shapes -------------------------------------------------


def test_health_says_ok_with_the_schema_and_limits(client):
    body = client.get("/api/health").json()
    assert body["status"] == "ok" and body["schema"] == JSON_SCHEMA
    assert body["limits"]["max_rollout_trials"] == ServiceSettings().max_rollout_trials


def test_analyze_answers_the_same_document_as_analyze_json(client):
    response = client.post("/api/analyze", json={"position": OPENING_31})
    assert response.status_code == 200
    validate(response.json())
    assert response.json() == cli_json("analyze", OPENING_31)


def test_analyze_applies_dice_plies_and_match_options_like_the_cli(client):
    body = {"position": START, "dice": [5, 2], "plies": 1, "match_length": 7, "score": [2, 4], "crawford": False}
    response = client.post("/api/analyze", json=body)
    assert response.status_code == 200
    assert response.json() == cli_json("analyze", START, "--dice", "52", "--plies", "1", "--match", "7",
                                       "--score", "2-4", "--no-crawford")
    assert response.json()["moves"]["ranked_by"] == "1-ply"


def test_analyze_reads_every_position_format(client):
    for text in (OPENING_31, START, "4HPwATDgc/ABMA:cIkWAAAAAAAA", MATCH_XGID):
        response = client.post("/api/analyze", json={"position": text})
        assert response.status_code == 200, response.json()
        assert response.json()["position"]["position_id"] == read_position(text)[0].gnubg_id()


def test_moves_answers_the_same_document_as_moves_json(client):
    response = client.post("/api/moves", json={"position": START, "dice": "31"})
    validate(response.json())
    assert response.json() == cli_json("moves", START, "31")


def test_moves_default_to_the_dice_in_the_position(client):
    assert client.post("/api/moves", json={"position": OPENING_31}).json()["dice"] == [3, 1]


def test_cube_answers_the_same_document_as_cube_json(client):
    given = {"position": START, "probabilities": [0.7, 0.2, 0.01, 0.05, 0.0]}
    response = client.post("/api/cube", json=given)
    validate(response.json())
    assert response.json() == cli_json("cube", START, "--probabilities", "0.7,0.2,0.01,0.05,0")
    engine = client.post("/api/cube", json={"position": MATCH_BEFORE_ROLL, "plies": 1}).json()
    assert engine == cli_json("cube", MATCH_BEFORE_ROLL, "--plies", "1")
    assert engine["cube"]["unit"] == "mwc"


def test_render_answers_an_svg_picture_and_draws_a_play(client):
    plain = client.post("/api/render", json={"position": OPENING_31, "size": 300})
    assert plain.status_code == 200 and plain.headers["content-type"].startswith("image/svg+xml")
    assert plain.text.startswith("<svg") and 'width="300"' in plain.text
    arrows = client.post("/api/render", json={"position": OPENING_31, "arrows": "8/5 6/5"}).text
    after = client.post("/api/render", json={"position": OPENING_31, "play": "8/5 6/5"}).text
    assert "arrow" in arrows and arrows != after
    # the position after the play, still seen from the mover, has two checkers on the 5 point
    assert "sGfwATDgc/ABMA" not in after  # that is the opponent's view; the mover's is its flip
    assert read_position("sGfwATDgc/ABMA")[0].flip().gnubg_id() in after


def test_openapi_document_lists_every_endpoint(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/health", "/api/analyze", "/api/moves", "/api/cube", "/api/render", "/api/rollouts",
            "/api/rollouts/{job_id}", "/api/rollouts/{job_id}/events"} <= set(paths)
    assert set(paths["/api/rollouts/{job_id}"]) == {"get", "delete"}


def test_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="position"' in page.text
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
    assert "http://" not in page.text and "https://" not in page.text  # nothing from a CDN


@pytest.mark.parametrize("path", ["/static/index.html.bak", "/static/..%2F..%2Fsettings.py", "/static/%2Fetc%2Fpasswd",
                                  "/static/../app.py"])
def test_no_other_file_can_be_asked_for(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "error" in response.json()


# ----- bad input: 4xx with {"error": "where: what"} --------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "status", "fragments"),
    [
        ("/api/analyze", {"position": "XGID=bad"}, 422, ["position:", "10 fields"]),
        ("/api/analyze", {"position": "4HPwATDgc/ABMAAAA"}, 422, ["position:"]),
        ("/api/analyze", {"position": "//////////////"}, 422, ["position:"]),  # 30 checkers a side: impossible
        ("/api/analyze", {"position": START, "dice": "77"}, 422, ["dice:", "1..6"]),
        ("/api/analyze", {"position": START, "dice": [0, 3]}, 422, ["dice:"]),
        ("/api/analyze", {"position": START, "score": [1, 2]}, 422, ["score:", "match length"]),
        ("/api/analyze", {"position": START, "match_length": 5, "score": [5, 1]}, 422, ["score:", "below the length"]),
        ("/api/analyze", {"position": START, "match_length": 0}, 422, ["match_length:", "at least 1"]),
        ("/api/analyze", {"position": START, "plies": 4}, 422, ["plies:"]),
        ("/api/analyze", {"position": START, "plies": "deep"}, 422, ["plies:"]),
        ("/api/analyze", {"position": START, "colour": "red"}, 422, ["colour: unknown field"]),
        ("/api/analyze", {}, 422, ["position:", "required"]),
        ("/api/analyze", [START], 422, []),
        ("/api/analyze", {"position": "x" * 500}, 422, ["position:"]),
        ("/api/moves", {"position": START}, 422, ["dice:", "no dice"]),
        ("/api/moves", {"position": "AAAAAAAAAAAAAA", "dice": "31"}, 422, ["position:"]),
        ("/api/cube", {"position": START, "probabilities": [0.7, 0.2, 0.01, 0.05, 0], "plies": 1}, 422, ["plies:"]),
        ("/api/cube", {"position": MATCH_XGID}, 422, ["position:", "already rolled"]),
        ("/api/cube", {"position": START, "probabilities": [1.5, 0, 0, 0, 0]}, 422, ["probabilities:"]),
        ("/api/cube", {"position": START, "probabilities": [0.5, 0.1]}, 422, ["probabilities"]),
        ("/api/render", {"position": OPENING_31, "arrows": "24/10"}, 422, ["arrows:"]),
        ("/api/render", {"position": START, "play": "8/5 6/5"}, 422, ["play:", "dice"]),
        ("/api/render", {"position": START, "size": 10**6}, 422, ["size:"]),
        ("/api/render", {"position": START, "orientation": "up"}, 422, ["orientation:"]),
        ("/api/rollouts", {"position": START, "trials": 10**7}, 422, ["trials:", "at most"]),
        ("/api/rollouts", {"position": START, "trials": 0}, 422, ["trials:"]),
        ("/api/rollouts", {"position": START, "moves": ["8/5 6/5"]}, 422, ["moves:", "dice"]),
        ("/api/rollouts", {"position": OPENING_31, "moves": ["24/10"]}, 422, ["moves:"]),
        ("/api/rollouts", {"position": START, "target_se": -1}, 422, ["target_se:"]),
    ],
)
def test_bad_input_gets_a_4xx_json_error_saying_where_and_what(client, path, body, status, fragments):
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert isinstance(error, str) and error
    for fragment in fragments:
        assert fragment in error


def test_a_body_that_is_not_json_gets_400(client):
    response = client.post("/api/analyze", content=b'{"position": ', headers={"content-type": "application/json"})
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]


def test_a_body_over_the_limit_gets_413_declared_or_streamed():
    with TestClient(create_app(ServiceSettings(max_body_bytes=1000))) as small:
        declared = small.post("/api/analyze", json={"position": START, "pad": "x" * 2000})
        assert declared.status_code == 413 and "larger than 1000 bytes" in declared.json()["error"]
        streamed = small.post("/api/analyze", content=iter([b'{"position": "', b"x" * 600, b"x" * 600, b'"}']),
                              headers={"content-type": "application/json"})
        assert streamed.status_code == 413
        assert small.post("/api/analyze", json={"position": START}).status_code == 200


def test_unknown_paths_and_methods_get_json_errors(client):
    assert client.get("/api/nothing").json() == {"error": "Not Found"}
    assert client.put("/api/health").status_code == 405
    assert client.get("/api/rollouts/0123456789abcdef").status_code == 404
    assert client.delete("/api/rollouts/0123456789abcdef").status_code == 404
    assert client.get("/api/rollouts/0123456789abcdef/events").status_code == 404


def test_an_internal_error_is_a_500_json_answer_and_the_server_goes_on(monkeypatch):
    import bgengine.service.app as app_module

    def broken(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(app_module, "analyze_position", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as crashing:
        response = crashing.post("/api/analyze", json={"position": START})
        assert response.status_code == 500 and "RuntimeError: kaboom" in response.json()["error"]
        assert crashing.get("/api/health").status_code == 200


# ----- rollout jobs ---------------------------------------------------------------------------


def test_a_rollout_job_runs_from_start_to_the_clis_result(client):
    started = client.post("/api/rollouts", json={"position": START, **QUICK})
    assert started.status_code == 202
    job_id = started.json()["id"]
    assert started.headers["location"] == f"/api/rollouts/{job_id}"
    job = wait_for(client, job_id, "done")
    assert job["progress"]["fraction"] == 1.0 and job["progress"]["done"] == 144
    document = job["result"]
    validate(document)
    assert document["command"] == "rollout" and document["schema"] == JSON_SCHEMA
    position, _ = read_position(START)
    from bgengine.match_state import MatchState

    expected = report_dict(run_rollout(position, MatchState(), make_settings(144, seed=7, truncate_plies=2)))
    for rollout in (document["rollout"], expected):  # the same games, other timings
        rollout["result"].pop("seconds")
    assert document["rollout"] == expected


def test_a_rollout_of_plays_reports_progress_over_every_play(client):
    job_id = client.post("/api/rollouts", json={"position": OPENING_31, "candidates": 2, **QUICK}).json()["id"]
    job = wait_for(client, job_id, "done")
    assert job["progress"]["plays"] == 2 and job["progress"]["plays_done"] == 2
    assert [m["rank"] for m in job["result"]["rollout"]["moves"]] == [1, 2]


def test_the_event_stream_sends_progress_then_done(client):
    job_id = client.post("/api/rollouts", json={"position": START, **QUICK, "seed": 8}).json()["id"]
    names, last = [], None
    with client.stream("GET", f"/api/rollouts/{job_id}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("event: "):
                names.append(line.removeprefix("event: "))
            elif line.startswith("data: "):
                last = json.loads(line.removeprefix("data: "))
    assert names[0] == "progress" and names[-1] == "done" and names.count("done") == 1
    assert last["status"] == "done" and last["result"]["rollout"]["result"]["trials"] == 144


def test_a_cancelled_rollout_stops_and_says_so(client):
    body = {"position": START, "trials": ServiceSettings().max_rollout_trials, "truncate": 6, "seed": 9}
    job_id = client.post("/api/rollouts", json=body).json()["id"]
    assert client.delete(f"/api/rollouts/{job_id}").status_code == 202
    job = wait_for(client, job_id, "cancelled")
    assert job["result"] is None and job["progress"]["done"] < body["trials"]
    assert client.get("/api/health").status_code == 200


def test_jobs_beyond_the_limit_are_refused_with_429():
    settings = ServiceSettings(max_running_jobs=1, max_rollout_trials=100_000)
    with TestClient(create_app(settings)) as one_slot:
        first = one_slot.post("/api/rollouts", json={"position": START, "trials": 100_000, "truncate": 6}).json()["id"]
        second = one_slot.post("/api/rollouts", json={"position": START, **QUICK})
        assert second.status_code == 429 and "at once" in second.json()["error"]
        one_slot.delete(f"/api/rollouts/{first}")
        wait_for(one_slot, first, "cancelled")
        assert one_slot.post("/api/rollouts", json={"position": START, **QUICK}).status_code == 202


# ----- the command ----------------------------------------------------------------------------


def test_serve_binds_to_loopback_by_default(monkeypatch):
    import uvicorn

    from bgengine.__main__ import cli as full_cli

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    result = CliRunner().invoke(full_cli, ["serve", "--port", "8123", "--max-jobs", "3"], prog_name="bgengine")
    assert result.exit_code == 0, result.output
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8123
    result = CliRunner().invoke(full_cli, ["serve", "--host", "0.0.0.0"], prog_name="bgengine")
    assert "other machines can reach this server" in result.output


def test_the_cli_itself_does_not_know_serve_so_it_never_imports_the_service():
    import subprocess
    import sys

    code = ("import sys, bgengine.cli.commands; "
            "print(any(m.startswith(('bgengine.service', 'fastapi', 'uvicorn')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_the_pages_element_ids_differ_from_the_boards(client):
    """The board's SVG is put into the page, so an id they share would hide the page's element."""
    import re

    page = set(re.findall(r'id="([^"]+)"', client.get("/").text))
    board = client.post("/api/render", json={"position": OPENING_31, "arrows": "8/5 6/5"}).text
    assert page and not page & set(re.findall(r'id="([^"]+)"', board))
