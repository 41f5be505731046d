"""The ``neural`` bot: a learned action-value network, numpy inference, under a millisecond.

The network is a small multilayer perceptron trained by self-play (``hotdeath train``,
:mod:`hotdeath.rl.train`, ``docs/rl.md``): it reads the observation vector of the RL
environments (:mod:`hotdeath.rl.spaces`), built here from the bot's :class:`View` alone,
and gives every slot of the fixed action space a value (the points the seat can expect
from the hand against the table); the bot plays the legal slot of highest value.  A model
may also carry a *move head* (:mod:`hotdeath.bots.movefeatures`: a learned weight per named
fact of a move, fitted on whole hands by :mod:`hotdeath.rl.tune`), added to each legal
move's score.

Models are ``.npz`` files (the weights and a JSON header naming the variant, the table
size and a digest of the action and observation layouts, so a model never plays a table
it was not made for).  The package ships one per variant and table size it was trained
for (:func:`shipped_models`); the bot spec ``neural`` picks the one that fits the table
and fails with the coded error ``no_model`` where none does.  Inference needs numpy (the
``rl`` extra), never the training library.

This module imports only the standard library and the core until a model is loaded.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import register_bot
from hotdeath.bots.movefeatures import MoveFeatures, feature_names
from hotdeath.errors import OptionError
from hotdeath.pending import DrawAttack, Ejection, Pot, Reveal
from hotdeath.view import View

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from hotdeath.rl.spaces import ActionLayout, ObservationLayout

    F32 = npt.NDArray[np.float32]

FORMAT: Final = "hotdeath-neural/1"
"""The ``format`` of a model file's header."""

MODELS_PACKAGE: Final = "hotdeath.bots.models"
"""Where the shipped model files lie (package data)."""

_PHASES: Final = ("deal", "turn", "response", "choose_color", "choose_victim", "game_over")
_ATTACK_KINDS: Final = ("draw", "eject", "reveal", "other")
_CHECKED: Final = frozenset({A.UNO, A.CATCH})
_NSEAT: Final = 8


def layout_digest(variant: str, players: int) -> str:
    """A digest of the action slots and observation sections of a table (16 hex digits).

    A model records it; a model whose digest differs from the installed code's was made
    for another layout (a card or a section added since) and is refused.
    """
    from hotdeath.rl.spaces import action_layout, observation_layout

    lay = action_layout(variant, players)
    obs = observation_layout(variant, players)
    text = json.dumps([list(lay.names), [list(s) for s in obs.sections]])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise OptionError(
            "missing_extra", "the neural bot needs numpy: pip install 'hotdeath[rl]'"
        ) from None
    return numpy


# --------------------------------------------------------------------------- the model


