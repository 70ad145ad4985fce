#!/bin/sh
# posbox postinstall (deb: "configure" [old-version]; rpm: 1 install, 2 upgrade).
set -e

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

# Enable and (re)start only where systemd runs: not in containers or
# chroots, where "posbox serve" is started by hand.
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload >/dev/null 2>&1 || true
	systemctl enable posbox.service >/dev/null 2>&1 || true
	systemctl restart posbox.service || echo "posbox: the service did not start; see journalctl -u posbox" >&2
fi
exit 0
