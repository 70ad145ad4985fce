#!/bin/sh
# posbox %post (.rpm): $1 = 1 on the first install, 2 or more on an
# upgrade. The .deb's is deb-postinst.sh: the part between the SETUP lines
# is the same in both (make check-dist compares them).
set -e

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

# The unit, as the %systemd_post and %systemd_postun_with_restart macros
# do it, except that the first install enables it (a distribution's
# presets leave a third-party service disabled; the appliance is
# installed to run). "enable" works where systemd does not run (a chroot,
# an image being built); starting only where it runs. An upgrade
# restarts a running service and leaves a stopped or disabled one alone.
command -v systemctl >/dev/null 2>&1 || exit 0
if [ "$1" = 1 ]; then
	systemctl --no-reload enable posbox.service >/dev/null 2>&1 || true
fi
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload >/dev/null 2>&1 || true
	if [ "$1" = 1 ]; then
		action=start
	else
		action=try-restart
	fi
	systemctl "$action" posbox.service || echo "posbox: the service did not start; see journalctl -u posbox" >&2
fi
exit 0
