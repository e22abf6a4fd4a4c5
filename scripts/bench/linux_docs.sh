#!/usr/bin/env bash
# Writes the benchmark corpus the engine issue was measured on: the Linux kernel's
# Documentation/ tree, one paragraph per line. It comes from Debian's linux-doc package (a
# registry these machines reach), so it is real text, reproducible from the version named here.
#
#   scripts/bench/linux_docs.sh [OUT]      default OUT: /tmp/linux-docs.txt
#
# Environment: LINUX_DOC_PACKAGE (linux-doc-6.12). Needs apt-get (Debian or Ubuntu) and python3;
# the .deb is kept in ${XDG_CACHE_HOME:-~/.cache}/bpe-lab/ so later runs skip the download.
#
# Every file of Documentation/ but the drawings (.svg, .dot) is read: reStructuredText, plain
# text, the device-tree YAML bindings and the few scripts among them. Paragraphs are runs of
# non-blank lines; each becomes one line, its lines stripped and joined with a space. Files are
# read in sorted path order, so the output is the same byte for byte on every machine.
set -euo pipefail

out="${1:-/tmp/linux-docs.txt}"
package="${LINUX_DOC_PACKAGE:-linux-doc-6.12}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/bpe-lab"
mkdir -p "$cache"

deb=$(find "$cache" -maxdepth 1 -name "${package}_*_all.deb" | sort | tail -n 1)
if [ -z "$deb" ]; then
    echo "downloading $package (apt-get download) ..." >&2
    (cd "$cache" && apt-get download "$package") || {
        echo "linux_docs.sh: apt-get download $package failed (run 'apt-get update' first?)" >&2
        exit 1
    }
    deb=$(find "$cache" -maxdepth 1 -name "${package}_*_all.deb" | sort | tail -n 1)
fi

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
dpkg-deb -x "$deb" "$tree"
docs=$(find "$tree" -type d -path '*/linux-doc-*/Documentation' | head -n 1)
[ -n "$docs" ] || { echo "linux_docs.sh: no Documentation/ folder in $deb" >&2; exit 1; }

tmp="$out.tmp.$$"
python3 - "$docs" "$tmp" <<'PY'
import gzip, os, sys

docs, out = sys.argv[1], sys.argv[2]
skipped = ('.svg', '.dot')
paths = []
for root, _, files in os.walk(docs):
    for name in files:
        plain = name[:-3] if name.endswith('.gz') else name
        if not plain.endswith(skipped):
            paths.append(os.path.join(root, name))
paths.sort()
paragraphs = 0
with open(out, 'w', encoding='utf-8', newline='\n') as sink:
    for path in paths:
        opener = gzip.open if path.endswith('.gz') else open
        with opener(path, 'rb') as f:
            text = f.read().decode('utf-8', errors='replace')
        paragraph = []
        for line in text.splitlines() + ['']:
            line = line.strip()
            if line:
                paragraph.append(line)
            elif paragraph:
                sink.write(' '.join(paragraph) + '\n')
                paragraphs += 1
                paragraph = []
print(f'{len(paths)} files, {paragraphs} paragraphs', file=sys.stderr)
PY
mv "$tmp" "$out"
echo "wrote $out ($(du -m "$out" | cut -f1) MB) from $(basename "$deb")" >&2
