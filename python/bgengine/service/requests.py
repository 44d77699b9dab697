"""The JSON bodies the API accepts (pydantic models): unknown fields are refused.

Text fields are read by the same parsers as the command line's arguments
(``bgengine.formats.user_input``), in ``bgengine.service.app``, so a bad position or
roll gets the typed error's message.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The longest text field accepted (an XGID is 60 characters or so, a play under 30).
MAX_TEXT = 200
#: The most plays one rollout job may name.
MAX_PLAYS = 10

Dice = str | tuple[int, int]
Play = Annotated[str, Field(max_length=MAX_TEXT)]


class ApiRequest(BaseModel):
    """A request body: fields not listed are refused (422)."""

    model_config = ConfigDict(extra="forbid")


class PositionRequest(ApiRequest):
    """A position with optional changes to its match state (as ``--match``, ``--score``, ``--crawford``)."""

    position: str = Field(
        max_length=MAX_TEXT,
        description="An XGID (with or without 'XGID='), a GNU Backgammon 'posid:matchid' or a bare Position ID.",
        examples=["XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"],
    )
    match_length: int | None = Field(None, description="Match length in points (default: from the position).")
    score: tuple[int, int] | None = Field(None, description="Points won so far, the player on roll's first.")
    crawford: bool | None = Field(None, description="This game is (or is not) the Crawford game.")


class AnalyzeRequest(PositionRequest):
    dice: Dice | None = Field(None, description="The roll to play, e.g. '31' or [3, 1] (default: the position's).")
    plies: int = Field(0, ge=0, le=3, description="Evaluation depth 0..3.")


class MovesRequest(PositionRequest):
    dice: Dice | None = Field(None, description="The roll, e.g. '31' or [3, 1] (default: the position's dice).")
    plies: int = Field(0, ge=0, le=3, description="Search depth of the best candidates 0..3.")


class CubeRequest(PositionRequest):
    probabilities: tuple[float, float, float, float, float] | None = Field(
        None, description="The player on roll's cubeless chances W, WG, WBG, LG, LBG instead of the engine's."
    )
    plies: int | None = Field(None, ge=0, le=3, description="Depth of the cubeless chances (default 0).")


class RenderRequest(PositionRequest):
    dice: Dice | None = Field(None, description="Dice to draw (default: the position's).")
    arrows: str | None = Field(None, max_length=MAX_TEXT, description="A play of the player on roll drawn as arrows.")
    play: str | None = Field(
        None, max_length=MAX_TEXT,
        description="Draw the position after this play of the dice, still from the mover's side, with the play as arrows.",
    )
    size: int = Field(600, ge=50, le=2000, description="Width in pixels.")
    orientation: Literal["right", "left"] = Field("right", description="Side of the player on roll's home board.")


class RolloutRequest(PositionRequest):
    trials: int = Field(1296, ge=1, description="Games per rollout (capped by the server's settings).")
    seed: int | None = Field(None, ge=0, lt=2**63, description="Seed of the dice (default: drawn and reported).")
    dice: Dice | None = Field(None, description="Roll out plays of these dice (default: the position's dice, if any).")
    moves: list[Play] = Field(default_factory=list, max_length=MAX_PLAYS, description="Plays to roll out.")
    candidates: int = Field(5, ge=1, le=MAX_PLAYS, description="The best plays to roll out when no moves are given.")
    cubeful: bool = Field(False, description="Also estimate the cubeful equity (cube decisions at 0-ply).")
    truncate: int | None = Field(None, ge=1, description="Stop each game after this many plies.")
    variance_reduction: bool = True
    quasi_random: bool = True
    target_se: float | None = Field(None, gt=0, description="Stop once the equity's standard error is at most this.")
