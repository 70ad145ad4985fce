#!/usr/bin/env bash
# build-msi.sh VERSION SOURCEDIR OUT.msi: the Windows installer from the
# zip's folder, with Debian's wixl. MSI versions are three numbers, so a
# development build (0.0.0+git.<commit>) is 0.0.0.
set -euo pipefail
version=$1 src=$2 out=$3
msiver=$(echo "$version" | sed -E 's/^([0-9]+\.[0-9]+\.[0-9]+).*/\1/')
wixl -a x64 -D Version="$msiver" -D SourceDir="$src" -o "$out" "$(dirname "$0")/posbox.wxs" 2> >(grep -v -e NeverOverwrite -e Permanent -e '^$' >&2)
# wixl ignores NeverOverwrite and Permanent on the config's component;
# set them in the Component table (64-bit 256 + Permanent 16 +
# NeverOverwrite 128) so upgrades and uninstalls keep the admin's config.
msibuild "$out" -q "UPDATE Component SET Attributes = 400 WHERE Component = 'PosboxConf'"
msiinfo export "$out" Component | grep -q $'PosboxConf\t.*\t400\t' || { echo "build-msi: could not mark the config permanent" >&2; exit 1; }
echo "created $out"
