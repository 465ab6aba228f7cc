#!/usr/bin/env bash
# Builds the page into web/dist/: the library's Sudoku layer (web/src/lib.rs)
# compiled to wasm32-unknown-unknown, its JavaScript glue made by the
# wasm-bindgen CLI (installed here, at the version web/Cargo.toml pins, when
# missing), and the static files of web/static/. Serve web/dist/ with any
# static server: python3 -m http.server -d web/dist 8000
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
  echo "installing wasm-bindgen-cli $version (a few minutes, once)"
  cargo install --quiet wasm-bindgen-cli --version "$version"
fi
# Release, without the debug information the workspace's release profile
# keeps for profiling: it would triple the file.
CARGO_PROFILE_RELEASE_DEBUG=false cargo build --quiet -p dlx-web --lib --release \
  --target wasm32-unknown-unknown
rm -rf web/dist
mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist \
  target/wasm32-unknown-unknown/release/dlx_web.wasm
cp web/static/* web/dist/
echo "web/dist: $(du -k web/dist/dlx_web_bg.wasm | cut -f1) KiB of wasm"
