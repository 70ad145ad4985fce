#!/bin/sh
# posbox postrm (.deb): "remove", "purge", "upgrade", "abort-*"... As
# dh_installsystemd does it: "remove" masks the unit (undone by the
# postinst of a reinstall), "purge" forgets its enablement and mask.
#
# The data in /var/lib/posbox and the posbox user are kept even on purge:
# the database holds fiscal records that must be kept for years (see
# OPERATIONS.md to remove them by hand).
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	systemctl --system daemon-reload >/dev/null || true
fi
if command -v deb-systemd-helper >/dev/null 2>&1; then
	case "$1" in
	remove)
		deb-systemd-helper mask posbox.service >/dev/null || true
		;;
	purge)
		deb-systemd-helper purge posbox.service >/dev/null || true
		deb-systemd-helper unmask posbox.service >/dev/null || true
		;;
	esac
fi
exit 0
