"""The claim/evidence pairs certiq's verifier model is trained and measured on.

When to run it: `make train-verifier` runs it first; run it after changing the verifier's training
sources or the synthetic pairs.

Real pairs (../shared/data, see its README for sources and licences):
  scifact   scifact/claims.train.jsonl           entail / contradict / neutral
  healthver verification/healthver_dev.jsonl     entail / contradict / neutral
  fever     verification/fever_rte_dev.jsonl     entail / not_entail (refuted or not enough info)
  nli/*.jsonl: SNLI, MultiNLI, ANLI, counterfactual SNLI, SICK, Breaking NLI, IMPPRES, ConjNLI,
            SciTail, ContractNLI, Fool Me Twice, Symmetric FEVER, WiCE; each pair's source is its
            row's `source` (snli, mnli, contractnli, ...), so whole sources can be held out

Synthetic pairs, in the spirit of FactCC (Kryscinski et al., 2020), made from sentences of
SciFact abstracts that no claims.train pair cites and of the PolicyQA privacy policies:
  entail      the sentence itself; each clause certiq's claim splitter makes of it; the sentence
              without its parenthesis or its opening connective; a firm sentence against its
              hedged restatement ("may reduce" is implied by "reduces")
  contradict  a negation added or removed; a number, unit or date changed; a direction, quantity
              or comparison reversed (increase/decrease, at least/at most, before/after, must/
              must not); an entity swapped for another of the same corpus (FEVER's convention)
  neutral     a hedged sentence ("may reduce") against the unhedged claim; the claim with a
              qualifier the evidence lacks; another sentence of the same text that shares words
              but not the fact; the sentence joined to another statement the evidence lacks
Evidence is the sentence alone or with its neighbours, as citations quote them.

Every pair carries a group (the claim's lower-cased words) so cross-validation can keep a claim
out of both sides, and a source so runs can hold whole sources out. Seeded: the same seed gives
the same pairs.

    .venv/bin/python scripts/verifier_data.py --out .verifier/pairs.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from verifier_pairs import Pair, write

from certiq.sentences import split_sentences
from certiq.text import words
from certiq.trust.claims import AUXILIARIES, VERBS, RuleSplitter

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
REAL_SOURCES = {
    "scifact": DATA / "scifact" / "claims.train.jsonl",
    "healthver": DATA / "verification" / "healthver_dev.jsonl",
    "fever": DATA / "verification" / "fever_rte_dev.jsonl",
}
NLI = DATA / "nli"
LABELS = ("entail", "contradict", "neutral")


def group_of(claim: str) -> str:
    return " ".join(words(claim))


def real_pairs(name: str | None, path: Path) -> list[Pair]:
    """A file's labelled pairs under ``name``, or under each row's own `source` when None.
    ContractNLI's hypotheses are 17 fixed sentences, so its pairs are grouped by contract, not
    by claim."""
    pairs = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                claim, evidence = str(row["claim"]).strip(), str(row["evidence"]).strip()
                source = name or str(row["source"])
                group = f"{source}:{row['doc']}" if source == "contractnli" else group_of(claim)
                pairs.append(Pair(claim, evidence, str(row["label"]), source, group))
    return pairs


# --- sentences to transform -----------------------------------------------------------------


def scifact_texts(excluded_docs: set[str]) -> Iterator[list[str]]:
    """Sentence lists of SciFact abstracts no claims.train pair cites."""
    with (DATA / "scifact" / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if str(row["_id"]) not in excluded_docs and row.get("sentences"):
                yield [str(sentence).strip() for sentence in row["sentences"]]


def policy_texts() -> Iterator[list[str]]:
    """Sentence lists of PolicyQA's privacy policies, one list per segment."""
    data = json.loads((DATA / "policyqa" / "dev.json").read_text(encoding="utf-8"))
    for policy in data["data"]:
        for paragraph in policy["paragraphs"]:
            text = " ".join(str(paragraph["context"]).split())
            yield [text[start:end] for start, end in split_sentences(text)]


def usable(sentence: str) -> bool:
    n = len(sentence.split())
    return 6 <= n <= 45 and sentence[:1].isupper() and sentence[-1:] in ".!?"


# --- transformations ------------------------------------------------------------------------

