#!/bin/sh
# Rebuilds test/fixtures/mail-replies/{email_reply_parser,talon}/ — the public reply corpora of
# github/email_reply_parser and mailgun/talon at the commits SOURCES.md names — from local git snapshots
# of those repositories ($MIRRORS/<owner>+<name>/repo, default /work/.mirror). The files are test data
# only and are not committed; without them test/adapters/email-reply-corpus.test.ts is skipped, saying so.
# The expectations (email_reply_parser/expected.json) are kept beside the snapshots in
# $MIRRORS/../corpora/mail-replies when they were written; talon/cases.json is rebuilt from talon's tests.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$here/test/fixtures/mail-replies"
mirrors=${MIRRORS:-/work/.mirror}
erp="$mirrors/github+email_reply_parser/repo"
talon="$mirrors/mailgun+talon/repo"
erp_commit=59e5859cfe826d3cb6069bbbfd8577230c93b3cf
talon_commit=71d9b6eb78e985bcdfbf99b69c20c001b4b818c4
mkdir -p "$dir/email_reply_parser/emails" "$dir/talon"
for f in $(git -C "$erp" ls-tree --name-only "$erp_commit" test/emails/); do
  git -C "$erp" show "$erp_commit:$f" > "$dir/email_reply_parser/emails/$(basename "$f")"
done
git -C "$erp" show "$erp_commit:test/email_reply_parser_test.rb" > "$dir/email_reply_parser/email_reply_parser_test.rb"
for f in $(git -C "$talon" ls-tree -r --name-only "$talon_commit" tests/fixtures/ | grep -v '^tests/fixtures/signature/'); do
  out="$dir/talon/fixtures/${f#tests/fixtures/}"
  mkdir -p "$(dirname "$out")"
  git -C "$talon" show "$talon_commit:$f" > "$out"
done
mv "$dir/talon/fixtures/__init__.py" "$dir/talon/fixtures_init.py" 2>/dev/null || true
git -C "$talon" show "$talon_commit:tests/text_quotations_test.py" > "$dir/talon/text_quotations_test.py"
git -C "$talon" show "$talon_commit:tests/html_quotations_test.py" > "$dir/talon/html_quotations_test.py"
(cd "$dir" && python3 build-talon-cases.py)
saved="${CORPORA:-$mirrors/../corpora/mail-replies}/email_reply_parser/expected.json"
[ -f "$saved" ] && cp "$saved" "$dir/email_reply_parser/expected.json"
echo "mail corpora in $dir"
