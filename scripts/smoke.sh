#!/usr/bin/env bash
# Smoke test of the compiled executable, run from an empty directory with no node_modules beside it.
set -euo pipefail
bin="$1"
work=$(mktemp -d)
trap '[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

"$bin" --help >/dev/null
"$bin" --version
company=$("$bin" --data-dir "$work/data" company create "Smoke Co" --json | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).id))')
key=$("$bin" --data-dir "$work/data" key create --company "$company" --json | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).key))')
public_id=$(echo "$key" | cut -d_ -f2)
"$bin" --data-dir "$work/data" doctor

port=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
"$bin" --data-dir "$work/data" serve --port "$port" --log-level warn &
pid=$!
for _ in $(seq 1 50); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/healthz"; echo
kill -TERM "$pid"; wait "$pid"; pid=
"$bin" --data-dir "$work/data" key revoke "$public_id" --yes
code=0; "$bin" --data-dir "$work/data" key create --company 999 2>/dev/null || code=$?
if [ "$code" != 3 ]; then echo "expected exit code 3 (not found) for an unknown company, got $code"; exit 1; fi
echo "smoke test passed"
