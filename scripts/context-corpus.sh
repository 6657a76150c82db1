#!/bin/sh
# Rebuilds test/guard/data/context-files/files/ from SOURCES (local name, repository, path, commit) out of
# local git snapshots of those public repositories, one per repository under $MIRRORS/<owner>+<name>/repo
# (default /work/.mirror, where the fetch tool puts them). The files are test data only and are not committed.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$here/test/guard/data/context-files"
mirrors=${MIRRORS:-/work/.mirror}
mkdir -p "$dir/files"
grep -v '^#' "$dir/SOURCES" | while IFS="$(printf '\t')" read -r name repo path commit; do
  [ -n "$name" ] || continue
  git -C "$mirrors/$(echo "$repo" | sed 's#/#+#')/repo" show "$commit:$path" > "$dir/files/$name"
done
echo "$(ls "$dir/files" | wc -l) files in $dir/files"
