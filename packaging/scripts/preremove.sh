#!/bin/sh
# posbox preremove (deb: "remove" or "upgrade"; rpm: 0 erase, 1 upgrade).
# Stop and disable only on removal; an upgrade restarts in postinstall.
set -e
case "$1" in
remove | 0)
	if [ -d /run/systemd/system ]; then
		systemctl disable --now posbox.service >/dev/null 2>&1 || true
	fi
	;;
esac
exit 0
