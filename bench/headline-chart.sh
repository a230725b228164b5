#!/usr/bin/env bash
# Draws docs/benchmarks-headline.svg from the headline table of docs/benchmarks.md: for each benchmark, a grey bar for
# the peer's time (1.0) and a blue one for ours (the table's last column, ours / peer), so a shorter blue bar is
# faster. The table is the source; rerun this after updating it. Needs only bash and awk.
#
#   bench/headline-chart.sh [docs/benchmarks.md] [docs/benchmarks-headline.svg]
set -euo pipefail
cd "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.."
page=${1:-docs/benchmarks.md}
svg=${2:-docs/benchmarks-headline.svg}

awk -F'|' '
    # the rows of the table under "## Headline": | [benchmark](#anchor) | ours | peer | ours | peer | ours / peer |
    /^## / { inside = ($0 ~ /^## Headline/); next }
    !inside || !/^\| \[/ { next }
    {
        name = $2; sub(/^ *\[/, "", name); sub(/\].*$/, "", name)
        peer = $4; gsub(/^ +| +$/, "", peer); gsub(/`/, "", peer)
        ratio = $7; gsub(/^ +| +$/, "", ratio)
        if (ratio !~ /^[0-9]+(\.[0-9]+)?$/) { printf "headline-chart: row \"%s\": ours / peer is \"%s\", not a number\n", name, ratio > "/dev/stderr"; bad = 1; exit 1 }
        n++; names[n] = name; peers[n] = peer; ratios[n] = ratio + 0
        if (ratio + 0 > top) top = ratio + 0
    }
    END {
        if (bad) exit 1
        if (n == 0) { print "headline-chart: no headline table in the page" > "/dev/stderr"; exit 1 }
        if (top < 1) top = 1
        left = 330; width = 420; row = 34; bar = 12; height = 70 + n * row
        scale = width / (top * 1.1)
        printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", left + width + 60, height
        printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
        printf "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">tensor-broadcast against each peer: time relative to the peer (shorter is faster)</text>\n"
        printf "<rect x=\"10\" y=\"30\" width=\"12\" height=\"10\" fill=\"#9e9e9e\"/><text x=\"26\" y=\"39\">peer (1.0)</text>\n"
        printf "<rect x=\"110\" y=\"30\" width=\"12\" height=\"10\" fill=\"#1f77b4\"/><text x=\"126\" y=\"39\">tensor-broadcast</text>\n"
        for (i = 1; i <= n; i++) {
            y = 55 + (i - 1) * row
            printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8, y + bar, esc(names[i])
            printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#616161\" font-size=\"10\">vs %s</text>\n", left - 8, y + 2 * bar + 1, esc(peers[i])
            printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#9e9e9e\"/>\n", left, y, scale, bar
            printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#1f77b4\"/>\n", left, y + bar + 1, ratios[i] * scale, bar
            printf "<text x=\"%.1f\" y=\"%d\">%.2f</text>\n", left + ratios[i] * scale + 4, y + 2 * bar, ratios[i]
        }
        printf "<line x1=\"%.1f\" y1=\"50\" x2=\"%.1f\" y2=\"%d\" stroke=\"#616161\" stroke-dasharray=\"3,3\"/>\n", left + scale, left + scale, height - 10
        printf "</svg>\n"
    }
    function esc(text) { gsub(/&/, "\\&amp;", text); gsub(/</, "\\&lt;", text); gsub(/>/, "\\&gt;", text); return text }
' "$page" >"$svg.tmp"
mv "$svg.tmp" "$svg"
echo "wrote $svg" >&2
