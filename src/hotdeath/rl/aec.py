"""The PettingZoo AEC environment ``hotdeath_v0``: every variant, preset and table size.

One agent per seat (``player_0`` … ``player_{n-1}``).  The environment is sequential: at
each step exactly one agent decides.  Out-of-turn windows (Uno calls and catches, 69
challenges, jump-ins, Throwdown call-backs) are offered to their holders *as agent turns*
before the current player moves, in seat order from the current player, each with an
``ignore`` slot; a holder who ignores is not asked again until the game moves on.  The
current player's own window actions (catching someone who forgot Uno) are in its mask.

Observations come only from what the acting seat's view shows (:mod:`hotdeath.view`):
``{"observation": float32 vector, "action_mask": int8 vector}``; the layouts are in
:mod:`hotdeath.rl.spaces` and ``docs/rl.md``.  Rewards: ``reward="game"`` (default) gives
+1 to each winner of the game and -1 to every other seat when the game ends;
``reward="hand"`` gives +1 to the winner of each hand (and his partner) and -1 to the
others when the hand ends.  An episode is one game; ``max_steps`` truncates it.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots.arena import window_seats, worth_offering
from hotdeath.cards import COLOR_NAMES, IS_WILD, NUM_FACES, card_name
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.pending import DrawAttack, Ejection, Pending, Pot, Reveal
from hotdeath.rl.spaces import (
    ATTACK_KINDS,
    HISTORY,
    IGNORE,
    SEAT_FEATURES,
    ActionLayout,
    ObservationLayout,
    action_layout,
    observation_layout,
)
from hotdeath.state import GAME_OVER, PHASE_NAMES, RESPONSE, GameState
from hotdeath.variants import DEFAULT_VARIANT, get_variant

REWARDS: Final = ("game", "hand")
"""The reward schemes (``reward=`` argument)."""
RENDER_MODES: Final = ("ansi",)
OBS_BOUND: Final = 1e6
_CHECKED_KINDS: Final = frozenset({A.UNO, A.CATCH})
_CACHE_LIMIT: Final = 50_000
_NSEAT: Final = len(SEAT_FEATURES)


def _index(offset: int, faces: tuple[int, ...]) -> list[int]:
    """Absolute index of each face id (``NUM_FACES`` entries; -1 outside the variant)."""
    out = [-1] * NUM_FACES
    for i, f in enumerate(faces):
        out[f] = offset + i
    return out


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's naming convention)
    """The unwrapped AEC environment; :func:`env` adds PettingZoo's checking wrappers.

    ``variant`` (name or alias), ``preset`` and ``options`` are those of
    :func:`hotdeath.new_game`; ``players`` defaults to the variant's default.  ``reward``
    is ``"game"`` or ``"hand"``; ``max_steps`` (None: no limit) truncates an episode after
    that many agent decisions; ``theme`` names cards in :meth:`render`.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hotdeath_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "core": hotdeath.core(),
    }

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "game",
        max_steps: int | None = 20_000,
        theme: str = "family",
    ) -> None:
        super().__init__()
        var = get_variant(variant)
        opts = var.resolve_options(preset, options)
        n = var.default_players if players is None else players
        var.check_players(n, opts)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(
                "bad_render_mode", f"render_mode must be None or 'ansi', not {render_mode!r}"
            )
        if reward not in REWARDS:
            raise OptionError("bad_reward", f"reward must be 'game' or 'hand', not {reward!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise OptionError("bad_max_steps", f"max_steps must be None or >= 1, not {max_steps!r}")
        if theme not in ("family", "original"):
            raise OptionError("bad_theme", f"theme must be 'family' or 'original', not {theme!r}")
        self.variant = var
        self.preset = preset
        self.options = dict(options) if options else {}
        self.n = n
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps
        self.theme = theme
        self.layout: ActionLayout = action_layout(var.name, n)
        self.obs_layout: ObservationLayout = observation_layout(var.name, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.obs_layout.size
        k = self.layout.size
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (k,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(k) for a in self.possible_agents}
        self._tables()
        self._buf: array[float] | memoryview[float] = array("f", bytes(4 * size))
        self._zeros = array("f", bytes(4 * size))
        self._obs = np.frombuffer(self._buf, dtype=np.float32)
        self._mask_bytes: bytearray | memoryview[int] = bytearray(k)
        self._zero_mask = bytes(k)
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8)
        self._enc: tuple[Any, ...] = (
            self._buf, self._zeros, self._hand_ix, self._top_ix, self._hist_ix, self._o_color,
            self._o_cw, self._o_phase, self._o_decision, self._o_drew, self._rot, self._o_table,
        )
        self._rng = random.Random()
        self._quiet: frozenset[int] = frozenset()
        self._cache: list[dict[int, int]] = [{} for _ in range(n)]
        self._keep: list[list[Action]] = [[] for _ in range(n)]
        self.state: GameState = var.new_game(n, 0, preset, options)
        self._reset_fields()

    # ------------------------------------------------------------------ setup

    def _tables(self) -> None:
        lay = self.obs_layout
        faces = lay.faces
        self._hand_ix = _index(lay.offset("hand"), faces)
        self._top_ix = _index(lay.offset("top"), faces)
        nf = len(faces)
        hist = lay.offset("history")
        self._hist_ix = [_index(hist + k * nf, faces) for k in range(HISTORY)]
        rev = lay.offset("revealed")
        self._rev_ix = [_index(rev + r * nf, faces) for r in range(self.n - 1)]
        if self.layout.throws:
            self._throw_ix = _index(lay.offset("throw"), faces)
            self._throw_last_ix = _index(lay.offset("throw_last"), faces)
        self._o_color = lay.offset("color")
        self._o_cw = lay.offset("clockwise")
        self._o_phase = lay.offset("phase")
        self._o_decision = lay.offset("decision")
        self._o_drew = lay.offset("drew")
        self._o_seats = lay.offset("seats")
        self._o_attack = lay.offset("attack")
        self._o_sn = lay.offset("sixty_nine")
        self._o_table = lay.offset("table")
        o = self._o_seats
        n = self.n
        self._rot = [
            [((p + r) % n, o + r * _NSEAT) for r in range(n)] for p in range(n)
        ]
        self._ignore_slot = self.layout.single[IGNORE]
        self._throws = self.layout.throws
        self._throw_start = {
            f: s for (f, c, rel), s in self.layout.play_slots.items() if c < 0 and rel == 0
        }

    def _reset_fields(self) -> None:
        self._seat = 0
        self._window = False
        self._asked: list[int] = []
        self._prefix: list[int] = []
        self._slots: list[int] = []
        self._slot_act: dict[int, Action] = {}
        self._throw_add: dict[int, int] = {}
        self._throw_end: dict[int, int] = {}
        self._steps = 0
        self._dirty = False
        self._over = False
        self._last_hand = self.state.last_hand

    # ------------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        With ``seed`` the game is ``hotdeath.new_game(variant, players, seed, …)`` and
        later resets without a seed continue a sequence derived from it.  ``options`` is
        accepted for the API and not used (rule options are fixed at construction).
        """
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._rng.getrandbits(62)
        self._deal(game_seed)

    def _deal(self, game_seed: int) -> None:
        """Start the game ``game_seed`` (``reset`` less its own seed sequence)."""
        self.state = self.variant.new_game(self.n, game_seed, self.preset, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._reset_fields()
        self._mask_bytes[:] = self._zero_mask
        self._decide()
        self.agent_selection = self.possible_agents[self._seat]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``agent``'s view encoded, and its action mask (zeros unless it is to act)."""
        seat = self.agent_name_mapping[agent]
        self._encode(seat)
        if seat == self._seat and not self._over:
            mask = self._mask.copy()
        else:
            mask = np.zeros(self.layout.size, np.int8)
        return {"observation": self._obs.copy(), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Take the slot ``action`` for ``agent_selection`` (``None`` once it is done).

        A slot outside the mask raises :class:`~hotdeath.errors.IllegalActionError`
        (code ``masked_action``) and changes nothing.
        """
        if self._over:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
        if action is None:
            raise IllegalActionError(
                "masked_action", f"{self.agent_selection} must choose an action"
            )
        slot = int(action)
        act = self._slot_act.get(slot)
        if act is not None:
            self._apply(self._seat, act)
        elif slot == self._ignore_slot and self._window:
            self._begin_step()
            self._asked.append(self._seat)
            self._decide()
        elif slot in self._throw_add or slot in self._throw_end:
            self._begin_step()
            self._throw_step(slot)
        else:
            self._illegal(slot)
        self._steps += 1
        if self._steps == self.max_steps and not self._over:
            self._over = True
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[self._seat]
        if self._dirty:
            self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting seat's view in words (``render_mode="ansi"``); None otherwise."""
        if self.render_mode != "ansi":
            return None
        return self.text(self._seat)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ extras

    def set_bot_seats(self, seats: frozenset[int]) -> None:
        """Seats whose decisions bots make through :meth:`play_engine_action`.

        No mask or slot map is built for their decisions (a bot decides from its own view),
        so :meth:`step` with a slot is refused for them; everything else is unchanged.
        """
        self._quiet = frozenset(seats)
        if self._seat in self._quiet and not self._over:
            self._clear_mask()

    def share_tables(self, other: raw_env) -> None:
        """Use ``other``'s encoder index tables (same variant and size; they never change).

        Many environments of one batch then read one copy, which stays in the CPU's caches.
        """
        if (other.variant.name, other.n) != (self.variant.name, self.n):
            raise ValueError("tables are shared between environments of one variant and size")
        for name in ("_hand_ix", "_top_ix", "_hist_ix", "_rev_ix", "_rot", "_throw_start"):
            setattr(self, name, getattr(other, name))
        if self._throws:
            self._throw_ix = other._throw_ix
            self._throw_last_ix = other._throw_last_ix
        self._enc = (*self._enc[:2], self._hand_ix, self._top_ix, self._hist_ix,
                     *self._enc[5:10], self._rot, self._o_table)

    def bind_buffers(self, obs: memoryview[float], mask: memoryview[int]) -> None:
        """Write observations and masks into ``obs`` (float32) and ``mask`` (int8) from now on.

        Both are one-dimensional buffers of this environment's sizes, e.g. rows of a batch
        (:class:`hotdeath.rl.VectorEnv` gives each sub-environment a row of its arrays).
        """
        size = self.obs_layout.size
        k = self.layout.size
        if obs.format != "f" or len(obs) != size or mask.format != "B" or len(mask) != k:
            raise ValueError(f"buffers must be {size} float32 and {k} bytes")
        mask[:] = self._mask_bytes
        self._buf = obs
        self._obs = np.frombuffer(obs.cast("B"), dtype=np.float32)
        self._mask_bytes = mask
        self._mask = np.frombuffer(mask, dtype=np.int8)
        self._enc = (self._buf, self._zeros, *self._enc[2:])

    @property
    def acting_seat(self) -> int:
        """The seat whose decision the environment waits for."""
        return self._seat

    @property
    def in_window(self) -> bool:
        """Whether the pending decision is an out-of-turn window (``ignore`` is legal)."""
        return self._window

    def legal_moves(self) -> list[int]:
        """The legal slots of the acting agent, ascending (do not modify the list)."""
        return self._slots

    def action_of(self, slot: int) -> Action | None:
        """The engine action slot ``slot`` stands for now (None: ``ignore`` or a throw step)."""
        return self._slot_act.get(slot)

    def play_engine_action(self, action: Action | None) -> None:
        """Let the acting seat take an engine action directly (bots use this).

        ``None`` lets a window go by.  Any legal action of the seat is accepted, also
        ones outside the slot space (multi-card throws, ``leave``).
        """
        if self._over:
            raise IllegalActionError("game_over", "the episode is over")
        if action is None:
            if not self._window:
                raise IllegalActionError("masked_action", "the player to act must act")
            self._begin_step()
            self._asked.append(self._seat)
            self._decide()
        else:
            self._apply(self._seat, action)
        self._steps += 1
        if self._steps == self.max_steps and not self._over:
            self._over = True
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[self._seat]
        if self._dirty:
            self._accumulate_rewards()

    def text(self, seat: int) -> str:
        """What ``seat`` sees, in words with card names from the theme."""
        st = self.state
        th = self.theme
        lines = [
            f"{self.variant.title}, hand {st.hand_no}, {PHASE_NAMES[st.phase]}; "
            f"{self.possible_agents[seat]} to decide"
            + (" (out-of-turn window)" if self._window and seat == self._seat else "")
        ]
        if st.discard:
            col = COLOR_NAMES[st.color] if st.color >= 0 else "none"
            lines.append(
                f"Top card: {card_name(st.discard[-1], th)} (colour {col}), "
                f"{'clockwise' if st.direction == 1 else 'counter-clockwise'}, "
                f"draw pile {len(st.draw_pile)}"
            )
        for r in range(self.n):
            s = (seat + r) % self.n
            who = self.possible_agents[s]
            if s == seat:
                cards = ", ".join(card_name(f, th) for f in sorted(st.hands[s]))
                lines.append(f"{who} (you): {cards}; score {st.scores[s]}")
            else:
                shown = ", ".join(card_name(f, th) for f in st.revealed[s]) if st.active[s] else ""
                lines.append(
                    f"{who}: {len(st.hands[s])} cards"
                    + (f", showing {shown}" if shown else "")
                    + f"; score {st.scores[s]}"
                )
        if self._prefix and seat == self._seat:
            lines.append("Throw so far: " + ", ".join(card_name(f, th) for f in self._prefix))
        if seat == self._seat and not self._over:
            lines.append(
                "Legal: " + "; ".join(self.layout.describe(s, th) for s in self._slots)
            )
        if self._over or st.is_terminal():
            lines.append(f"Game over; winners {[self.possible_agents[w] for w in st.winners]}")
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ internals

    def _illegal(self, slot: int) -> None:
        k = self.layout.size
        what = self.layout.names[slot] if 0 <= slot < k else f"outside 0..{k - 1}"
        legal = ", ".join(self.layout.names[s] for s in self._slots)
        raise IllegalActionError(
            "masked_action",
            f"action {slot} ({what}) is not legal for {self.agent_selection} now "
            f"(legal: {legal})",
        )

    def _begin_step(self) -> None:
        """Clear the last step's rewards and the acting agent's accumulated reward."""
        if self._dirty:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._dirty = False
        self._cumulative_rewards[self.possible_agents[self._seat]] = 0.0

    def _apply(self, seat: int, action: Action) -> None:
        st = self.state
        st.step(action, seat)  # raises, changing nothing, when the action is illegal
        if self._dirty:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._dirty = False
        self._cumulative_rewards[self.possible_agents[seat]] = 0.0
        if self._asked:
            self._asked = []
        if self._prefix:
            self._prefix = []
        if st.last_hand is not self._last_hand:
            self._last_hand = st.last_hand
            if self.reward_mode == "hand" and st.last_hand is not None:
                self._hand_rewards(st.last_hand.winner)
        if st.phase == GAME_OVER:
            self._game_over()
        else:
            self._decide()

    def _hand_rewards(self, winner: object) -> None:
        if not isinstance(winner, int) or winner < 0:
            return
        team = self.state.team_of(winner)
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = 1.0 if i in team else -1.0
        self._dirty = True

    def _game_over(self) -> None:
        st = self.state
        if self.reward_mode == "game" and st.winners:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if i in st.winners else -1.0
            self._dirty = True
        self._over = True
        for a in self.agents:
            self.terminations[a] = True
        self._clear_mask()

    def _clear_mask(self) -> None:
        self._mask_bytes[:] = self._zero_mask
        self._slots = []
        self._slot_act = {}
        self._throw_add = {}
        self._throw_end = {}

    def _decide(self) -> None:
        """Find the next decision: window holders not yet asked, then the current player.

        As in :func:`hotdeath.bots.arena.next_bot_move`: a current player who may call
        his own Uno decides first, and window holders who may call theirs come first
        (:func:`~hotdeath.bots.arena.window_seats`).
        """
        st = self.state
        if st.uno_open and st.turn in st.uno_open and st.turn not in self._asked:
            self._offer(st.turn, False)
            return
        if st.uno_open or (st._windows and st._has_windows()):
            asked = self._asked
            for s in window_seats(st):
                if s not in asked:
                    self._offer(s, True)
                    return
        self._offer(st.turn, False)

    def _code(self, a: Action, seat: int) -> int:
        """Slot code of ``a`` for ``seat`` (cached by identity; see :meth:`_offer`)."""
        cache = self._cache[seat]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
            self._keep[seat].clear()
        slot = self.layout.slot_of(a, seat)
        code = -2 - slot if slot >= 0 and a.kind in _CHECKED_KINDS else slot
        cache[id(a)] = code
        self._keep[seat].append(a)  # keeps the id valid while it is a cache key
        return code

    def _offer(self, seat: int, window: bool) -> None:
        """Build the mask of ``seat``.

        Cached slot codes are the slot (>= 0), -1 (no slot) or ``-2 - slot`` for window
        actions that must be worth offering.
        """
        st = self.state
        self._seat = seat
        self._window = window
        if seat in self._quiet:  # a bot decides: no mask, no slots
            if self._slots or self._throw_add or self._throw_end:
                self._clear_mask()
            return
        mb = self._mask_bytes
        mb[:] = self._zero_mask
        get = self._cache[seat].get
        slot_act: dict[int, Action] = {}
        for a in st.legal_actions(seat):
            code = get(id(a))
            if code is None:
                code = self._code(a, seat)
            if code < 0:
                if code == -1 or not worth_offering(st, seat, a):
                    continue
                code = -2 - code
            if code not in slot_act or a.uno:
                slot_act[code] = a
        self._slot_act = slot_act
        slots = list(slot_act)
        if window:
            slots.append(self._ignore_slot)
        if self._throw_add or self._throw_end:
            self._throw_add = {}
            self._throw_end = {}
        if self._throws and not window and st.phase != GAME_OVER:
            ts = self._throw_start
            adds = {ts[f]: f for f in st.play_extensions(seat, ())}
            self._throw_add = adds
            slots += adds
        for i in slots:
            mb[i] = 1
        slots.sort()
        self._slots = slots

    def _throw_step(self, slot: int) -> None:
        """A Throwdown sub-decision: add a card to the throw, or end it."""
        st = self.state
        seat = self._seat
        prefix = self._prefix
        if slot in self._throw_end:
            self._apply(seat, Action(A.PLAY, tuple(prefix), self._throw_end[slot]))
            return
        prefix.append(self._throw_add[slot])
        wild = IS_WILD[prefix[0]]
        exts = st.play_extensions(seat, prefix)
        ends: dict[int, int] = {}
        if wild:
            legal = st.legal_actions(seat)
            cards = tuple(prefix)
            for c, s in enumerate(self.layout.throw_end_color):
                if Action(A.PLAY, cards, c) in legal:
                    ends[s] = c
        elif st.is_legal_play(seat, prefix):
            if not exts:
                self._apply(seat, Action(A.PLAY, tuple(prefix)))
                return
            ends[self.layout.throw_end] = -1
        self._clear_mask()
        self._prefix = prefix
        ts = self._throw_start
        self._throw_add = {ts[f]: f for f in exts}
        self._throw_end = ends
        slots = sorted([*self._throw_add, *ends])
        mb = self._mask_bytes
        for s in slots:
            mb[s] = 1
        self._slots = slots

    def _encode(self, p: int) -> None:
        """Write seat ``p``'s observation into the buffer (view facts only)."""
        st = self.state
        (b, zeros, hix, top_ix, hist_ix, o_color, o_cw, o_phase, o_decision, o_drew, rot,
         o_table) = self._enc
        b[:] = zeros  # a memcpy: cheaper than self._obs.fill(0.0)
        for f in st.hands[p]:
            b[hix[f]] += 1.0
        if p == self._seat and not self._over:
            prefix = self._prefix
            if prefix:
                tix = self._throw_ix
                for f in prefix:
                    b[hix[f]] -= 1.0
                    b[tix[f]] += 1.0
                b[self._throw_last_ix[prefix[-1]]] = 1.0
                b[o_decision + 2] = 1.0
            else:
                b[o_decision + 1 if self._window else o_decision] = 1.0
        disc = st.discard
        if disc:
            b[top_ix[disc[-1]]] = 1.0
            k = -1
            for ix in hist_ix[: len(disc) - 1 - st.buried_cards()]:  # none face down
                k -= 1
                b[ix[disc[k]]] = 1.0
        if st.color >= 0:
            b[o_color + st.color] = 1.0
        if st.direction == 1:
            b[o_cw] = 1.0
        phase = st.phase
        b[o_phase + phase] = 1.0
        if st.drew:
            b[o_drew] = 1.0
        hands = st.hands
        active = st.active
        scores = st.scores
        revealed = st.revealed
        for s, base in rot[p]:
            b[base] = len(hands[s])
            if active[s]:
                b[base + 1] = 1.0
                if revealed[s]:
                    self._encode_revealed(p, s, base)
            b[base + 3] = scores[s]
        n = self.n
        o = self._o_seats
        if phase != GAME_OVER:
            b[o + 5 + ((st.turn - p) % n) * _NSEAT] = 1.0
        b[o + 6 + ((st.dealer - p) % n) * _NSEAT] = 1.0
        uno = st.uno_open
        if uno:
            for s in uno:
                b[o + 2 + ((s - p) % n) * _NSEAT] = 1.0
        infections = st.infection_counts()
        if any(infections):
            for s in range(n):
                b[o + 4 + ((s - p) % n) * _NSEAT] = infections[s]
        sn = st.window_seat()
        if sn >= 0:
            b[self._o_sn + (sn - p) % n] = 1.0
        if phase == RESPONSE:
            pending = st.pending()
            if pending is not None:
                self._encode_attack(pending, p)
        b[o_table] = len(st.draw_pile)
        b[o_table + 1] = st.current_hand()  # the hand being chosen during a deal choice
        b[o_table + 2] = st.hand_size

    def _encode_revealed(self, p: int, s: int, base: int) -> None:
        b = self._buf
        rv = self.state.revealed[s]
        b[base + 7] = len(rv)
        r = (s - p) % self.n
        if r:
            rix = self._rev_ix[r - 1]
            for f in rv:
                b[rix[f]] += 1.0

    def _encode_attack(self, at: Pending, p: int) -> None:
        b = self._buf
        o = self._o_attack
        n = self.n
        b[o] = 1.0
        if isinstance(at, (DrawAttack, Pot)):
            b[o + 1] = float(at.count)
        if isinstance(at, Pot) and at.level is not None:
            b[o + 2] = float(at.level)
        b[o + 3] = 1.0 if isinstance(at, DrawAttack) and at.locked else 0.0
        b[o + 4] = 1.0 if not isinstance(at, Pot) and at.redirected else 0.0
        kind = ("eject" if isinstance(at, Ejection) else
                "reveal" if isinstance(at, Reveal) else "draw")
        b[o + 5 + ATTACK_KINDS.index(kind)] = 1.0
        base = o + 5 + len(ATTACK_KINDS)
        if at.victim >= 0:
            b[base + (at.victim - p) % n] = 1.0
        if at.sender >= 0:
            b[base + n + (at.sender - p) % n] = 1.0


def env(**kwargs: Any) -> AECEnv:
    """``hotdeath_v0`` wrapped in PettingZoo's checks (action bounds, call order).

    Takes the arguments of :class:`raw_env`.
    """
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