# Not may/might/could: "may not" does not deny "may".
_AUXILIARY = re.compile(
    r"\b(is|are|was|were|can|must|should|will|has|have|had|does|do|did)"
    r"\b(?! not\b|n't)",
)
_NEGATED = re.compile(r"\b(is|are|was|were|must|should|will|would|has|have|had|does|do|did) not\b")
_CANNOT = re.compile(r"\bcannot\b")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]*\d)")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
# Each pair flips a claim's meaning when one side replaces the other.
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("increase", "decrease"),
    ("increases", "decreases"),
    ("increased", "decreased"),
    ("higher", "lower"),
    ("more", "less"),
    ("greater", "smaller"),
    ("larger", "smaller"),
    ("at least", "at most"),
    ("minimum", "maximum"),
    ("before", "after"),
    ("above", "below"),
    ("always", "never"),
    ("positive", "negative"),
    ("positively", "negatively"),
    ("promotes", "inhibits"),
    ("enhances", "suppresses"),
    ("activates", "inhibits"),
    ("upregulated", "downregulated"),
    ("improves", "worsens"),
    ("improved", "worsened"),
    ("allowed", "prohibited"),
    ("permitted", "forbidden"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("accept", "reject"),
    ("enable", "disable"),
    ("encrypted", "unencrypted"),
    ("internal", "external"),
    ("earlier", "later"),
    ("first", "last"),
    ("longer", "shorter"),
    ("faster", "slower"),
    ("risk", "protection"),
    ("benefit", "harm"),
    ("effective", "ineffective"),
    ("sufficient", "insufficient"),
    ("associated", "unassociated"),
)
UNITS: tuple[tuple[str, ...], ...] = (
    ("seconds", "minutes", "hours", "days", "weeks", "months", "years"),
    ("mg", "g", "kg", "µg"),
    ("ml", "l"),
    ("mm", "cm", "m", "km"),
    ("percent", "fold"),
)
QUALIFIERS = {
    "scifact": (
        "in all patients",
        "in children",
        "in elderly patients",
        "in women",
        "in every population studied",
        "within 24 hours",
        "in the long term",
        "twice as often",
        "in most patients",
        "independently of age",
        "in a dose-dependent manner",
        "after a single dose",
    ),
    "policy": (
        "in all cases",
        "in every country",
        "for all users",
        "within 24 hours",
        "without exception",
        "permanently",
        "at no cost",
        "for third parties",
        "only in Europe",
        "every month",
        "without your consent",
        "for at least ten years",
    ),
}
_OPENERS = re.compile(
    r"^(However|Moreover|Furthermore|In addition|Additionally|Thus|Therefore|In conclusion|"
    r"Overall|Importantly|Notably|Finally|Here|In this study|In summary|Together|Taken together|"
    r"Consequently|Similarly|Likewise|Specifically),\s+",
)
_PARENTHESIS = re.compile(r"\s*\([^()]{1,80}\)")
_ENTITY = re.compile(r"(?<=\s)([A-Z][a-zA-Z0-9-]{2,}(?:\s[A-Z][a-zA-Z0-9-]{2,})*)")


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def negate(sentence: str) -> str | None:
    if (match := _NEGATED.search(sentence)) is not None:
        return sentence[: match.end(1)] + sentence[match.end() :]
    if _CANNOT.search(sentence):
        return _CANNOT.sub("can", sentence, count=1)
    if " not " in sentence:
        return sentence.replace(" not ", " ", 1)
    if (match := _AUXILIARY.search(sentence)) is not None:
        word = match.group(1)
        replacement = "cannot" if word == "can" else f"{word} not"
        return sentence[: match.start()] + replacement + sentence[match.end() :]
    return None


def change_number(sentence: str, rng: random.Random) -> str | None:
    found = list(_NUMBER.finditer(sentence))
    if not found:
        return None
    match = rng.choice(found)
    text = match.group(1)
    if _YEAR.fullmatch(text):
        new = str(int(text) + rng.choice((-3, -2, -1, 1, 2, 3)))
    elif "." in text:
        value = float(text)
        digits = len(text.split(".")[1])
        new = f"{value * rng.choice((0.5, 0.7, 1.4, 2.0)) + 10**-digits:.{digits}f}"
    else:
        value = int(text)
        new = str(rng.choice((value + rng.randint(1, 9), max(value * 2, value + 1), value * 10)))
        if value > 2 and rng.random() < 0.5:
            new = str(value - rng.randint(1, min(value - 1, 9)))
    if new == text:
        return None
    return sentence[: match.start(1)] + new + sentence[match.end(1) :]


def change_unit(sentence: str, rng: random.Random) -> str | None:
    for family in UNITS:
        for unit in family:
            pattern = re.compile(rf"(?<=\d )({re.escape(unit)})\b")
            if pattern.search(sentence):
                other = rng.choice([u for u in family if u != unit])
                return pattern.sub(other, sentence, count=1)
    return None


