#!/usr/bin/env bash
# Makes the README's preview screenshots: the sample notebook's note on compost (maths and highlighted code)
# in the light and dark themes, as headless Chromium draws the page `macmd/preview` gives an
# editor. The same test (PreviewBrowserTests) checks every page's layout; with MACMD_SCREENSHOTS
# it also saves these two.
set -euo pipefail
cd "$(dirname "$0")/.."
MACMD_SCREENSHOTS="$PWD/docs/images" swift test --filter PreviewBrowserTests
ls -l docs/images/preview-light.png docs/images/preview-dark.png
