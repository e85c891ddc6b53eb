#!/usr/bin/env bash
# Makes the README's preview screenshots and the embeds one: the sample notebook's note on compost (maths and highlighted code)
# in the light and dark themes, as headless Chromium draws the page `macmd/preview` gives an
# editor. The same test (PreviewBrowserTests) checks every page's layout; with MACMD_SCREENSHOTS
# it also saves these two.
set -euo pipefail
cd "$(dirname "$0")/.."
MACMD_SCREENSHOTS="$PWD/docs/images" swift test --filter PreviewBrowserTests
ls -l docs/images/preview-light.png docs/images/preview-dark.png

# An embedded section (`![[compost#Ingredients]]`) in every theme, as `macmd render --notebook
# --full-page` draws it, twelve pages side by side: docs/images/embeds-themes.png.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/nb"
printf '# Planting day\n\nThe mix for bed C, from the compost note:\n\n![[compost#Ingredients]]\n\nDone by noon. #garden\n' > "$work/nb/host.md"
printf '# Compost\n\n## Ingredients\n\n- **Greens**: grass, peelings ^greens\n- **Browns**: leaves, card\n\nRatio $\\frac{C}{N} \\approx 30$, see [[host|the plan]].\n\n## Method\n\nTurn weekly.\n' > "$work/nb/compost.md"
swift build --product macmd
macmd=$(swift build --show-bin-path)/macmd
grid='<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0;background:#888;display:grid;grid-template-columns:repeat(4,320px);gap:6px;padding:6px} div{width:320px;height:300px;overflow:hidden;position:relative} iframe{border:0;width:640px;height:600px;transform:scale(.5);transform-origin:0 0} p{position:absolute;bottom:0;right:4px;margin:0;font:12px sans-serif;background:#fff;padding:1px 4px}</style></head><body>'
for theme in light dark basic grass homebrew man-page novel ocean pro red-sands silver-aerogel solid-colors; do
  "$macmd" render --notebook "$work/nb" --full-page --theme "$theme" "$work/nb/host.md" > "$work/$theme.html"
  grid+="<div><iframe src=\"$theme.html\"></iframe><p>$theme</p></div>"
done
echo "$grid</body></html>" > "$work/grid.html"
"${MACMD_CHROMIUM:-chromium}" --headless --no-sandbox --disable-gpu --allow-file-access-from-files --window-size=1310,930 \
  --screenshot="$PWD/docs/images/embeds-themes.png" "file://$work/grid.html" 2>/dev/null
ls -l docs/images/embeds-themes.png