def reverse(sentence: str, rng: random.Random) -> str | None:
    options = []
    for left, right in OPPOSITES:
        for mine, other in ((left, right), (right, left)):
            pattern = re.compile(rf"\b{re.escape(mine)}\b", re.IGNORECASE)
            if pattern.search(sentence):
                options.append((pattern, other))
    if not options:
        return None
    pattern, other = rng.choice(options)
    return pattern.sub(
        lambda m: _capitalise(other) if m.group(0)[:1].isupper() else other, sentence, count=1
    )


def swap_entity(sentence: str, entities: Sequence[str], rng: random.Random) -> str | None:
    found = [m for m in _ENTITY.finditer(sentence) if m.group(1) not in {"The", "This", "We"}]
    if not found or not entities:
        return None
    match = rng.choice(found)
    other = rng.choice(entities)
    if other.lower() == match.group(1).lower():
        return None
    return sentence[: match.start(1)] + other + sentence[match.end(1) :]


def hedge(sentence: str) -> str | None:
    """'X reduces Y' -> 'X may reduce Y'; 'X is Y' -> 'X may be Y'; 'X was Y' -> 'X may have
    been Y'. Only verbs certiq's claim rules know, so nouns in -s are left alone."""
    for pattern, weaker in (
        (r"\b(is|are)\b(?! not)", "may be"),
        (r"\b(was|were)\b(?! not)", "may have been"),
    ):
        match = re.search(pattern, sentence)
        if match is not None:
            return sentence[: match.start()] + weaker + sentence[match.end() :]
    tokens = sentence.split()
    for i, token in enumerate(tokens[1:-1], start=1):
        bare = token.lower()
        if bare not in VERBS or not bare.endswith("s") or bare in AUXILIARIES:
            continue
        stems = (bare[:-3] + "y" if bare.endswith("ies") else "", bare[:-2], bare[:-1])
        stem = next((c for c in stems if c and c in VERBS and not c.endswith("s")), None)
        if stem is not None:
            return " ".join([*tokens[:i], "may", stem, *tokens[i + 1 :]])
    return None


def qualify(sentence: str, domain: str, rng: random.Random) -> str:
    body = sentence.rstrip(".!? ")
    return f"{body} {rng.choice(QUALIFIERS[domain])}."


def strip_opener(sentence: str) -> str | None:
    stripped = _OPENERS.sub("", sentence)
    return _capitalise(stripped) if stripped != sentence else None


def strip_parenthesis(sentence: str) -> str | None:
    stripped = _PARENTHESIS.sub("", sentence)
    return stripped if stripped != sentence and len(stripped.split()) >= 5 else None


def overlap(a: str, b: str) -> float:
    left, right = set(words(a)), set(words(b))
    return len(left & right) / max(len(left | right), 1)


# --- assembling -------------------------------------------------------------------------------


