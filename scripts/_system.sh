# Sourced by scripts/run and scripts/test: Debian packages the app and its tests need,
# installed when missing (as root or with passwordless sudo).
#   fonts-dejavu-core, fonts-wqy-microhei: TrueType fonts the PDFs embed (Latin, Cyrillic, CJK, Hangul)
#   chromium, chromium-driver: the browser tests (scripts/test only)
apt_install() {
  local missing=("$@")
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo
  if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
  if [ "$sudo" = none ] || ! command -v apt-get >/dev/null; then
    echo "warning: please install ${missing[*]} (apt-get install ${missing[*]})" >&2
    return 0
  fi
  echo "Installing ${missing[*]}..." >&2
  { $sudo apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { $sudo apt-get update -q >/dev/null 2>&1 && $sudo apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; }; } \
    || echo "warning: could not install ${missing[*]}" >&2
}

need_fonts() {
  local pkgs=()
  [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || pkgs+=(fonts-dejavu-core)
  [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || pkgs+=(fonts-wqy-microhei)
  printf '%s\n' "${pkgs[@]}"
}
