#!/usr/bin/env bash
# desktop-fonts.sh DIR: a fontconfig configuration in DIR with the fonts a desktop has beside the
# ones `make deps` installs: Noto Sans and Serif CJK (fonts-noto-cjk, Ubuntu's default, 56 MB),
# unpacked from Debian's package into DIR, not installed. Its cache is DIR/cache. Prints the
# path of DIR/fonts.conf for FONTCONFIG_FILE. Run again, it only prints it.
set -euo pipefail
dir=$(realpath -m "${1:?usage: desktop-fonts.sh DIR}")
conf="$dir/fonts.conf"
if [ -f "$conf" ]; then echo "$conf"; exit 0; fi
mkdir -p "$dir/download" "$dir/root" "$dir/conf.d" "$dir/cache"
(cd "$dir/download" && apt-get download -q fonts-noto-cjk >/dev/null 2>&1) || {
    echo "error: apt-get download fonts-noto-cjk failed (Debian's package registry is needed)" >&2; exit 1; }
dpkg -x "$dir"/download/fonts-noto-cjk_*.deb "$dir/root"
# The system's rules in their order, with the package's own among them as installing it would.
for rule in /etc/fonts/conf.d/*.conf; do ln -sf "$rule" "$dir/conf.d/"; done
ln -sf "$dir/root/usr/share/fontconfig/conf.avail/70-fonts-noto-cjk.conf" "$dir/conf.d/"
sed -e "s|<include ignore_missing=\"yes\">conf.d</include>|<include ignore_missing=\"no\">$dir/conf.d</include>|" \
    -e "s|<dir>/usr/share/fonts</dir>|<dir>/usr/share/fonts</dir><dir>$dir/root/usr/share/fonts</dir>|" \
    -e "/<cachedir/d" -e "s|</fontconfig>|<cachedir>$dir/cache</cachedir></fontconfig>|" \
    /etc/fonts/fonts.conf >"$conf.new"
grep -q "$dir/conf.d" "$conf.new" && grep -q "$dir/root" "$conf.new" || {
    echo "error: /etc/fonts/fonts.conf is not as expected" >&2; exit 1; }
FONTCONFIG_FILE="$conf.new" fc-cache "$dir/root/usr/share/fonts" >/dev/null
mv "$conf.new" "$conf"
echo "$conf"
