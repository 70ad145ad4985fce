#!/bin/sh
# posbox prerm (.deb): "remove", "upgrade" new-version, "deconfigure",
# "failed-upgrade". Stop only on removal (as dh_installsystemd does): an
# upgrade restarts the service in the new package's postinst.
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	deb-systemd-invoke stop posbox.service >/dev/null || true
fi
exit 0
