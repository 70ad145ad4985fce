#!/bin/sh
# posbox %postun (.rpm): $1 = 0 on erase, 1 on an upgrade. The data in
# /var/lib/posbox and the posbox user are kept: the database holds fiscal
# records that must be kept for years (see OPERATIONS.md to remove them
# by hand).
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload >/dev/null 2>&1 || true
fi
exit 0
