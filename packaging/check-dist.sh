#!/usr/bin/env bash
# check-dist.sh DEB VERSION BUILD: run lintian on the .deb (it must pass
# with only the package's commented overrides), unpack it, check its
# documentation (copyright against the modules compiled in, changelog,
# man page) and scripts, run the packaged binary on a free port with a
# temporary data dir and the packaged config, check /api/health reports
# VERSION and BUILD, stop it with SIGTERM (exit status 0), and verify the
# packaged systemd unit. GO names the go command (default go).
set -euo pipefail
deb=$1 version=$2 build=$3
here=$(dirname "$0")
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "check-dist: $*" >&2; exit 1; }

echo "check-dist: $deb"
dpkg-deb --info "$deb" | grep -E 'Package|Version|Architecture|Maintainer'
pkgversion=$(dpkg-deb --field "$deb" Version)

# lintian: errors and warnings fail, and so does an override that no
# longer matches (unused-override) or has no comment saying why. Info
# tags are shown, not fatal; overridden ones show as O: with their
# comment. (Not --fail-on error,warning: with --show-overrides lintian
# counts the overridden tags too.) .ci/run installs lintian.
command -v lintian >/dev/null || fail "lintian not installed (apt-get install lintian)"
lintian --version
lintian --fail-on none --display-info --show-overrides --tag-display-limit 0 "$deb" >"$tmp/lintian" 2>&1 ||
	{ cat "$tmp/lintian"; fail "lintian did not run"; }
grep -v 'running with root privileges is not recommended' "$tmp/lintian" || true
if grep -qE '^[EW]: ' "$tmp/lintian"; then
	fail "lintian: errors or warnings (E:, W: above): fix them, or override one in packaging/linux/lintian-overrides with a comment saying why"
fi
if grep -qE '^.: posbox: (unused-override|mismatched-override)' "$tmp/lintian"; then
	fail "lintian: an override matches nothing: remove it from packaging/linux/lintian-overrides"
fi
awk '/^posbox: / && prev !~ /^#/ { print "check-dist: override without a comment: " $0; bad = 1 }
	{ prev = $0 } END { exit bad }' "$here/linux/lintian-overrides" || exit 1
echo "lintian: ok"

dpkg-deb -x "$deb" "$tmp/root"
doc=$tmp/root/usr/share/doc/posbox
for f in usr/bin/posbox usr/lib/systemd/system/posbox.service etc/posbox/posbox.conf usr/share/doc/posbox/OPERATIONS.md \
	usr/share/doc/posbox/copyright usr/share/doc/posbox/changelog.gz usr/share/man/man1/posbox.1.gz usr/share/lintian/overrides/posbox; do
	[ -e "$tmp/root/$f" ] || fail "$f missing from the package"
done
dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -q conffiles || fail "no conffiles"
dpkg-deb -e "$deb" "$tmp/ctrl"
grep -qx /etc/posbox/posbox.conf "$tmp/ctrl/conffiles" || fail "the config is not a conffile"
for s in postinst prerm postrm; do
	[ -f "$tmp/ctrl/$s" ] || fail "no $s script"
	sh -n "$tmp/ctrl/$s"
done
grep -q '/run/systemd/system' "$tmp/ctrl/postinst" || fail "postinst starts without checking for systemd"
grep -q 'deb-systemd-invoke' "$tmp/ctrl/postinst" || fail "postinst does not start through deb-systemd-invoke"
# The .deb's and the .rpm's postinstall create the user and the data
# directory with the same lines (indentation aside).
setup() { sed -n '/# BEGIN SETUP/,/# END SETUP/s/^[[:space:]]*//p' "$1"; }
diff <(setup "$here/scripts/deb-postinst.sh") <(setup "$here/scripts/rpm-postinstall.sh") ||
	fail "the SETUP blocks of scripts/deb-postinst.sh and scripts/rpm-postinstall.sh differ"
[ -n "$(setup "$here/scripts/deb-postinst.sh")" ] || fail "no SETUP block in scripts/deb-postinst.sh"

# The changelog's entry is this version's; the man page is this build's.
head -n1 <(gzip -dc "$doc/changelog.gz") | grep -qF "posbox ($pkgversion) " || fail "changelog.gz is not for $pkgversion"
th=$(gzip -dc "$tmp/root/usr/share/man/man1/posbox.1.gz" | grep -m1 '^\.TH ')
want="\"posbox $(printf '%s' "$version" | sed 's/-/\\-/g')\""
[[ $th == *"$want"* ]] || fail "posbox.1 is not for posbox $version: $th"

