"""Chase as the registry knows it: names, players, its one variant and its option, and where
its parts live. The option's default is defined here, once; :mod:`.options` reads it."""

from __future__ import annotations

from diceboard.core.info import GameInfo, OptionInfo, VariantInfo

DEFAULT_NO_CAPTURE_LIMIT = 100
#: the largest no-capture limit a game accepts (a ply count far beyond any real game)
MAX_NO_CAPTURE_LIMIT = 1_000_000
VARIANTS = ("standard",)

INFO = GameInfo(
    name="chase",
    title="Chase",
    aliases=(),
    players=("B", "R"),
    player_names=("Blue", "Red"),
    summary=(
        "an 81-hex cylindrical board; a die's face is its speed; bumps, ricochets off the "
        "edges and a fission chamber that splits dice"
    ),
    variants=(VariantInfo("standard", "Standard", "the rules of the 1986 game"),),
    options=(
        OptionInfo(
            "no_capture_limit",
            "int",
            DEFAULT_NO_CAPTURE_LIMIT,
            "turns without a capture before the game is drawn (0 turns the limit off)",
            minimum=0,
            maximum=MAX_NO_CAPTURE_LIMIT,
        ),
        OptionInfo(
            "repetition",
            "choice",
            "on",
            "a position's third occurrence since the last capture draws the game ('off': it "
            "does not, as Abstract Play plays)",
            choices=("on", "off"),
        ),
    ),
    docs="docs/chase.md",
    modules={
        "game": "diceboard.games.chase.game:ChaseGame",
        "kernel": "diceboard.games.chase.kernel",
        "ai": "diceboard.games.chase.ai",
        "encoding": "diceboard.games.chase.encoding",
        "rendering": "diceboard.games.chase.rendering",
    },
    has_chance=False,
    # Abstract Play plays Chase with neither a no-capture limit nor a repetition draw
    site_options={"Abstract Play": {"no_capture_limit": 0, "repetition": "off"}},
    multi_action_moves=True,
    environments={
        "pettingzoo": "chase_v0",
        "gymnasium": "diceboard/Chase-v1",
        "openspiel": "python_chase",
    },
    targets={
        "compiled_plies": 500_000,
        "api_plies": 10_000,
        "mcts_simulations": 5_000,
        "vector_steps": 1_200_000,
    },
)
