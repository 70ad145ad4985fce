#!/bin/sh
# posbox %preun (.rpm): $1 = 0 on erase, 1 on an upgrade. As the
# %systemd_preun macro: stop and disable on erase only; an upgrade
# restarts the service in the new package's %post.
set -e
if [ "$1" = 0 ] && command -v systemctl >/dev/null 2>&1; then
	systemctl --no-reload disable --now posbox.service >/dev/null 2>&1 || true
fi
exit 0
