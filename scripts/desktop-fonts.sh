#!/usr/bin/env bash
# desktop-fonts.sh DIR: a fontconfig configuration in DIR with the fonts a desktop has: those
# `make deps` installs (DejaVu, Noto Color Emoji, NanumGothic, IPAGothic, Lohit Devanagari, ...)
# and Noto Sans and Serif CJK (fonts-noto-cjk: installed by default on Ubuntu's desktop and
# recommended by Debian's Korean and Chinese desktop tasks, which have NanumGothic too; 56 MB),
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
# Each link points at the rule's file itself: fontconfig parsed a link to /etc/fonts/conf.d's
# link to conf.avail at 14 million instructions more per start (fc-match: 47 against 33).
for rule in /etc/fonts/conf.d/*.conf; do ln -sf "$(readlink -f "$rule")" "$dir/conf.d/"; done
ln -sf "$dir/root/usr/share/fontconfig/conf.avail/70-fonts-noto-cjk.conf" "$dir/conf.d/"
sed -e "s|<include ignore_missing=\"yes\">conf.d</include>|<include ignore_missing=\"no\">$dir/conf.d</include>|" \
    -e "s|<dir>/usr/share/fonts</dir>|<dir>/usr/share/fonts</dir><dir>$dir/root/usr/share/fonts</dir>|" \
    -e "/<cachedir/d" -e "s|</fontconfig>|<cachedir>$dir/cache</cachedir></fontconfig>|" \
    /etc/fonts/fonts.conf >"$conf.new"
grep -q "$dir/conf.d" "$conf.new" && grep -q "$dir/root" "$conf.new" || {
    echo "error: /etc/fonts/fonts.conf is not as expected" >&2; exit 1; }
FONTCONFIG_FILE="$conf.new" fc-cache "$dir/root/usr/share/fonts" >/dev/null
# What a desktop shows Korean and emoji with: Noto Sans CJK for Hangul, Noto Color Emoji.
korean=$(FONTCONFIG_FILE="$conf.new" fc-match -f '%{family[0]}' 'sans-serif:charset=d55c')
emoji=$(FONTCONFIG_FILE="$conf.new" fc-match -f '%{family[0]}' 'sans-serif:charset=1f600:color=true')
[[ $korean == "Noto Sans CJK"* && $emoji == "Noto Color Emoji" ]] || {
    echo "error: the desktop set draws Korean with '$korean' and emoji with '$emoji'" \
        "(Noto Sans CJK and Noto Color Emoji expected; make deps installs fonts-noto-color-emoji)" >&2; exit 1; }
mv "$conf.new" "$conf"
echo "$conf"
