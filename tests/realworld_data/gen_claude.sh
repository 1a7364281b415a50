#!/usr/bin/env bash
# Reference ids of Anthropic's claude.json (npm @anthropic-ai/tokenizer 0.0.4, not in
# ../shared/realworld/models.json) on ../shared/realworld/texts.txt, with the package's own
# JavaScript: ../shared/realworld/tools/claude_json_ids.js (getTokenizer().encode(NFKC, 'all')).
# Needs node 20 and npm. Writes tests/realworld_data/claude_json.jsonl ({"i": n, "ids": [...]}).
# Usage (from the repository root): bash tests/realworld_data/gen_claude.sh [WORKDIR]
set -euo pipefail
SHARED=${TOKLAB_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
WORK=${1:-$(mktemp -d)}
OUT=$(cd "$(dirname "$0")" && pwd)/claude_json.jsonl
mkdir -p "$WORK/node"
(cd "$WORK/node" && npm install --no-audit --no-fund @anthropic-ai/tokenizer@0.0.4 tiktoken@1.0.22 >/dev/null)
MODEL=$WORK/node/node_modules/@anthropic-ai/tokenizer/claude.json
NODE_PATH=$WORK/node/node_modules node "$SHARED/realworld/tools/claude_json_ids.js" \
  "$SHARED/realworld/texts.txt" "$MODEL" > "$WORK/ids.txt"
python3 - "$WORK/ids.txt" "$OUT" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
print('versions:', json.loads(lines[0])['versions'], file=sys.stderr)
rows = [l for l in lines[1:] if l]
with open(sys.argv[2], 'w', encoding='utf-8') as f:
    for i, l in enumerate(rows):
        f.write(json.dumps({'i': i, 'ids': json.loads(l)}, separators=(', ', ': ')) + '\n')
PY
