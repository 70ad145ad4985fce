#!/bin/sh
# posbox postinst (.deb): "configure" [old-version], or "abort-upgrade",
# "abort-remove", "abort-deconfigure" after a failed upgrade or removal.
# The rpm's is rpm-postinstall.sh: the part between the SETUP lines is the
# same in both (make check-dist compares them).
set -e

if [ "$1" = configure ]; then
	# BEGIN SETUP
	# The service's own user, no login, home = the data directory.
	if ! getent group posbox >/dev/null 2>&1; then
		groupadd --system posbox
	fi
	if ! getent passwd posbox >/dev/null 2>&1; then
		nologin=$(command -v nologin || echo /usr/sbin/nologin)
		useradd --system --gid posbox --home-dir /var/lib/posbox --no-create-home \
			--shell "$nologin" --comment "posbox POS back office" posbox
	fi

	# Data directory: only posbox reads it (database, signing keys, backups).
	install -d -m 0700 -o posbox -g posbox /var/lib/posbox

	# The config may hold SMTP and SMS secrets: root writes, posbox reads.
	if [ -f /etc/posbox/posbox.conf ]; then
		chown root:posbox /etc/posbox/posbox.conf
		chmod 0640 /etc/posbox/posbox.conf
	fi
	# END SETUP
fi

# The unit, as debhelper's dh_installsystemd does it (no systemctl
# enable/start here: lintian's maintainer-script-calls-systemctl).
# deb-systemd-helper (init-system-helpers, Essential) enables the unit
# on the first install, also where systemd does not run (a chroot or an
# image being built: it starts at the first boot), and keeps an admin's
# "systemctl disable" on upgrades. deb-systemd-invoke starts it on the
# first install and restarts it on an upgrade only where systemd runs,
# honours policy-rc.d, and leaves a disabled or stopped unit alone.
case "$1" in
configure | abort-upgrade | abort-deconfigure | abort-remove)
	if command -v deb-systemd-helper >/dev/null 2>&1; then
		# Undoes only the mask the postrm set on "remove".
		deb-systemd-helper unmask posbox.service >/dev/null || true
		# was-enabled is true on a first install.
		if deb-systemd-helper --quiet was-enabled posbox.service; then
			deb-systemd-helper enable posbox.service >/dev/null || true
		else
			deb-systemd-helper update-state posbox.service >/dev/null || true
		fi
	fi
	if [ -d /run/systemd/system ]; then
		systemctl --system daemon-reload >/dev/null || true
		if [ -n "$2" ]; then
			action=try-restart
		else
			action=start
		fi
		if command -v deb-systemd-invoke >/dev/null 2>&1; then
			deb-systemd-invoke "$action" posbox.service >/dev/null ||
				echo "posbox: the service did not start; see journalctl -u posbox" >&2
		else
			echo "posbox: deb-systemd-invoke not found: start it with systemctl start posbox" >&2
		fi
	fi
	;;
esac
exit 0
