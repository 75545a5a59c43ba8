#!/usr/bin/env bash
# `npm test`: the static checks (`npm run check`: Biome, wrangler types, tsc) run beside vitest, not before it. vitest
# leaves part of a core idle while workerd waits on its storage, and tsc fills it: 178 s instead of 204 s on a 2-core
# machine (docs/benchmarks.md, "Test suite"). The checks' output is held and printed after vitest's, so the two do not
# interleave; either failing fails the command. Arguments go to vitest (`npm test -- test/orders`).
set -u
checks_log=$(mktemp)
trap 'rm -f "$checks_log"' EXIT
npm run -s check >"$checks_log" 2>&1 &
checks=$!
npx vitest run "$@"
tests=$?
wait "$checks"
checked=$?
if [ "$checked" -ne 0 ]; then
  echo "npm run check failed:" >&2
  cat "$checks_log" >&2
fi
[ "$tests" -eq 0 ] && [ "$checked" -eq 0 ]
