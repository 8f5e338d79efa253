"""Learn to play Custodian Dice with the batched simulator, and beat the random player.

A numpy-only policy gradient (REINFORCE with a running-mean baseline). The policy scores
each legal action by the position it leads to (its *afterstate*): the kernel plays the action
on a copy of the state, the observation encoding describes the result from the mover's side,
a few summary features are pooled from it, and a linear function of those features is the
action's logit. Chance is left to the simulator: after a Chaos move the afterstate is the
position with the roll pending.

The learner takes a random seat in each of ``--batch`` games played side by side in
``diceboard.vector``; the other seat plays uniformly random legal moves. After training, the
learner plays fresh games against the random player with its greedy policy, and the script
prints the score next to the score of a random learner (the baseline).

Run (a minute or two on two cores)::

    python examples/train_custodian.py
    python examples/train_custodian.py --variant chaos --steps 3000
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import diceboard
import diceboard.vector as dv
from diceboard.games.custodian import encoding as enc
from diceboard.games.custodian.kernel import STATE_LEN
from diceboard.games.custodian.kernel import step as kernel_step
from diceboard.kernel import TO_MOVE

#: pooled features: the mean of every plane, then own and opponent occupancy per square
NUM_FEATURES = enc.NUM_PLANES + 2 * 25


@numba.njit(parallel=True, cache=True)
def afterstate_features(
    states: np.ndarray,
    history: np.ndarray,
    history_len: np.ndarray,
    legal: np.ndarray,
    num_legal: np.ndarray,
    rows: np.ndarray,
    opts: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[j, k]``: the features of the position after legal action ``k`` of game
    ``rows[j]``, seen by the player who acts there."""
    for j in numba.prange(rows.shape[0]):
        i = rows[j]
        state = np.empty(STATE_LEN, dtype=np.int64)
        hist = np.empty(history.shape[1] + 1, dtype=np.int64)
        obs = np.empty(enc.SIZE, dtype=np.float32)
        me = states[i, TO_MOVE]
        n = history_len[i]
        for k in range(num_legal[i]):
            state[:] = states[i]
            hist[:n] = history[i, :n]
            m = kernel_step(state, opts, legal[i, k], hist, n)
            enc.encode(state, opts, hist, m, me, obs)
            for p in range(enc.NUM_PLANES):
                total = 0.0
                for sq in range(25):
                    total += obs[p * 25 + sq]
                out[j, k, p] = total / 25.0
            for sq in range(25):
                own = 0.0
                opp = 0.0
                for face in range(6):
                    own += obs[face * 25 + sq]
                    opp += obs[(6 + face) * 25 + sq]
                out[j, k, enc.NUM_PLANES + sq] = own
                out[j, k, enc.NUM_PLANES + 25 + sq] = opp


class Policy:
    """A softmax over the legal actions' afterstates, linear in their features."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w = np.zeros(NUM_FEATURES)
        self.rng = rng

    def act(
        self, state: dv.VectorState, rows: np.ndarray, greedy: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Actions for the games ``rows`` and each choice's grad-log-probability."""
        width = int(state.num_legal[rows].max())
        feats = np.zeros((len(rows), width, NUM_FEATURES), dtype=np.float32)
        afterstate_features(
            state.states,
            state.history,
            state.history_len,
            state.legal_ids,
            state.num_legal,
            rows,
            state.game.opts,
            feats,
        )
        logits = feats @ self.w
        valid = np.arange(width)[None, :] < state.num_legal[rows][:, None]
        logits = np.where(valid, logits, -np.inf)
        if greedy:
            choice = logits.argmax(axis=1)
        else:
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs = z / z.sum(axis=1, keepdims=True)
            u = self.rng.random(len(rows))[:, None]
            choice = np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), state.num_legal[rows] - 1)
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = z / z.sum(axis=1, keepdims=True)
        chosen = feats[np.arange(len(rows)), choice]
        grad = chosen - np.einsum("jk,jkf->jf", probs, feats)
        actions = state.legal_ids[rows, choice].astype(np.int64)
        return actions, grad


def play(
    game: diceboard.Game,
    policy: Policy | None,
    batch: int,
    steps: int,
    seed: int,
    learn: float = 0.0,
) -> tuple[np.ndarray, int]:
    """Play ``steps`` batched steps; the learner (``policy``, or random when ``None``) takes a
    random seat per game. With ``learn`` > 0 the policy is updated as games end.
    Returns ``[wins, draws, losses]`` of the learner and the number of games finished."""
    rng = np.random.default_rng(seed)
    state = dv.init(game, seed=seed, batch=batch)
    seat = rng.integers(0, 2, batch)
    trace = np.zeros((batch, NUM_FEATURES))
    score = np.zeros(3, dtype=np.int64)
    baseline = 0.0
    for _ in range(steps):
        actions = dv.random_actions(state, rng)
        mine = np.flatnonzero(state.current_player == seat)
        if policy is not None and len(mine):
            chosen, grad = policy.act(state, mine, greedy=learn == 0.0)
            actions[mine] = chosen
            trace[mine] += grad
        state = dv.step(state, actions, donate=True)
        ended = np.flatnonzero(state.terminated | state.truncated)
        if len(ended):
            result = state.rewards[ended, seat[ended]]
            score += [(result > 0).sum(), (result == 0).sum(), (result < 0).sum()]
            if learn > 0.0 and policy is not None:
                advantage = result - baseline
                policy.w += learn * (advantage[:, None] * trace[ended]).mean(axis=0)
                baseline += 0.05 * (result.mean() - baseline)
            trace[ended] = 0.0
            seat[ended] = rng.integers(0, 2, len(ended))
    return score, int(score.sum())


def _report(label: str, score: np.ndarray) -> str:
    games = max(int(score.sum()), 1)
    w, d, lo = score
    points = (w + 0.5 * d) / games
    return f"{label:<28} {games:>6} games  W {w:>5}  D {d:>5}  L {lo:>5}  score {points:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard", help="Custodian Dice variant")
    parser.add_argument("--batch", type=int, default=256, help="games played side by side")
    parser.add_argument("--steps", type=int, default=1000, help="training steps (batched)")
    parser.add_argument("--eval-steps", type=int, default=600, help="evaluation steps")
    parser.add_argument("--lr", type=float, default=0.5, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = diceboard.game("custodian", variant=args.variant)
    policy = Policy(np.random.default_rng(args.seed))
    start = time.perf_counter()
    chunk = max(args.steps // 5, 1)
    for k in range(0, args.steps, chunk):
        score, _ = play(game, policy, args.batch, chunk, args.seed + 1 + k, learn=args.lr)
        print(_report(f"training steps {k:>5}-{k + chunk - 1:<5}", score), flush=True)
    print(f"trained in {time.perf_counter() - start:.0f} s\n")

    random_score, _ = play(game, None, args.batch, args.eval_steps, 10_000)
    learned_score, _ = play(game, policy, args.batch, args.eval_steps, 10_000)
    print(_report("random vs random", random_score))
    print(_report("learned (greedy) vs random", learned_score))
    order = np.argsort(-np.abs(policy.w))[:6]
    names = [
        *enc.PLANES,
        *(f"own_on_{s}" for s in game.squares),
        *(f"opp_on_{s}" for s in game.squares),
    ]
    print("largest weights:", ", ".join(f"{names[i]} {policy.w[i]:+.2f}" for i in order))


if __name__ == "__main__":
    main()
