#!/bin/sh
# changelog.sh VERSION COMMIT MAINTAINER EPOCH: the .deb's changelog (one
# entry, in debian/changelog's format) for the package version, dated
# EPOCH (SOURCE_DATE_EPOCH: the commit's time). The Makefile compresses it
# with gzip -9n to /usr/share/doc/posbox/changelog.gz: the version has no
# Debian revision, so the package is native and lintian wants that name.
set -eu
version=$1 commit=$2 maintainer=$3 epoch=$4
date=$(date -u -R -d "@$epoch" 2>/dev/null || date -u -R -r "$epoch")
cat <<END
posbox ($version) stable; urgency=medium

  * posbox $version, built from commit ${commit:-unknown}.
  * Running the box (install, backups, upgrades):
    /usr/share/doc/posbox/OPERATIONS.md.

 -- $maintainer  $date
END
