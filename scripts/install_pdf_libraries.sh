#!/usr/bin/env bash
# PDFs (count sheets) are rendered by WeasyPrint, which needs Pango and the DejaVu fonts from
# Debian's archive. Installs them when they are missing.
set -eu
have_pango() { ldconfig -p | grep -q 'libpango-1.0.so' && ldconfig -p | grep -q 'libpangoft2-1.0.so'; }
have_fonts() { [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; }
if have_pango && have_fonts; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Pango or the DejaVu fonts are missing: run 'sudo apt-get install -y libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core' (PDFs need them)."
  exit 1
fi
echo "Installing Debian's Pango and DejaVu fonts for PDFs"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core >/dev/null