@dataclass
class Model:
    """An action-value network: ``sign(x)·log(1+|x|)`` of the observation, ReLU layers.

    ``weights`` and ``biases`` are float32 arrays, layer by layer.  The last layer has two
    outputs per action slot: the slot's value (the points the seat can expect from the
    hand against the table, in hundreds) and a logit of how likely ``heuristic:expert``
    is to play it; the bot plays by ``value + prior·logit`` (``prior`` from the header).
    ``meta`` is the file's header (see :meth:`save`).  ``move`` is the optional move
    head: one weight per feature of :func:`hotdeath.bots.movefeatures.feature_names`,
    added to each legal move's score as ``move · features`` (None: no move head).
    """

    variant: str
    players: int
    weights: list[Any]
    biases: list[Any]
    meta: dict[str, Any]
    move: Any = None

    @property
    def hidden(self) -> tuple[int, ...]:
        """The widths of the hidden layers."""
        return tuple(int(w.shape[1]) for w in self.weights[:-1])

    @property
    def prior(self) -> float:
        """The weight of the imitation logit in the score (the header's ``prior``)."""
        return float(self.meta.get("prior", 0.0))

    @property
    def margin(self) -> float:
        """How far a slot's score must lead the imitation's favourite to be played instead.

        The header's ``margin``, in the values' units (hundreds of points); 0: the best
        score is played (:func:`pick_slot`).
        """
        return float(self.meta.get("margin", 0.0))

    def outputs(self, obs: Any) -> Any:
        """Both heads for one observation (1-D) or a batch (2-D) of raw counts.

        The values of the slots, then their imitation logits.
        """
        np = _numpy()
        x = np.sign(obs) * np.log1p(np.abs(obs))
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    def values(self, obs: Any) -> Any:
        """The score the bot plays by, per slot: ``value + prior·logit``."""
        out = self.outputs(obs)
        k = out.shape[-1] // 2
        return out[..., :k] + self.prior * out[..., k:]

    def pick(self, out: Any, slots: Any, bonus: Sequence[float] | None = None) -> int:
        """The slot the bot plays among the legal ``slots``, from the heads ``out``.

        ``bonus``: the move head's score of each of ``slots``.  See :func:`pick_slot`.
        """
        return pick_slot(out, slots, self.prior, self.margin, bonus)

    def with_move(self, move: Any, **meta: Any) -> Model:
        """The same network with the move head ``move`` (a weight per feature) and ``meta``."""
        np = _numpy()
        names = feature_names(self.variant)
        w = np.asarray(move, np.float64).reshape(-1)
        if len(w) != len(names):
            raise OptionError("bad_model", f"a move head of {self.variant} has {len(names)} "
                              f"weights (got {len(w)})")
        head = dict(self.meta, **meta, move_features=list(names))
        return Model(self.variant, self.players, self.weights, self.biases, head, w)

    def save(self, path: str | Path) -> None:
        """Write the model as a compressed ``.npz`` file with its JSON header."""
        np = _numpy()
        head = dict(self.meta, format=FORMAT, variant=self.variant, players=self.players,
                    prior=self.prior,
                    layout=layout_digest(self.variant, self.players))
        arrays: dict[str, Any] = {"header": np.frombuffer(json.dumps(head).encode(), np.uint8)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = np.asarray(w, np.float32)
            arrays[f"b{i}"] = np.asarray(b, np.float32)
        if self.move is not None:
            arrays["move"] = np.asarray(self.move, np.float64)
        with Path(path).open("wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Model:
        """Read a model file; ``OptionError`` (``bad_model``) if it is not a usable one."""
        np = _numpy()
        p = Path(path)
        try:
            with np.load(p, allow_pickle=False) as z:
                head = json.loads(bytes(z["header"]).decode())
                layers = sum(1 for k in z.files if k.startswith("w"))
                weights = [np.ascontiguousarray(z[f"w{i}"], np.float32) for i in range(layers)]
                biases = [np.ascontiguousarray(z[f"b{i}"], np.float32) for i in range(layers)]
                move = np.asarray(z["move"], np.float64) if "move" in z.files else None
        except (OSError, KeyError, ValueError) as e:
            raise OptionError("bad_model", f"{str(p)!r} is not a neural model: {e}") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise OptionError("bad_model", f"{str(p)!r} is not a {FORMAT} model file")
        variant, players = str(head["variant"]), int(head["players"])
        try:
            digest = layout_digest(variant, players)
        except (OptionError, KeyError) as e:
            raise OptionError("bad_model", f"{str(p)!r}: {e}") from None
        if head.get("layout") != digest:
            raise OptionError(
                "bad_model", f"{str(p)!r} was made for another action or observation layout "
                f"of {variant} at {players} players: retrain it with this version")
        if move is not None:
            names = list(feature_names(variant))
            if (head.get("move_features") != names or move.ndim != 1
                    or len(move) != len(names)):
                raise OptionError(
                    "bad_model", f"{str(p)!r} has a move head for other move features: "
                    "fit it again with this version")
        return cls(variant, players, weights, biases, head, move)


def pick_slot(out: Any, slots: Sequence[int], prior: float, margin: float,
              bonus: Sequence[float] | None = None) -> int:
    """The play rule: the legal slot of best score unless it hardly leads the favourite.

    ``out`` is one decision's network output (the values of the slots, then their
    imitation logits).  The score of a slot is ``value + prior·logit``; the *favourite* is
    the legal slot of highest logit (the network's imitation of ``heuristic:expert``).
    The slot of best score is played when its score leads the favourite's by more than
    ``margin``, else the favourite: a value that is only a little better may be noise
    (the maximum of noisy estimates is biased upwards), so the learned values overrule
    the imitation only where they are clearly better.  ``bonus`` (one number per slot of
    ``slots``, the move head's) is added to each score.  Ties go to the lower slot.
    """
    k = len(out) // 2
    extra = bonus if bonus is not None else [0.0] * len(slots)
    if len(extra) != len(slots):
        raise ValueError(f"{len(slots)} slots need as many bonuses (got {len(extra)})")
    best = fav = slots[0]
    sb = float(out[best]) + prior * float(out[k + best]) + extra[0]
    lf = float(out[k + fav])
    sf = sb
    for i in range(1, len(slots)):
        s = slots[i]
        lg = float(out[k + s])
        sc = float(out[s]) + prior * lg + extra[i]
        if sc > sb:
            best, sb = s, sc
        if lg > lf:
            fav, lf, sf = s, lg, sc
    if best == fav or margin <= 0:
        return best
    return best if sb - sf > margin else fav


@cache
def shipped_models() -> dict[tuple[str, int], str]:
    """The models the package ships: ``(variant, players) -> file name`` (do not modify)."""
    out: dict[tuple[str, int], str] = {}
    try:
        files = resources.files(MODELS_PACKAGE).iterdir()
        names = sorted(f.name for f in files)
    except (ModuleNotFoundError, FileNotFoundError):
        return out
    for name in names:
        stem, dot, ext = name.rpartition(".")
        variant, dash, size = stem.rpartition("-")
        if dot and ext == "npz" and dash and size.isdigit():
            out[(variant, int(size))] = name
    return out


@cache
def shipped_model(variant: str, players: int) -> Model:
    """The shipped model of ``variant`` at ``players`` seats (loaded once per process).

    ``OptionError`` with code ``no_model`` when the package has none for that table.
    """
    name = shipped_models().get((variant, players))
    if name is None:
        have = ", ".join(f"{v} at {n} players" for v, n in sorted(shipped_models())) or "none"
        raise OptionError("no_model", f"the neural bot has no model for {variant} at "
                          f"{players} players (models: {have})")
    with resources.as_file(resources.files(MODELS_PACKAGE) / name) as path:
        return Model.load(path)


# --------------------------------------------------------------------------- the encoder


class Encoder:
    """The RL observation and the action slots of a seat, from its view alone.

    The same vector as ``hotdeath.rl.raw_env`` builds from the state for the seat to act
    (a test checks it position by position), so a network trained on the environments
    plays from a view.  Throwdown's card-by-card throws are not supported.
    """

    def __init__(self, variant: str, players: int) -> None:
        from hotdeath.rl.spaces import IGNORE, action_layout, observation_layout

        self.layout: ActionLayout = action_layout(variant, players)
        self.obs_layout: ObservationLayout = observation_layout(variant, players)
        if self.layout.throws:
            raise OptionError("no_model", f"the neural bot cannot play {variant}: its plays "
                              "are built card by card")
        lay = self.obs_layout
        self.n = players
        self.size = lay.size
        self.slots = self.layout.size
        self.ignore = self.layout.single[IGNORE]
        faces = lay.faces
        self.face_ix = {f: i for i, f in enumerate(faces)}
        self.nf = len(faces)
        self.o = {name: off for name, off, _ in lay.sections}

    def encode(self, view: View) -> tuple[Any, dict[int, Action | None]]:
        """``(observation, slots)``: the float32 vector and each legal slot's action.

        ``slots`` maps every legal slot to its engine action (``None``: let the window go
        by); a play that leaves one card carries the Uno call where the rules allow it.
        """
        np = _numpy()
        b = np.zeros(self.size, np.float32)
        p = view.seat if view.seat is not None else 0
        n = self.n
        o = self.o
        fx = self.face_ix
        nf = self.nf
        window = view.current_player != p
        for f in view.hand or ():
            b[o["hand"] + fx[f]] += 1.0
        b[o["decision"] + (1 if window else 0)] = 1.0
        disc = view.discard
        if disc:
            b[o["top"] + fx[disc[-1]]] = 1.0
            hist = o["history"]
            for k in range(min(4, len(disc) - 1)):
                b[hist + k * nf + fx[disc[-2 - k]]] = 1.0
        if view.color >= 0:
            b[o["color"] + view.color] = 1.0
        if view.direction == 1:
            b[o["clockwise"]] = 1.0
        phase = _PHASES.index(view.phase)
        b[o["phase"] + phase] = 1.0
        if view.drew:
            b[o["drew"]] = 1.0
        seats = o["seats"]
        rev = o["revealed"]
        for r in range(n):
            sv = view.seats[(p + r) % n]
            base = seats + r * _NSEAT
            b[base] = sv.hand_size
            if sv.active:
                b[base + 1] = 1.0
                if sv.revealed:
                    b[base + 7] = len(sv.revealed)
                    if r:
                        for f in sv.revealed:
                            b[rev + (r - 1) * nf + fx[f]] += 1.0
            if sv.uno_catchable:
                b[base + 2] = 1.0
            b[base + 3] = sv.score
            if sv.infections:
                b[base + 4] = sv.infections
        if view.phase != "game_over":
            b[seats + 5 + ((view.current_player - p) % n) * _NSEAT] = 1.0
        b[seats + 6 + ((view.dealer - p) % n) * _NSEAT] = 1.0
        if view.sixty_nine_window >= 0:
            b[o["sixty_nine"] + (view.sixty_nine_window - p) % n] = 1.0
        at = view.attack
        if view.phase == "response" and at is not None:
            a0 = o["attack"]
            b[a0] = 1.0
            if isinstance(at, (DrawAttack, Pot)):
                b[a0 + 1] = float(at.count)
            if isinstance(at, Pot) and at.level is not None:
                b[a0 + 2] = float(at.level)
            if isinstance(at, DrawAttack) and at.locked:
                b[a0 + 3] = 1.0
            if not isinstance(at, Pot) and at.redirected:
                b[a0 + 4] = 1.0
            kind = ("eject" if isinstance(at, Ejection) else
                    "reveal" if isinstance(at, Reveal) else "draw")
            b[a0 + 5 + _ATTACK_KINDS.index(kind)] = 1.0
            base = a0 + 5 + len(_ATTACK_KINDS)
            if at.victim >= 0:
                b[base + (at.victim - p) % n] = 1.0
            if at.sender >= 0:
                b[base + n + (at.sender - p) % n] = 1.0
        t0 = o["table"]
        b[t0] = view.draw_pile_size
        b[t0 + 1] = view.hand_no
        b[t0 + 2] = view.hand_size
        return b, self.slots_of(view, window)

    def slots_of(self, view: View, window: bool) -> dict[int, Action | None]:
        """The legal slots of the view's seat and their actions (the environment's mask)."""
        p = view.seat if view.seat is not None else 0
        open_ = {s.seat for s in view.seats if s.uno_catchable}
        slot_of = self.layout.slot_of
        out: dict[int, Action | None] = {}
        for a in view.legal_actions:
            slot = slot_of(a, p)
            if slot < 0:
                continue
            if a.kind in _CHECKED and (p if a.kind == A.UNO else a.target) not in open_:
                continue  # a call that is sure to be wrong: never offered
            if slot not in out or a.uno:
                out[slot] = a
        if window:
            out[self.ignore] = None
        return out


# --------------------------------------------------------------------------- the bot


def fits(variant: str, players: int) -> bool:
    """Whether the package ships a model for ``variant`` at ``players`` seats."""
    return (variant, players) in shipped_models()


@register_bot(
    "neural",
    "A network trained by self-play (docs/rl.md) that decides in a fraction of a "
    "millisecond; Hot Death at 4 players and standard Uno heads-up.",
    fits=fits,
)
class NeuralBot:
    """Plays the legal slot of highest learned value (see the module docstring).

    ``model`` fixes the network (a :class:`Model` or a model file); by default the bot
    uses the shipped model of whatever table it sits at.
    """

    name = "neural"

    def __init__(self, model: Model | str | Path | None = None) -> None:
        _numpy()
        if isinstance(model, (str, Path)):
            model = Model.load(model)
        self.model: Model | None = model
        self._encoders: dict[tuple[str, int], Encoder] = {}
        self._features: dict[str, MoveFeatures] = {}

    def __repr__(self) -> str:
        m = self.model
        return "NeuralBot()" if m is None else f"NeuralBot({m.variant!r}, {m.players})"

    def _setup(self, view: View) -> tuple[Model, Encoder]:
        key = (view.variant, view.players)
        model = self.model
        if model is None:
            model = shipped_model(*key)
        elif (model.variant, model.players) != key:
            raise OptionError("no_model", f"this neural model plays {model.variant} at "
                              f"{model.players} players, not {key[0]} at {key[1]}")
        enc = self._encoders.get(key)
        if enc is None:
            enc = self._encoders[key] = Encoder(*key)
        return model, enc

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The legal action of highest value (``None``: let an out-of-turn window go by).

        ``OptionError`` (``no_model``) when no model fits the table.
        """
        if not view.legal_actions or view.seat is None or view.phase == "game_over":
            return None
        model, enc = self._setup(view)
        obs, slots = enc.encode(view)
        if not slots:
            return None
        if len(slots) == 1:
            return next(iter(slots.values()))
        order = sorted(slots)
        bonus = None
        if model.move is not None:
            feats = self._features.get(view.variant)
            if feats is None:
                feats = self._features[view.variant] = MoveFeatures(view.variant)
            rows = feats.of(view, [slots[s] for s in order], rng)
            w = model.move
            bonus = [sum(x * float(w[j]) for j, x in enumerate(r) if x) for r in rows]
        return slots[model.pick(model.outputs(obs), order, bonus)]


__all__ = ["Encoder", "Model", "NeuralBot", "fits", "layout_digest", "pick_slot",
           "shipped_model", "shipped_models"]
