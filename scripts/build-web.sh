#!/usr/bin/env bash
# Rebuilds the report app's committed assets (internal/report/assets) from
# web/. Needs Node 20+ and npm; installs the pinned devDependencies from
# web/package-lock.json. Commit the changed assets with the sources:
# TestAssetsUpToDate fails when they disagree.
set -euo pipefail
cd "$(dirname "$0")/../web"
npm ci --no-audit --no-fund
npx tsc --noEmit
node build.mjs
