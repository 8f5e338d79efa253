"""Custodian Dice as the registry knows it: names, players, variants and options, and where
its parts live. The option choices and variant presets are defined here, once; the game's
option handling (:mod:`.options`) reads them."""

from __future__ import annotations

from diceboard.core.info import GameInfo, OptionInfo, VariantInfo

#: option name -> allowed values (the first is the default); no_capture_limit is an int
CHOICES: dict[str, tuple[str, ...]] = {
    "jumping": ("on", "off"),
    "faces": ("turn", "roll"),
    "path": ("no-reversal", "self-avoiding"),
    "capture": ("line", "single"),
    "placement": ("chosen", "rolled"),
}
DEFAULT_NO_CAPTURE_LIMIT = 100
#: the largest no-capture limit a game accepts (a ply count far beyond any real game)
MAX_NO_CAPTURE_LIMIT = 1_000_000

#: variant -> (jumping, faces)
VARIANTS: dict[str, tuple[str, str]] = {
    "standard": ("on", "turn"),
    "no-jumping": ("off", "turn"),
    "chaos": ("on", "roll"),
    "chaos-no-jumping": ("off", "roll"),
}

_VARIANT_TEXT = {
    "standard": ("Standard", "dice turn to a face of the mover's choice; jumps allowed"),
    "no-jumping": ("No jumping", "as standard, but a die may never jump"),
    "chaos": ("Chaos", "a die is rolled after it moves"),
    "chaos-no-jumping": ("Chaos, no jumping", "rolled after moving, and no jumps"),
}

_OPTION_TEXT = {
    "jumping": "whether a die may jump over an adjacent die",
    "faces": "turn: the mover picks the new face; roll: the die is rolled (Chaos)",
    "path": "no-reversal: a walk never steps straight back; self-avoiding: it never revisits",
    "capture": "line: sandwich a whole line of dice; single: one die at a time",
    "placement": "chosen: each player places the dice; rolled: squares follow from the rolls",
}

INFO = GameInfo(
    name="custodian",
    title="Custodian Dice",
    aliases=("custodian-dice", "custodian_dice"),
    players=("W", "B"),
    player_names=("White", "Black"),
    summary=(
        "a 5×5 grid; a die walks as far as its top face shows, then turns to a new face; "
        "opposing dice are captured by sandwiching them"
    ),
    variants=tuple(
        VariantInfo(
            name,
            _VARIANT_TEXT[name][0],
            _VARIANT_TEXT[name][1],
            {"jumping": jumping, "faces": faces},
        )
        for name, (jumping, faces) in VARIANTS.items()
    ),
    options=(
        *(
            OptionInfo(
                name,
                "choice",
                values[0],
                _OPTION_TEXT[name],
                choices=values,
                variant=name in ("jumping", "faces"),
            )
            for name, values in CHOICES.items()
        ),
        OptionInfo(
            "no_capture_limit",
            "int",
            DEFAULT_NO_CAPTURE_LIMIT,
            "plies without a capture before the game is drawn (0 turns the limit off)",
            minimum=0,
            maximum=MAX_NO_CAPTURE_LIMIT,
        ),
    ),
    docs="docs/custodian-dice.md",
    modules={
        "game": "diceboard.games.custodian.game:CustodianGame",
        "kernel": "diceboard.games.custodian.kernel",
        "ai": "diceboard.games.custodian.ai",
        "encoding": "diceboard.games.custodian.encoding",
        "rendering": "diceboard.games.custodian.rendering",
    },
    has_chance=True,
    multi_action_moves=False,
    environments={
        "pettingzoo": "custodian_dice_v0",
        "gymnasium": "diceboard/CustodianDice-v1",
        "openspiel": "python_custodian_dice",
    },
    targets={
        "compiled_plies": 1_000_000,
        "api_plies": 20_000,
        "moves_seconds": 1.5,
        "mcts_simulations": 20_000,
        "vector_steps": 2_500_000,
    },
)