bin=$tmp/root/usr/bin/posbox
"$bin" version | tee "$tmp/version"
grep -qF "posbox $version" "$tmp/version"

# The copyright file is DEP-5 (every Files paragraph has Copyright and
# License, every licence it names has its text) and lists exactly the
# modules compiled into the binary: a vendor/MODULE/* pattern each
# (patterns below a module, like vendor/modernc.org/sqlite/lib/*, are
# parts of it).
awk -v RS= '
	/^Format: / { next }
	/^Files: / { if ($0 !~ /\nCopyright: / || $0 !~ /\nLicense: /) { print "check-dist: copyright: Files paragraph without Copyright or License: " $2; bad = 1 }
		match($0, /\nLicense: [^\n]*/); l = substr($0, RSTART + 10, RLENGTH - 10)
		n = split(l, names, / (and|or) /); for (i = 1; i <= n; i++) used[names[i]] = 1; next }
	/^License: / { split($0, first, "\n"); sub(/^License: /, "", first[1]); defined[first[1]] = 1; next }
	{ print "check-dist: copyright: unknown paragraph: " substr($0, 1, 40); bad = 1 }
	END { for (l in used) if (!(l in defined)) { print "check-dist: copyright: no text for licence " l; bad = 1 }
		for (l in defined) if (!(l in used)) { print "check-dist: copyright: licence " l " is used by nothing"; bad = 1 }
		exit bad }' "$doc/copyright" || exit 1
"${GO:-go}" version -m "$bin" | awk '$1 == "dep" { print $2 }' | sort -u > "$tmp/modules"
grep -E '^(Files:)? +vendor/' "$doc/copyright" | grep -oE 'vendor/[^ ]+/\*' | sed 's|^vendor/||; s|/\*$||' | sort -u > "$tmp/listed"
while read -r m; do
	grep -qxF "$m" "$tmp/listed" || fail "copyright: module $m is compiled in but not listed (vendor/$m/*)"
done < "$tmp/modules"
while read -r l; do
	grep -qxF "$l" "$tmp/modules" && continue
	while read -r m; do [[ $l == "$m"/* ]] && continue 2; done < "$tmp/modules"
	fail "copyright: vendor/$l/* is not in the binary (go version -m): remove it"
done < "$tmp/listed"
echo "copyright: $(wc -l < "$tmp/modules") modules compiled in, all listed"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)
"$bin" serve --addr "127.0.0.1:$port" --data-dir "$tmp/data" --config "$tmp/root/etc/posbox/posbox.conf" 2>"$tmp/log" &
pid=$!
for _ in $(seq 1 100); do
	if curl -fsS "http://127.0.0.1:$port/api/health" -o "$tmp/health" 2>/dev/null; then break; fi
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/log"; echo "check-dist: posbox exited"; exit 1; }
	sleep 0.1
done
code=$(curl -s -o "$tmp/health" -w '%{http_code}' "http://127.0.0.1:$port/api/health")
echo "GET /api/health -> $code $(cat "$tmp/health")"
[ "$code" = 200 ] || { cat "$tmp/log"; exit 1; }
grep -qF "\"version\":\"$version\"" "$tmp/health" || { echo "check-dist: health lacks version $version"; exit 1; }
grep -qF "\"build\":\"$build\"" "$tmp/health" || { echo "check-dist: health lacks build $build"; exit 1; }
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || { cat "$tmp/log"; echo "check-dist: exit status $status after SIGTERM"; exit 1; }
grep -q 'posbox stopped' "$tmp/log" || { cat "$tmp/log"; echo "check-dist: no clean stop"; exit 1; }

if command -v systemd-analyze >/dev/null; then
	# The unit as installed, with ExecStart pointing at the unpacked binary
	# (verify checks that it exists); warnings name the file.
	sed "s|/usr/bin/posbox|$bin|" "$tmp/root/usr/lib/systemd/system/posbox.service" > "$tmp/posbox.service"
	out=$(systemd-analyze verify "$tmp/posbox.service" 2>&1) || { echo "$out"; exit 1; }
	if grep -F "$tmp/posbox.service:" <<<"$out"; then echo "check-dist: systemd-analyze warnings"; exit 1; fi
	echo "systemd-analyze verify: ok"
else
	echo "systemd-analyze not installed: unit not verified"
fi
echo "check-dist: ok"
