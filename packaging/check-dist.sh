#!/usr/bin/env bash
# check-dist.sh DEB VERSION BUILD: unpack the .deb, run the packaged
# binary on a free port with a temporary data dir and the packaged
# config, check /api/health reports VERSION and BUILD, stop it with
# SIGTERM (exit status 0), and verify the packaged systemd unit.
set -euo pipefail
deb=$1 version=$2 build=$3
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

echo "check-dist: $deb"
dpkg-deb --info "$deb" | grep -E 'Package|Version|Architecture'
dpkg-deb -x "$deb" "$tmp/root"
for f in usr/bin/posbox usr/lib/systemd/system/posbox.service etc/posbox/posbox.conf usr/share/doc/posbox/OPERATIONS.md; do
	[ -e "$tmp/root/$f" ] || { echo "check-dist: $f missing from the package"; exit 1; }
done
dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -q conffiles || { echo "check-dist: no conffiles"; exit 1; }
dpkg-deb -e "$deb" "$tmp/ctrl"
grep -qx /etc/posbox/posbox.conf "$tmp/ctrl/conffiles" || { echo "check-dist: the config is not a conffile"; exit 1; }
for s in postinst prerm postrm; do
	[ -f "$tmp/ctrl/$s" ] || { echo "check-dist: no $s script"; exit 1; }
	sh -n "$tmp/ctrl/$s"
done
grep -q '/run/systemd/system' "$tmp/ctrl/postinst" || { echo "check-dist: postinst enables without checking for systemd"; exit 1; }

bin=$tmp/root/usr/bin/posbox
"$bin" version | tee "$tmp/version"
grep -qF "posbox $version" "$tmp/version"

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