class Synthesiser:
    def __init__(self, rng: random.Random, entities: Sequence[str]) -> None:
        self._rng = rng
        self._entities = entities
        self._splitter = RuleSplitter()

    def pairs(self, sentences: Sequence[str], index: int, tag: str) -> Iterator[Pair]:
        rng = self._rng
        sentence = sentences[index]
        evidence = self._context(sentences, index)

        def pair(claim: str | None, label: str, rule: str, on: str = evidence) -> Iterator[Pair]:
            if claim and claim.strip() and len(claim.split()) >= 3:
                yield Pair(claim.strip(), on, label, f"synthetic:{tag}:{rule}", group_of(claim))

        kind = rng.random()
        if kind < 0.38:  # entail
            clauses = self._splitter.split(sentence)
            choices: list[tuple[Callable[[], str | None], str]] = [
                (lambda: rng.choice(clauses) if len(clauses) > 1 else None, "clause"),
                (lambda: strip_opener(sentence), "opener"),
                (lambda: strip_parenthesis(sentence), "parenthesis"),
                (lambda: hedge(sentence), "weaker"),
            ]
            made, rule = self._first(choices)
            if made is None and rng.random() < 0.5:
                made, rule = sentence, "itself"
            yield from pair(made, "entail", rule)
        elif kind < 0.7:  # contradict
            choices = [
                (lambda: negate(sentence), "negation"),
                (lambda: change_number(sentence, rng), "number"),
                (lambda: change_unit(sentence, rng), "unit"),
                (lambda: reverse(sentence, rng), "reversal"),
                (lambda: swap_entity(sentence, self._entities, rng), "entity"),
            ]
            made, rule = self._first(choices)
            if made is not None and rng.random() < 0.3:
                # One clause of it, but only one that the change touched.
                kept = {group_of(clause) for clause in self._splitter.split(sentence)}
                changed = [c for c in self._splitter.split(made) if group_of(c) not in kept]
                made = rng.choice(changed) if changed else made
            yield from pair(made, "contradict", rule)
        else:  # neutral
            others = [s for i, s in enumerate(sentences) if i != index]
            similar = max(others, key=lambda s: overlap(s, sentence), default=None)
            hedged = hedge(sentence)
            choices = [
                (lambda: sentence if hedged else None, "hedged-evidence"),
                (lambda: qualify(sentence, tag, rng), "qualifier"),
                (
                    lambda: similar if similar and overlap(similar, sentence) > 0.15 else None,
                    "shared-words",
                ),
                (lambda: self._joined(sentence, others), "joined"),
            ]
            made, rule = self._first(choices)
            if rule == "hedged-evidence" and hedged:
                yield from pair(made, "neutral", rule, on=evidence.replace(sentence, hedged))
            elif rule == "shared-words":
                # the similar sentence is the claim: evidence must not quote it
                yield from pair(made, "neutral", rule, on=sentence)
            else:
                yield from pair(made, "neutral", rule)

    def _first(
        self, choices: Sequence[tuple[Callable[[], str | None], str]]
    ) -> tuple[str | None, str]:
        order = list(choices)
        self._rng.shuffle(order)
        for make, rule in order:
            made = make()
            if made:
                return made, rule
        return None, ""

    def _joined(self, sentence: str, others: Sequence[str]) -> str | None:
        if not others:
            return None
        other = self._rng.choice(others)
        clauses = self._splitter.split(other)
        extra = self._rng.choice(clauses).rstrip(".!? ")
        return f"{sentence.rstrip('.!? ')}, and {extra[:1].lower()}{extra[1:]}."

    def _context(self, sentences: Sequence[str], index: int) -> str:
        before = self._rng.choice((0, 0, 0, 1, 1, 2))
        after = self._rng.choice((0, 0, 0, 1, 1, 2))
        return " ".join(sentences[max(0, index - before) : index + after + 1])


def synthetic_pairs(count: int, seed: int) -> list[Pair]:
    rng = random.Random(seed)
    cited = {
        json.loads(line)["doc_id"]
        for line in REAL_SOURCES["scifact"].read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    texts: list[tuple[str, list[str]]] = [
        ("scifact", sentences) for sentences in scifact_texts({str(d) for d in cited})
    ]
    texts += [("policy", sentences) for sentences in policy_texts()]
    entities = sorted(
        {
            m.group(1)
            for _, sentences in texts[:3000]
            for s in sentences
            for m in _ENTITY.finditer(s)
        }
    )
    synthesiser = Synthesiser(rng, entities)
    candidates = [
        (tag, sentences, i)
        for tag, sentences in texts
        for i, sentence in enumerate(sentences)
        if usable(sentence)
    ]
    rng.shuffle(candidates)
    # Policies are few but are the prose certiq's users ask about: half the pairs come from them.
    by_tag = {tag: [c for c in candidates if c[0] == tag] for tag in ("scifact", "policy")}
    pairs: list[Pair] = []
    for tag, pool in by_tag.items():
        wanted = count // 2
        made: list[Pair] = []
        while len(made) < wanted and pool:
            for _, sentences, index in pool:
                made.extend(synthesiser.pairs(sentences, index, tag))
                if len(made) >= wanted:
                    break
        pairs.extend(made[:wanted])
    rng.shuffle(pairs)
    return pairs


def all_pairs(synthetic: int, seed: int) -> list[Pair]:
    pairs = [pair for name, path in REAL_SOURCES.items() for pair in real_pairs(name, path)]
    pairs += [pair for path in sorted(NLI.glob("*.jsonl")) for pair in real_pairs(None, path)]
    return pairs + synthetic_pairs(synthetic, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / ".verifier" / "pairs.jsonl.gz")
    parser.add_argument("--synthetic", type=int, default=24000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    pairs = all_pairs(args.synthetic, args.seed)
    write(pairs, args.out)
    counts: dict[str, int] = {}
    for pair in pairs:
        key = f"{pair.source.split(':')[0]}/{pair.label}"
        counts[key] = counts.get(key, 0) + 1
    print(json.dumps({"pairs": len(pairs), "out": str(args.out), "counts": counts}, indent=1))


if __name__ == "__main__":
    main()
